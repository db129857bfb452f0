/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/vmcb.h - the Virtual Machine Control Block (AMD APM vol 2, appendix
 * B, tables B-1 and B-2) as a struct, its intercept numbers and the #VMEXIT
 * codes (appendix C). Hardware definitions only, as Linux's asm/svm.h;
 * every architectural offset is pinned by a _Static_assert. */
#ifndef MINHV_ARCH_VMCB_H
#define MINHV_ARCH_VMCB_H

#include "arch/types.h"
#include "arch/vectors.h"

/* Intercepts are numbered absolutely: word * 32 + bit, the words in VMCB
 * order (APM table B-1): 0 CR reads/writes (0x000), 1 DR (0x004),
 * 2 exceptions (0x008), 3 general 1 (0x00C), 4 general 2 (0x010),
 * 5 general 3 (0x014). So no name can land in the wrong word. */
#define INTERCEPT_WORDS 6
#define INTERCEPT_CR_READ(n) (0 * 32 + (n))
#define INTERCEPT_CR_WRITE(n) (0 * 32 + 16 + (n))
#define INTERCEPT_DR_READ(n) (1 * 32 + (n))
#define INTERCEPT_DR_WRITE(n) (1 * 32 + 16 + (n))
#define INTERCEPT_EXCEPTION(vec) (2 * 32 + (vec))
enum {
	/* Word 3, offset 0x00C. */
	INTERCEPT_INTR = 3 * 32,
	INTERCEPT_NMI,
	INTERCEPT_SMI,
	INTERCEPT_INIT,
	INTERCEPT_VINTR,
	INTERCEPT_SELECTIVE_CR0,
	INTERCEPT_STORE_IDTR,
	INTERCEPT_STORE_GDTR,
	INTERCEPT_STORE_LDTR,
	INTERCEPT_STORE_TR,
	INTERCEPT_LOAD_IDTR,
	INTERCEPT_LOAD_GDTR,
	INTERCEPT_LOAD_LDTR,
	INTERCEPT_LOAD_TR,
	INTERCEPT_RDTSC,
	INTERCEPT_RDPMC,
	INTERCEPT_PUSHF,
	INTERCEPT_POPF,
	INTERCEPT_CPUID,
	INTERCEPT_RSM,
	INTERCEPT_IRET,
	INTERCEPT_INTN,
	INTERCEPT_INVD,
	INTERCEPT_PAUSE,
	INTERCEPT_HLT,
	INTERCEPT_INVLPG,
	INTERCEPT_INVLPGA,
	INTERCEPT_IOIO_PROT,
	INTERCEPT_MSR_PROT,
	INTERCEPT_TASK_SWITCH,
	INTERCEPT_FERR_FREEZE,
	INTERCEPT_SHUTDOWN,
	/* Word 4, offset 0x010. */
	INTERCEPT_VMRUN = 4 * 32,
	INTERCEPT_VMMCALL,
	INTERCEPT_VMLOAD,
	INTERCEPT_VMSAVE,
	INTERCEPT_STGI,
	INTERCEPT_CLGI,
	INTERCEPT_SKINIT,
	INTERCEPT_RDTSCP,
	INTERCEPT_ICEBP,
	INTERCEPT_WBINVD,
	INTERCEPT_MONITOR,
	INTERCEPT_MWAIT,
	INTERCEPT_MWAIT_COND,
	INTERCEPT_XSETBV,
	INTERCEPT_RDPRU,
	INTERCEPT_EFER_WRITE_TRAP,
	/* Word 5, offset 0x014. */
	INTERCEPT_INVLPGB = 5 * 32,
	INTERCEPT_INVLPGB_ILLEGAL,
	INTERCEPT_INVPCID,
	INTERCEPT_MCOMMIT,
	INTERCEPT_TLBSYNC,
};
/* Spot checks against APM table B-1 (bit within word). */
_Static_assert(INTERCEPT_CPUID == 3 * 32 + 18, "CPUID is word 3 bit 18");
_Static_assert(INTERCEPT_SHUTDOWN == 3 * 32 + 31, "word 3 bit 31");
_Static_assert(INTERCEPT_XSETBV == 4 * 32 + 13, "XSETBV is word 4 bit 13");
_Static_assert(INTERCEPT_EFER_WRITE_TRAP == 4 * 32 + 15, "word 4 bit 15");

/* Exit codes (APM appendix C); a 64-bit value. */
#define VMEXIT_CR_READ(n) (0x00ULL + (n))
#define VMEXIT_CR_WRITE(n) (0x10ULL + (n))
#define VMEXIT_DR_READ(n) (0x20ULL + (n))
#define VMEXIT_DR_WRITE(n) (0x30ULL + (n))
#define VMEXIT_CR8_WRITE VMEXIT_CR_WRITE(8)
#define VMEXIT_EXCP_BASE 0x40ULL /* + vector, 0x40-0x5F */
#define VMEXIT_EXCP_DB 0x41ULL
#define VMEXIT_EXCP_NP 0x4bULL
#define VMEXIT_EXCP_SS 0x4cULL
#define VMEXIT_EXCP_GP 0x4dULL
#define VMEXIT_EXCP_PF 0x4eULL
#define VMEXIT_EXCP_AC 0x51ULL
#define VMEXIT_EXCP_MC 0x52ULL
#define VMEXIT_INTR 0x60ULL
#define VMEXIT_NMI 0x61ULL
#define VMEXIT_SMI 0x62ULL
#define VMEXIT_INIT 0x63ULL
#define VMEXIT_VINTR 0x64ULL
#define VMEXIT_CR0_SEL_WRITE 0x65ULL
#define VMEXIT_RDTSC 0x6eULL
#define VMEXIT_RDPMC 0x6fULL
#define VMEXIT_PUSHF 0x70ULL
#define VMEXIT_POPF 0x71ULL
#define VMEXIT_CPUID 0x72ULL
#define VMEXIT_RSM 0x73ULL
#define VMEXIT_IRET 0x74ULL
#define VMEXIT_SWINT 0x75ULL
#define VMEXIT_INVD 0x76ULL
#define VMEXIT_PAUSE 0x77ULL
#define VMEXIT_HLT 0x78ULL
#define VMEXIT_INVLPG 0x79ULL
#define VMEXIT_INVLPGA 0x7aULL
#define VMEXIT_IOIO 0x7bULL
/* IOIO EXITINFO1 (APM vol 2 15.10.2): TYPE (1 = IN), STR, the size. */
#define IOIO_INFO_IN BIT(0)
#define IOIO_INFO_STR BIT(2)
#define IOIO_INFO_SZ8 BIT(4)
#define IOIO_INFO_SZ16 BIT(5)
#define IOIO_INFO_SZ32 BIT(6)
#define VMEXIT_MSR 0x7cULL
#define VMEXIT_TASK_SWITCH 0x7dULL
#define VMEXIT_FERR_FREEZE 0x7eULL
#define VMEXIT_SHUTDOWN 0x7fULL
#define VMEXIT_VMRUN 0x80ULL
#define VMEXIT_VMMCALL 0x81ULL
#define VMEXIT_VMLOAD 0x82ULL
#define VMEXIT_VMSAVE 0x83ULL
#define VMEXIT_STGI 0x84ULL
#define VMEXIT_CLGI 0x85ULL
#define VMEXIT_SKINIT 0x86ULL
#define VMEXIT_RDTSCP 0x87ULL
#define VMEXIT_ICEBP 0x88ULL
#define VMEXIT_WBINVD 0x89ULL
#define VMEXIT_MONITOR 0x8aULL
#define VMEXIT_MWAIT 0x8bULL
#define VMEXIT_MWAIT_COND 0x8cULL
#define VMEXIT_XSETBV 0x8dULL
#define VMEXIT_RDPRU 0x8eULL
#define VMEXIT_EFER_WRITE_TRAP 0x8fULL
#define VMEXIT_NPF 0x400ULL
#define VMEXIT_INVALID (~0ULL)
/* QEMU 10.0.2 TCG stores -1 as a 32-bit value (docs/SVM.md). */
#define VMEXIT_INVALID_32 0xffffffffULL

/* TLB_CONTROL (0x5C), APM 15.16.1. */
#define TLB_CONTROL_NOTHING 0
#define TLB_CONTROL_FLUSH_ALL 1
#define TLB_CONTROL_FLUSH_ASID 3

/* VMCB clean bits (0x0C0), APM 15.15.3: a set bit tells VMRUN that the
 * group is unchanged since this VMCB's last VMRUN on this CPU, so the
 * processor may use its cached copy. Whoever writes a field of a group
 * after the first VMRUN clears its bit (vmcb_mark_dirty()). Fields outside
 * every group (EVENTINJ, TLB_CONTROL, RIP, RSP, RAX, RFLAGS, the VMLOAD
 * state, SPEC_CTRL) are always read. Only with CPUID 0x8000000A:EDX[5]. */
#define VMCB_CLEAN_I BIT(0) /* intercepts, TSC offset, PAUSE filter */
#define VMCB_CLEAN_IOPM BIT(1) /* IOPM_BASE_PA, MSRPM_BASE_PA */
#define VMCB_CLEAN_ASID BIT(2)
#define VMCB_CLEAN_TPR BIT(3) /* V_TPR, V_IRQ, V_INTR_*, V_IGN_TPR */
#define VMCB_CLEAN_NP BIT(4) /* NP_ENABLE, N_CR3, G_PAT */
#define VMCB_CLEAN_CRX BIT(5) /* CR0, CR3, CR4, EFER */
#define VMCB_CLEAN_DRX BIT(6) /* DR6, DR7 */
#define VMCB_CLEAN_DT BIT(7) /* GDTR, IDTR */
#define VMCB_CLEAN_SEG BIT(8) /* CS, DS, SS, ES, CPL */
#define VMCB_CLEAN_CR2 BIT(9)
#define VMCB_CLEAN_LBR BIT(10) /* DBGCTL, BR_FROM/TO, LASTEXCP* */
#define VMCB_CLEAN_AVIC BIT(11)
#define VMCB_CLEAN_ALL 0xfffU /* bits 31:12 are reserved: written 0 */

/* V_INTR (0x060), APM 15.21.1 and table B-1: the virtual TPR, a virtual
 * interrupt to take (V_IRQ with its priority and vector, V_IGN_TPR: take
 * it whatever V_TPR says), and V_INTR_MASKING (host IF gates physical
 * interrupts, the guest's IF only virtual ones). */
#define V_TPR_MASK 0xfULL /* bits 3:0 */
#define V_IRQ BIT(8)
#define V_INTR_PRIO(p) ((u64)(p) << 16) /* bits 19:16 */
#define V_IGN_TPR BIT(20)
#define V_INTR_MASKING BIT(24)
#define V_INTR_VECTOR(v) ((u64)(v) << 32) /* bits 39:32 */
/* INT_SHADOW (0x068), APM 15.21.5: bit 0, the guest is in an interrupt
 * shadow (after STI or MOV SS). */
#define INT_SHADOW BIT(0)
#define NP_ENABLE BIT(0) /* 0x90, APM 15.25.3 */

/* EVENTINJ (0xA8), APM 15.20. */
#define EVENTINJ_TYPE_INTR (0ULL << 8)
#define EVENTINJ_TYPE_NMI (2ULL << 8)
#define EVENTINJ_TYPE_EXCEPTION (3ULL << 8)
#define EVENTINJ_TYPE_SOFT (4ULL << 8) /* INTn */
#define EVENTINJ_TYPE_MASK (7ULL << 8)
#define EVENTINJ_EV BIT(11)
#define EVENTINJ_VALID BIT(31) /* vectors: arch/vectors.h */

/* Segment register in the save area: attrib packs descriptor bits
 * 47:40 into 7:0 and 55:52 into 11:8 (APM 15.5.1). */
#define SEG_ATTR_L BIT(9) /* descriptor bit 53: 64-bit code */
#define SEG_ATTR_D BIT(10) /* descriptor bit 54: default size 32 (D/B) */
struct vmcb_seg {
	u16 selector;
	u16 attrib;
	u32 limit;
	u64 base;
};
_Static_assert(sizeof(struct vmcb_seg) == 16, "vmcb_seg");

struct vmcb_control {
	/* 0x000-0x017: six intercept words. Set, clear and test them only
	 * with vmcb_set_intercept() & co., which index intercepts[] by an
	 * INTERCEPT_* number; the names are for dumps and tests. */
	union {
		u32 intercepts[INTERCEPT_WORDS];
		struct {
			u32 intercept_cr; /* 0x000: reads 15:0, writes 31:16 */
			u32 intercept_dr; /* 0x004 */
			u32 intercept_exceptions; /* 0x008 */
			u32 intercept1; /* 0x00C: INTR ... SHUTDOWN */
			u32 intercept2; /* 0x010: VMRUN ... */
			u32 intercept3; /* 0x014 */
		};
	};
	u8 reserved_018[0x03c - 0x018];
	u16 pause_filter_threshold; /* 0x03C */
	u16 pause_filter_count; /* 0x03E */
	u64 iopm_base_pa; /* 0x040 */
	u64 msrpm_base_pa; /* 0x048 */
	u64 tsc_offset; /* 0x050 */
	u32 asid; /* 0x058 */
	u8 tlb_control; /* 0x05C */
	u8 reserved_05d[3];
	u64 v_intr; /* 0x060 */
	u64 int_shadow; /* 0x068 */
	u64 exit_code; /* 0x070 */
	u64 exit_info1; /* 0x078 */
	u64 exit_info2; /* 0x080 */
	u64 exit_int_info; /* 0x088 */
	u64 np_enable; /* 0x090 */
	u64 avic_apic_bar; /* 0x098 */
	u64 ghcb_pa; /* 0x0A0 */
	u64 event_inj; /* 0x0A8 */
	u64 n_cr3; /* 0x0B0 */
	u64 lbr_virt; /* 0x0B8 */
	u32 clean; /* 0x0C0 */
	u32 reserved_0c4;
	u64 next_rip; /* 0x0C8 */
	u8 insn_len; /* 0x0D0 */
	u8 insn_bytes[15]; /* 0x0D1 */
	u8 reserved_0e0[0x400 - 0x0e0];
};

struct vmcb_save {
	struct vmcb_seg es; /* 0x400 */
	struct vmcb_seg cs; /* 0x410 */
	struct vmcb_seg ss; /* 0x420 */
	struct vmcb_seg ds; /* 0x430 */
	struct vmcb_seg fs; /* 0x440 */
	struct vmcb_seg gs; /* 0x450 */
	struct vmcb_seg gdtr; /* 0x460 */
	struct vmcb_seg ldtr; /* 0x470 */
	struct vmcb_seg idtr; /* 0x480 */
	struct vmcb_seg tr; /* 0x490 */
	u8 reserved_4a0[0x4cb - 0x4a0];
	u8 cpl; /* 0x4CB */
	u32 reserved_4cc;
	u64 efer; /* 0x4D0 */
	u8 reserved_4d8[0x548 - 0x4d8];
	u64 cr4; /* 0x548 */
	u64 cr3; /* 0x550 */
	u64 cr0; /* 0x558 */
	u64 dr7; /* 0x560 */
	u64 dr6; /* 0x568 */
	u64 rflags; /* 0x570 */
	u64 rip; /* 0x578 */
	u8 reserved_580[0x5d8 - 0x580];
	u64 rsp; /* 0x5D8 */
	u64 s_cet; /* 0x5E0 */
	u64 ssp; /* 0x5E8 */
	u64 isst_addr; /* 0x5F0 */
	u64 rax; /* 0x5F8 */
	u64 star; /* 0x600 */
	u64 lstar; /* 0x608 */
	u64 cstar; /* 0x610 */
	u64 sfmask; /* 0x618 */
	u64 kernel_gs_base; /* 0x620 */
	u64 sysenter_cs; /* 0x628 */
	u64 sysenter_esp; /* 0x630 */
	u64 sysenter_eip; /* 0x638 */
	u64 cr2; /* 0x640 */
	u8 reserved_648[0x668 - 0x648];
	u64 g_pat; /* 0x668 */
	u64 dbgctl; /* 0x670 */
	u64 br_from; /* 0x678 */
	u64 br_to; /* 0x680 */
	u64 last_excp_from; /* 0x688 */
	u64 last_excp_to; /* 0x690 */
	u8 reserved_698[0x6e0 - 0x698];
	u64 spec_ctrl; /* 0x6E0 (save area +0x2E0): with V_SPEC_CTRL */
	u8 reserved_6e8[0x1000 - 0x6e8];
};

struct vmcb {
	struct vmcb_control control; /* 0x000 */
	struct vmcb_save save; /* 0x400 */
};

#define VMCB_CTL(f, off) \
	_Static_assert(offsetof(struct vmcb, control.f) == (off), "vmcb " #f)
#define VMCB_SAVE(f, off) \
	_Static_assert(offsetof(struct vmcb, save.f) == (off), "vmcb " #f)
VMCB_CTL(intercept_cr, 0x000);
VMCB_CTL(intercept_dr, 0x004);
VMCB_CTL(intercept_exceptions, 0x008);
VMCB_CTL(intercept1, 0x00c);
VMCB_CTL(intercept2, 0x010);
VMCB_CTL(intercept3, 0x014);
_Static_assert(offsetof(struct vmcb, control.intercepts[INTERCEPT_INTR / 32]) ==
		       0x00c,
	       "INTERCEPT_* word 3 is intercept1");
_Static_assert(offsetof(struct vmcb,
			control.intercepts[INTERCEPT_VMRUN / 32]) == 0x010,
	       "INTERCEPT_* word 4 is intercept2");
VMCB_CTL(pause_filter_threshold, 0x03c);
VMCB_CTL(pause_filter_count, 0x03e);
VMCB_CTL(iopm_base_pa, 0x040);
VMCB_CTL(msrpm_base_pa, 0x048);
VMCB_CTL(tsc_offset, 0x050);
VMCB_CTL(asid, 0x058);
VMCB_CTL(tlb_control, 0x05c);
VMCB_CTL(v_intr, 0x060);
VMCB_CTL(int_shadow, 0x068);
VMCB_CTL(exit_code, 0x070);
VMCB_CTL(exit_info1, 0x078);
VMCB_CTL(exit_info2, 0x080);
VMCB_CTL(exit_int_info, 0x088);
VMCB_CTL(np_enable, 0x090);
VMCB_CTL(event_inj, 0x0a8);
VMCB_CTL(n_cr3, 0x0b0);
VMCB_CTL(clean, 0x0c0);
VMCB_CTL(next_rip, 0x0c8);
VMCB_CTL(insn_len, 0x0d0);
VMCB_SAVE(es, 0x400);
VMCB_SAVE(cs, 0x410);
VMCB_SAVE(ss, 0x420);
VMCB_SAVE(ds, 0x430);
VMCB_SAVE(fs, 0x440);
VMCB_SAVE(gs, 0x450);
VMCB_SAVE(gdtr, 0x460);
VMCB_SAVE(ldtr, 0x470);
VMCB_SAVE(idtr, 0x480);
VMCB_SAVE(tr, 0x490);
VMCB_SAVE(cpl, 0x4cb);
VMCB_SAVE(efer, 0x4d0);
VMCB_SAVE(cr4, 0x548);
VMCB_SAVE(cr3, 0x550);
VMCB_SAVE(cr0, 0x558);
VMCB_SAVE(dr7, 0x560);
VMCB_SAVE(dr6, 0x568);
VMCB_SAVE(rflags, 0x570);
VMCB_SAVE(rip, 0x578);
VMCB_SAVE(rsp, 0x5d8);
VMCB_SAVE(rax, 0x5f8);
VMCB_SAVE(star, 0x600);
VMCB_SAVE(lstar, 0x608);
VMCB_SAVE(cstar, 0x610);
VMCB_SAVE(sfmask, 0x618);
VMCB_SAVE(kernel_gs_base, 0x620);
VMCB_SAVE(sysenter_cs, 0x628);
VMCB_SAVE(sysenter_esp, 0x630);
VMCB_SAVE(sysenter_eip, 0x638);
VMCB_SAVE(cr2, 0x640);
VMCB_SAVE(g_pat, 0x668);
VMCB_SAVE(dbgctl, 0x670);
VMCB_SAVE(spec_ctrl, 0x6e0);
_Static_assert(sizeof(struct vmcb) == PAGE_SIZE, "one page");

/* The next VMRUN must reload the groups in mask (VMCB_CLEAN_*). */
static inline void vmcb_mark_dirty(struct vmcb *v, u32 mask)
{
	v->control.clean &= ~mask;
}

/* The intercept setters mark their group dirty themselves, so a change
 * after the first VMRUN cannot be missed (APM 15.15.3). */
static inline void vmcb_set_intercept(struct vmcb *v, unsigned bit)
{
	v->control.intercepts[bit / 32] |= 1U << (bit % 32);
	vmcb_mark_dirty(v, VMCB_CLEAN_I);
}

static inline void vmcb_clr_intercept(struct vmcb *v, unsigned bit)
{
	v->control.intercepts[bit / 32] &= ~(1U << (bit % 32));
	vmcb_mark_dirty(v, VMCB_CLEAN_I);
}

static inline void vmcb_set_tsc_offset(struct vmcb *v, u64 off)
{
	v->control.tsc_offset = off;
	vmcb_mark_dirty(v, VMCB_CLEAN_I);
}

/* The PAUSE filter count (0x3E) is in the I group too (table 15-9). */
static inline void vmcb_set_pause_filter_count(struct vmcb *v, u16 count)
{
	v->control.pause_filter_count = count;
	vmcb_mark_dirty(v, VMCB_CLEAN_I);
}

/* Setters of the cached save-area fields exit handlers change: each marks
 * its group (APM 15.15.3 table 15-9), so no write can forget it. The
 * builders (a VMCB that has never run, clean = 0) write the fields
 * directly; tools/check-layout.sh rejects a direct write anywhere else. */
static inline void vmcb_set_dr6(struct vmcb *v, u64 val)
{
	v->save.dr6 = val;
	vmcb_mark_dirty(v, VMCB_CLEAN_DRX);
}

static inline void vmcb_set_dr7(struct vmcb *v, u64 val)
{
	v->save.dr7 = val;
	vmcb_mark_dirty(v, VMCB_CLEAN_DRX);
}

static inline void vmcb_set_efer(struct vmcb *v, u64 val)
{
	v->save.efer = val;
	vmcb_mark_dirty(v, VMCB_CLEAN_CRX);
}

static inline void vmcb_set_cr0(struct vmcb *v, u64 val)
{
	v->save.cr0 = val;
	vmcb_mark_dirty(v, VMCB_CLEAN_CRX);
}

/* CR2 before a #PF is injected (EVENTINJ does not set it, APM 15.20). */
static inline void vmcb_set_cr2(struct vmcb *v, u64 val)
{
	v->save.cr2 = val;
	vmcb_mark_dirty(v, VMCB_CLEAN_CR2);
}

static inline void vmcb_set_g_pat(struct vmcb *v, u64 val)
{
	v->save.g_pat = val;
	vmcb_mark_dirty(v, VMCB_CLEAN_NP);
}

/* V_INTR (V_TPR, V_IRQ, ...): its group only when the value changes. */
static inline void vmcb_set_v_intr(struct vmcb *v, u64 val)
{
	if (v->control.v_intr == val)
		return;
	v->control.v_intr = val;
	vmcb_mark_dirty(v, VMCB_CLEAN_TPR);
}

static inline bool vmcb_has_intercept(const struct vmcb *v, unsigned bit)
{
	return v->control.intercepts[bit / 32] & (1U << (bit % 32));
}

#endif
