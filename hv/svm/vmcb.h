/* hv/svm/vmcb.h - the Virtual Machine Control Block as a struct (APM vol 2,
 * appendix B, tables B-1 and B-2), its intercept bits and exit codes.
 * Every architectural offset is pinned by a _Static_assert. */
#ifndef MINHV_HV_VMCB_H
#define MINHV_HV_VMCB_H

#include "arch/types.h"

/* Intercept vector 3 (offset 0x0C), APM table B-1. */
#define INTERCEPT_INTR BIT(0)
#define INTERCEPT_NMI BIT(1)
#define INTERCEPT_SMI BIT(2)
#define INTERCEPT_INIT BIT(3)
#define INTERCEPT_VINTR BIT(4)
#define INTERCEPT_RDTSC BIT(14)
#define INTERCEPT_CPUID BIT(18)
#define INTERCEPT_INVD BIT(22)
#define INTERCEPT_PAUSE BIT(23)
#define INTERCEPT_HLT BIT(24)
#define INTERCEPT_INVLPG BIT(25)
#define INTERCEPT_INVLPGA BIT(26)
#define INTERCEPT_IOIO_PROT BIT(27)
#define INTERCEPT_MSR_PROT BIT(28)
#define INTERCEPT_SHUTDOWN BIT(31)
/* Intercept vector 4 (offset 0x10). */
#define INTERCEPT_VMRUN BIT(0)
#define INTERCEPT_VMMCALL BIT(1)
#define INTERCEPT_VMLOAD BIT(2)
#define INTERCEPT_VMSAVE BIT(3)
#define INTERCEPT_STGI BIT(4)
#define INTERCEPT_CLGI BIT(5)
#define INTERCEPT_SKINIT BIT(6)
#define INTERCEPT_RDTSCP BIT(7)
#define INTERCEPT_ICEBP BIT(8)
#define INTERCEPT_WBINVD BIT(9)
#define INTERCEPT_MONITOR BIT(10)
#define INTERCEPT_MWAIT BIT(11)
#define INTERCEPT_XSETBV BIT(13)

/* Exit codes (APM appendix C); a 64-bit value. */
#define VMEXIT_EXCP_BASE 0x40ULL
#define VMEXIT_INTR 0x60ULL
#define VMEXIT_NMI 0x61ULL
#define VMEXIT_SMI 0x62ULL
#define VMEXIT_INIT 0x63ULL
#define VMEXIT_VINTR 0x64ULL
#define VMEXIT_CPUID 0x72ULL
#define VMEXIT_PAUSE 0x77ULL
#define VMEXIT_HLT 0x78ULL
#define VMEXIT_INVLPGA 0x7aULL
#define VMEXIT_IOIO 0x7bULL
#define VMEXIT_MSR 0x7cULL
#define VMEXIT_SHUTDOWN 0x7fULL
#define VMEXIT_VMRUN 0x80ULL
#define VMEXIT_VMMCALL 0x81ULL
#define VMEXIT_VMLOAD 0x82ULL
#define VMEXIT_VMSAVE 0x83ULL
#define VMEXIT_STGI 0x84ULL
#define VMEXIT_CLGI 0x85ULL
#define VMEXIT_SKINIT 0x86ULL
#define VMEXIT_NPF 0x400ULL
#define VMEXIT_INVALID (~0ULL)
/* QEMU 10.0.2 TCG stores -1 as a 32-bit value (docs/SVM.md). */
#define VMEXIT_INVALID_32 0xffffffffULL

/* TLB_CONTROL (0x5C), APM 15.16.1. */
#define TLB_CONTROL_NOTHING 0
#define TLB_CONTROL_FLUSH_ALL 1
#define TLB_CONTROL_FLUSH_ASID 3

#define V_INTR_MASKING BIT(24) /* V_INTR at 0x60, APM 15.21.1 */
#define NP_ENABLE BIT(0) /* 0x90, APM 15.25.3 */

/* EVENTINJ (0xA8), APM 15.20. */
#define EVENTINJ_TYPE_INTR (0ULL << 8)
#define EVENTINJ_TYPE_NMI (2ULL << 8)
#define EVENTINJ_TYPE_EXCEPTION (3ULL << 8)
#define EVENTINJ_EV BIT(11)
#define EVENTINJ_VALID BIT(31)
#define VEC_UD 6
#define VEC_GP 13

/* Segment register in the save area: attrib packs descriptor bits
 * 47:40 into 7:0 and 55:52 into 11:8 (APM 15.5.1). */
struct vmcb_seg {
	u16 selector;
	u16 attrib;
	u32 limit;
	u64 base;
};
_Static_assert(sizeof(struct vmcb_seg) == 16, "vmcb_seg");

struct vmcb_control {
	u32 intercept_cr; /* 0x000: reads 15:0, writes 31:16 */
	u32 intercept_dr; /* 0x004 */
	u32 intercept_exceptions; /* 0x008 */
	u32 intercept1; /* 0x00C: INTERCEPT_INTR ... SHUTDOWN */
	u32 intercept2; /* 0x010: INTERCEPT_VMRUN ... */
	u32 intercept3; /* 0x014 */
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
	u8 reserved_698[0x1000 - 0x698];
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
_Static_assert(sizeof(struct vmcb) == PAGE_SIZE, "one page");

/* Print the VMCB fields that explain an exit or a failed VMRUN. */
void vmcb_dump(const struct vmcb *v);

#include "hv/features.h"
#include "hv/svm/pause.h"

#define IOPM_PAGES 3 /* 12 KiB, APM 15.10.1 */
#define MSRPM_PAGES 2 /* 8 KiB, APM 15.11 */

/* What varies per guest and vCPU; everything else follows from features. */
struct vmcb_guest {
	u32 asid; /* non-zero */
	hpa_t iopm, msrpm, ncr3;
	u64 cr3; /* guest CR3 (a GPA) */
	gpa_t rip, rsp;
};

/* Fill a zeroed VMCB: intercepts, PAUSE filter, ASID, nested paging and
 * a 64-bit long-mode guest state. Pure: reads only its arguments. */
void vmcb_build(struct vmcb *v, const struct features *f,
		const struct pause_policy *p, const struct vmcb_guest *g);
/* Turn the initial state into 32-bit flat protected mode, paging off
 * (Multiboot 3.2): CR0.PE only, EFER.SVME only, flat 4 GiB segments. */
void vmcb_set_flat32(struct vmcb *v, u32 eip);
/* IOPM: every port intercepted (all ones). */
void iopm_build(void *iopm);
/* MSRPM: every MSR intercepted except the pass-through allow-list. */
void msrpm_build(void *msrpm);
/* Bit offset of msr's read bit in the MSRPM (write bit = +1), or -1 for
 * MSRs outside the three ranges (those always exit). APM 15.11. */
long msrpm_bit(u32 msr);
bool msrpm_intercepts(const void *msrpm, u32 msr, bool write);
/* The first VMRUN consistency rule (15.5.1) v breaks, or NULL. */
const char *vmcb_check(const struct vmcb *v, const struct features *f);

#endif
