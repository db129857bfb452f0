// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vmcb.c - VMCB layout, the builder's intercepts, PAUSE
 * fields, guest state, the permission maps and the VMRUN checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "include/minhv/guest_layout.h"
#include "arch/errno.h"
#include "hv/vmcb/asid.h"
#include "hv/vmcb/vmcb.h"
#include "tests/doubles/fake_cpu.h"

static struct features epyc(void)
{
	struct features f = { 0 };

	f.svm = f.npt = f.nx = true;
	f.svm_nasid = 16;
	f.phys_addr_bits = 48;
	f.max_ext_leaf = 0x80000025;
	return f;
}

static const struct vmcb_guest vg = {
	.asid = 3,
	.iopm = { 0x200000 },
	.msrpm = { 0x204000 },
	.ncr3 = { 0x300000 },
	.cr3 = 0x10000,
	.rip = { 0x100040 },
	.rsp = { 0x4000000 },
};

static struct vmcb *build(const struct features *f,
			  const struct pause_policy *p)
{
	struct vmcb *v = aligned_alloc(4096, sizeof(*v));

	memset(v, 0xa5, sizeof(*v)); /* the builder must clear it */
	vmcb_build(v, f, p, &vg);
	return v;
}

/* Runtime mirror of the static asserts: byte offsets via raw pointers. */
static void test_layout(void **s)
{
	struct vmcb v;
	u8 *b = (u8 *)&v;

	(void)s;
	assert_int_equal(sizeof(v), 4096);
	assert_ptr_equal((u8 *)&v.control.pause_filter_threshold, b + 0x3c);
	assert_ptr_equal((u8 *)&v.control.pause_filter_count, b + 0x3e);
	assert_ptr_equal((u8 *)&v.control.iopm_base_pa, b + 0x40);
	assert_ptr_equal((u8 *)&v.control.msrpm_base_pa, b + 0x48);
	assert_ptr_equal((u8 *)&v.control.asid, b + 0x58);
	assert_ptr_equal((u8 *)&v.control.tlb_control, b + 0x5c);
	assert_ptr_equal((u8 *)&v.control.exit_code, b + 0x70);
	assert_ptr_equal((u8 *)&v.control.exit_info1, b + 0x78);
	assert_ptr_equal((u8 *)&v.control.exit_info2, b + 0x80);
	assert_ptr_equal((u8 *)&v.control.exit_int_info, b + 0x88);
	assert_ptr_equal((u8 *)&v.control.np_enable, b + 0x90);
	assert_ptr_equal((u8 *)&v.control.event_inj, b + 0xa8);
	assert_ptr_equal((u8 *)&v.control.n_cr3, b + 0xb0);
	assert_ptr_equal((u8 *)&v.control.clean, b + 0xc0);
	assert_ptr_equal((u8 *)&v.control.next_rip, b + 0xc8);
	assert_ptr_equal((u8 *)&v.save.es, b + 0x400);
	assert_ptr_equal((u8 *)&v.save.cs, b + 0x410);
	assert_ptr_equal((u8 *)&v.save.tr, b + 0x490);
	assert_ptr_equal((u8 *)&v.save.cpl, b + 0x4cb);
	assert_ptr_equal((u8 *)&v.save.efer, b + 0x4d0);
	assert_ptr_equal((u8 *)&v.save.cr4, b + 0x548);
	assert_ptr_equal((u8 *)&v.save.cr3, b + 0x550);
	assert_ptr_equal((u8 *)&v.save.cr0, b + 0x558);
	assert_ptr_equal((u8 *)&v.save.rflags, b + 0x570);
	assert_ptr_equal((u8 *)&v.save.rip, b + 0x578);
	assert_ptr_equal((u8 *)&v.save.rsp, b + 0x5d8);
	assert_ptr_equal((u8 *)&v.save.rax, b + 0x5f8);
	assert_ptr_equal((u8 *)&v.save.kernel_gs_base, b + 0x620);
	assert_ptr_equal((u8 *)&v.save.cr2, b + 0x640);
	assert_ptr_equal((u8 *)&v.save.g_pat, b + 0x668);
}

static void test_intercepts(void **s)
{
	struct features f = epyc();
	struct pause_policy p = { .intercept = false };
	struct vmcb *v = build(&f, &p);
	u32 want1 = BIT(0) | BIT(1) | BIT(18) | BIT(22) | BIT(24) | BIT(26) |
		    BIT(27) | BIT(28) | BIT(31);

	(void)s;
	/* Exactly INTR NMI CPUID INVD HLT INVLPGA IOIO MSR SHUTDOWN... */
	assert_int_equal(v->control.intercept1, want1);
	/* ...and VMRUN VMMCALL VMLOAD VMSAVE STGI CLGI SKINIT WBINVD MONITOR
	 * MWAIT XSETBV (MONITORX/MWAITX exit as MONITOR/MWAIT, H7). */
	assert_int_equal(v->control.intercept2,
			 0x7f | BIT(9) | BIT(10) | BIT(11) | BIT(13));
	assert_int_equal(v->control.intercept_cr, 0);
	assert_int_equal(v->control.intercept_exceptions,
			 BIT(1) | BIT(17) | BIT(18)); /* #DB #AC #MC */
	assert_int_equal(v->control.asid, 3);
	assert_int_equal(v->control.np_enable, 1);
	assert_int_equal(v->control.n_cr3, 0x300000);
	assert_int_equal(v->control.iopm_base_pa, 0x200000);
	assert_int_equal(v->control.msrpm_base_pa, 0x204000);
	assert_int_equal(v->control.tlb_control, TLB_CONTROL_FLUSH_ALL);
	assert_int_equal(v->control.v_intr, V_INTR_MASKING);
	assert_int_equal(v->control.event_inj, 0);
	assert_int_equal(v->control.pause_filter_count, 0);
	assert_int_equal(v->control.exit_code, 0);
	free(v);
}

/* Absolute intercept numbers: each lands in its own word and bit at the
 * VMCB offsets of APM table B-1, INTR (0x0C bit 0) and VMRUN (0x10 bit 0)
 * no longer alias. */
static void test_intercept_accessors(void **s)
{
	struct vmcb *v = aligned_alloc(4096, sizeof(*v));
	u8 *b = (u8 *)v;

	(void)s;
	memset(v, 0, sizeof(*v));
	vmcb_set_intercept(v, INTERCEPT_INTR);
	assert_int_equal(*(u32 *)(b + 0x0c), BIT(0));
	assert_int_equal(*(u32 *)(b + 0x10), 0);
	assert_false(vmcb_has_intercept(v, INTERCEPT_VMRUN));
	vmcb_set_intercept(v, INTERCEPT_VMRUN);
	vmcb_set_intercept(v, INTERCEPT_XSETBV);
	assert_int_equal(*(u32 *)(b + 0x10), BIT(0) | BIT(13));
	vmcb_set_intercept(v, INTERCEPT_CR_WRITE(3));
	assert_int_equal(*(u32 *)(b + 0x00), BIT(19));
	vmcb_set_intercept(v, INTERCEPT_EXCEPTION(14));
	assert_int_equal(*(u32 *)(b + 0x08), BIT(14));
	vmcb_set_intercept(v, INTERCEPT_INVLPGB);
	assert_int_equal(*(u32 *)(b + 0x14), BIT(0));
	vmcb_clr_intercept(v, INTERCEPT_INTR);
	assert_int_equal(*(u32 *)(b + 0x0c), 0);
	assert_true(vmcb_has_intercept(v, INTERCEPT_VMRUN));
	assert_false(vmcb_has_intercept(v, INTERCEPT_INTR));
	free(v);
}

static void test_pause_fields(void **s)
{
	struct features f = epyc();
	struct pause_policy p = { .intercept = true,
				  .count = 4000,
				  .threshold = 1000 };
	struct vmcb *v = build(&f, &p);

	(void)s;
	assert_true(vmcb_has_intercept(v, INTERCEPT_PAUSE));
	assert_true(*(u32 *)((u8 *)v + 0x0c) & BIT(23)); /* APM table B-1 */
	assert_int_equal(*(u16 *)((u8 *)v + 0x3e), 4000);
	assert_int_equal(*(u16 *)((u8 *)v + 0x3c), 1000);
	free(v);
	p = (struct pause_policy){ .intercept = true, .count = 0 };
	v = build(&f, &p);
	assert_true(vmcb_has_intercept(v, INTERCEPT_PAUSE));
	assert_int_equal(v->control.pause_filter_count, 0);
	free(v);
	/* Not intercepted (one vCPU per CPU): the filter values stay in the
	 * VMCB, for pause_intercept=on to use. */
	p = (struct pause_policy){ .count = 4000, .threshold = 1000 };
	v = build(&f, &p);
	assert_false(vmcb_has_intercept(v, INTERCEPT_PAUSE));
	assert_int_equal(v->control.pause_filter_count, 4000);
	assert_int_equal(v->control.pause_filter_threshold, 1000);
	free(v);
}

static void test_guest_state(void **s)
{
	struct features f = epyc();
	struct pause_policy p = { 0 };
	struct vmcb *v = build(&f, &p);

	(void)s;
	assert_int_equal(v->save.cr0 & 0x80000001, 0x80000001); /* PG PE */
	assert_int_equal(v->save.cr4, 0x20); /* PAE only */
	assert_int_equal(v->save.efer,
			 EFER_LME | EFER_LMA | EFER_SVME | EFER_NXE);
	assert_int_equal(v->save.cs.attrib & 0x600, 0x200); /* L=1, D=0 */
	assert_int_equal(v->save.cs.attrib & 0x80, 0x80); /* present */
	assert_int_equal(v->save.cpl, 0);
	assert_int_equal(v->save.cr3, 0x10000);
	assert_int_equal(v->save.rip, 0x100040);
	assert_int_equal(v->save.rsp, 0x4000000);
	assert_int_equal(v->save.rflags, 2);
	assert_int_equal(v->save.dr7, 0x400);
	assert_null(vmcb_check(v, &f));
	free(v);
	f.nx = false;
	v = build(&f, &p);
	assert_int_equal(v->save.efer & EFER_NXE, 0);
	free(v);
}

static void test_msrpm(void **s)
{
	u8 *pm = aligned_alloc(4096, MSRPM_PAGES * 4096);

	(void)s;
	vmcb_msrpm_build(pm);
	assert_int_equal(vmcb_msrpm_bit(0), 0);
	assert_int_equal(vmcb_msrpm_bit(0x1fff), 0x3ffe);
	assert_int_equal(vmcb_msrpm_bit(0xc0000080), 0x800 * 8 + 0x100);
	assert_int_equal(vmcb_msrpm_bit(0xc0010117), 0x1000 * 8 + 0x117 * 2);
	assert_int_equal(vmcb_msrpm_bit(0x2000), -ERANGE);
	assert_int_equal(vmcb_msrpm_bit(0xc0002000), -ERANGE);
	/* Host-critical: always intercepted, both directions. */
	static const u32 crit[] = { MSR_EFER,
				    MSR_VM_HSAVE_PA,
				    MSR_VM_CR,
				    MSR_SPEC_CTRL,
				    MSR_APIC_BASE,
				    MSR_MTRR_DEF_TYPE,
				    MSR_MTRR_PHYSBASE(0),
				    MSR_PAT,
				    MSR_TSC,
				    0x830 };
	for (unsigned i = 0; i < ARRAY_SIZE(crit); i++) {
		assert_true(vmcb_msrpm_intercepts(pm, crit[i], false));
		assert_true(vmcb_msrpm_intercepts(pm, crit[i], true));
	}
	/* IA32_PKRS: both ways, v->pkrs is the guest's view and each write
	 * is checked (hv/vcpu/vcpu_pkrs.c). */
	assert_true(vmcb_msrpm_intercepts(pm, MSR_PKRS, false));
	assert_true(vmcb_msrpm_intercepts(pm, MSR_PKRS, true));
	/* The allow-list passes reads through; writes are checked. */
	assert_false(vmcb_msrpm_intercepts(pm, MSR_FS_BASE, false));
	assert_false(vmcb_msrpm_intercepts(pm, MSR_KERNEL_GS_BASE, false));
	assert_false(vmcb_msrpm_intercepts(pm, MSR_LSTAR, false));
	assert_false(vmcb_msrpm_intercepts(pm, MSR_SYSENTER_EIP, false));
	assert_true(vmcb_msrpm_intercepts(pm, MSR_KERNEL_GS_BASE, true));
	assert_true(vmcb_msrpm_intercepts(pm, MSR_LSTAR, true));
	/* Neighbours of allow-listed MSRs stay intercepted. */
	assert_true(vmcb_msrpm_intercepts(pm, MSR_TSC_AUX, false));
	assert_true(vmcb_msrpm_intercepts(pm, MSR_SYSENTER_CS - 1, true));
	/* The reserved quarter stays all ones. */
	assert_int_equal(pm[0x1800], 0xff);
	assert_int_equal(pm[0x1fff], 0xff);
	free(pm);
}

static void test_iopm(void **s)
{
	u8 *io = aligned_alloc(4096, IOPM_PAGES * 4096);

	(void)s;
	memset(io, 0, IOPM_PAGES * 4096);
	vmcb_iopm_build(io);
	for (unsigned i = 0; i < IOPM_PAGES * 4096; i++)
		if (io[i] != 0xff)
			fail_msg("IOPM byte %u is %#x", i, io[i]);
	free(io);
}

static void test_check_rules(void **s)
{
	struct features f = epyc();
	struct pause_policy p = { 0 };
	struct vmcb *v = build(&f, &p);

	(void)s;
	v->save.efer &= ~EFER_SVME;
	assert_string_equal(vmcb_check(v, &f), "guest EFER.SVME is clear");
	v->save.efer |= EFER_SVME;
	v->control.asid = 0;
	assert_non_null(strstr(vmcb_check(v, &f), "ASID 0"));
	v->control.asid = 1;
	v->save.cr4 |= BIT(12); /* LA57 */
	assert_non_null(strstr(vmcb_check(v, &f), "CR4"));
	v->save.cr4 = 0;
	assert_non_null(strstr(vmcb_check(v, &f), "PAE"));
	v->save.cr4 = 0x20;
	v->save.cs.attrib |= BIT(10);
	assert_non_null(strstr(vmcb_check(v, &f), "CS.L"));
	v->save.cs.attrib &= ~BIT(10);
	vmcb_clr_intercept(v, INTERCEPT_VMRUN);
	assert_non_null(strstr(vmcb_check(v, &f), "VMRUN"));
	vmcb_set_intercept(v, INTERCEPT_VMRUN);
	v->control.event_inj = EVENTINJ_VALID | EVENTINJ_TYPE_EXCEPTION | 2;
	assert_non_null(strstr(vmcb_check(v, &f), "EVENTINJ"));
	v->control.event_inj = 0;
	v->control.msrpm_base_pa = 1ULL << 48;
	assert_non_null(strstr(vmcb_check(v, &f), "MSRPM"));
	free(v);
}

/* The loop's VMCB bookkeeping as a run sequence: build (first VMRUN),
 * vmcb_after_exit() (every later one), a handler's write. */
static void test_clean_and_tlb(void **s)
{
	struct features f = epyc();
	struct pause_policy p = { 0 };
	struct vmcb *v;

	(void)s;
	/* Clean bits and flush-by-ASID offered (hardware, nested KVM). */
	f.vmcb_clean = f.flush_by_asid = true;
	v = build(&f, &p);
	assert_int_equal(v->control.clean, 0); /* first run: load all */
	assert_int_equal(v->control.tlb_control, TLB_CONTROL_FLUSH_ASID);
	vmcb_after_exit(v, vmcb_clean_mask(&f)); /* second run */
	assert_int_equal(v->control.clean, VMCB_CLEAN_ALL);
	assert_int_equal(v->control.tlb_control, TLB_CONTROL_NOTHING);
	/* A changed field clears its own group's bit, no other. */
	vmcb_set_intercept(v, INTERCEPT_RDTSC);
	assert_int_equal(v->control.clean, VMCB_CLEAN_ALL & ~VMCB_CLEAN_I);
	vmcb_after_exit(v, vmcb_clean_mask(&f));
	vmcb_clr_intercept(v, INTERCEPT_RDTSC);
	assert_int_equal(v->control.clean, VMCB_CLEAN_ALL & ~VMCB_CLEAN_I);
	vmcb_after_exit(v, vmcb_clean_mask(&f));
	vmcb_set_tsc_offset(v, 1000);
	assert_int_equal(v->control.tsc_offset, 1000);
	assert_int_equal(v->control.clean, VMCB_CLEAN_ALL & ~VMCB_CLEAN_I);
	vmcb_mark_dirty(v, VMCB_CLEAN_CRX | VMCB_CLEAN_NP);
	assert_int_equal(v->control.clean,
			 VMCB_CLEAN_ALL & ~(VMCB_CLEAN_I | VMCB_CLEAN_CRX |
					    VMCB_CLEAN_NP));
	/* The next exit starts clean again; the TLB stays. */
	vmcb_after_exit(v, vmcb_clean_mask(&f));
	assert_int_equal(v->control.clean, VMCB_CLEAN_ALL);
	assert_int_equal(v->control.tlb_control, TLB_CONTROL_NOTHING);
	/* APM 15.15.3 groups: bits 0-11, reserved bits 31:12 stay 0. */
	assert_int_equal(VMCB_CLEAN_I, 1u << 0);
	assert_int_equal(VMCB_CLEAN_ASID, 1u << 2);
	assert_int_equal(VMCB_CLEAN_NP, 1u << 4);
	assert_int_equal(VMCB_CLEAN_CRX, 1u << 5);
	assert_int_equal(VMCB_CLEAN_SEG, 1u << 8);
	assert_int_equal(VMCB_CLEAN_AVIC, 1u << 11);
	assert_int_equal(VMCB_CLEAN_ALL >> 12, 0);
	free(v);

	/* Neither offered (QEMU TCG): clean always 0, first run flushes
	 * everything. */
	f.vmcb_clean = f.flush_by_asid = false;
	v = build(&f, &p);
	assert_int_equal(v->control.clean, 0);
	assert_int_equal(v->control.tlb_control, TLB_CONTROL_FLUSH_ALL);
	vmcb_after_exit(v, vmcb_clean_mask(&f));
	assert_int_equal(v->control.clean, 0);
	assert_int_equal(v->control.tlb_control, TLB_CONTROL_NOTHING);
	vmcb_set_intercept(v, INTERCEPT_RDTSC);
	assert_int_equal(v->control.clean, 0);
	free(v);

	/* Each alone. */
	f.flush_by_asid = true;
	v = build(&f, &p);
	assert_int_equal(v->control.tlb_control, TLB_CONTROL_FLUSH_ASID);
	vmcb_after_exit(v, vmcb_clean_mask(&f));
	assert_int_equal(v->control.clean, 0);
	free(v);
	f.flush_by_asid = false;
	f.vmcb_clean = true;
	v = build(&f, &p);
	assert_int_equal(v->control.tlb_control, TLB_CONTROL_FLUSH_ALL);
	assert_int_equal(v->control.clean, 0);
	vmcb_after_exit(v, vmcb_clean_mask(&f));
	assert_int_equal(v->control.clean, VMCB_CLEAN_ALL);
	free(v);
}

/* One test per APM vol 2 15.5.1 rule: break one field of a good VMCB and
 * the diagnosis names that rule. */
static void test_check_each_rule(void **s)
{
	static const struct {
		unsigned int field;
		u64 val;
		const char *want;
	} rules[] = {
		{ 0, 0x80000031ULL | BIT(29), "CR0.NW" }, /* NW, CD clear */
		{ 0, 0x80000031ULL | BIT(32), "CR0[63:32]" },
		{ 1, 0x10000ULL | BIT(52), "CR3" },
		{ 2, 0x20ULL | BIT(24), "CR4" },
		{ 3, 0x400ULL | BIT(32), "DR6/DR7" }, /* DR7 */
		{ 4, 0xffff0ff0ULL | BIT(40), "DR6/DR7" }, /* DR6 */
		{ 5, EFER_LME | EFER_LMA | EFER_SVME | BIT(1), "EFER" },
		{ 5, EFER_LME | EFER_LMA, "EFER.SVME" },
		{ 0, 0x80000030ULL, "CR0.PE" }, /* PG without PE */
		{ 2, 0, "PAE" },
		{ 6, 0x200 | 0x400 | 0x80, "CS.L and CS.D" },
		{ 7, 0, "ASID 0" },
		{ 8, 1ULL << 48, "IOPM or MSRPM" }, /* IOPM */
		{ 9, 1ULL << 48, "IOPM or MSRPM" }, /* MSRPM */
		{ 10, EVENTINJ_VALID | (1 << 8), "EVENTINJ" }, /* type 1 */
		{ 10, EVENTINJ_VALID | (5 << 8), "EVENTINJ" }, /* type 5 */
		{ 10, EVENTINJ_VALID | EVENTINJ_TYPE_EXCEPTION | 2,
		  "EVENTINJ" },
		{ 10, EVENTINJ_VALID | EVENTINJ_TYPE_EXCEPTION | 32,
		  "EVENTINJ" },
		{ 11, 0, "VMRUN intercept" },
		{ 12, 1ULL << 52, "nCR3" },
	};
	struct features f = epyc();
	struct pause_policy p = { 0 };

	(void)s;
	for (unsigned int i = 0; i < ARRAY_SIZE(rules); i++) {
		struct vmcb *v = build(&f, &p);
		const char *why;

		assert_null(vmcb_check(v, &f));
		switch (rules[i].field) {
		case 0:
			v->save.cr0 = rules[i].val;
			break;
		case 1:
			v->save.cr3 = rules[i].val;
			break;
		case 2:
			v->save.cr4 = rules[i].val;
			break;
		case 3:
			v->save.dr7 = rules[i].val;
			break;
		case 4:
			v->save.dr6 = rules[i].val;
			break;
		case 5:
			v->save.efer = rules[i].val;
			break;
		case 6:
			v->save.cs.attrib = (u16)rules[i].val;
			break;
		case 7:
			v->control.asid = (u32)rules[i].val;
			break;
		case 8:
			v->control.iopm_base_pa = rules[i].val;
			break;
		case 9:
			v->control.msrpm_base_pa = rules[i].val;
			break;
		case 10:
			v->control.event_inj = rules[i].val;
			break;
		case 11:
			vmcb_clr_intercept(v, INTERCEPT_VMRUN);
			break;
		case 12:
			v->control.n_cr3 = rules[i].val;
			break;
		}
		why = vmcb_check(v, &f);
		if (!why || !strstr(why, rules[i].want))
			fail_msg("rule %u: want '%s', got '%s'", i,
				 rules[i].want, why ? why : "(none)");
		free(v);
	}
}

/* CR4.PKS (bit 24) is reserved only where the CPU lacks PKS (SDM vol 3A
 * 2.5): the diagnosis must not blame it on a PKS host. */
static void test_check_cr4_pks(void **s)
{
	struct features f = epyc();
	struct pause_policy p = { 0 };
	struct vmcb *v = build(&f, &p);
	const char *why;

	(void)s;
	v->save.cr4 |= BIT(24);
	why = vmcb_check(v, &f);
	assert_non_null(why);
	assert_non_null(strstr(why, "CR4"));
	f.pks = true;
	assert_null(vmcb_check(v, &f));
	free(v);
}

/* G4: the CR4 bits VMRUN accepts follow CPUID, as KVM's
 * __cr4_reserved_bits(): LA57 (bit 12) on a Zen 4/5 with 5-level paging
 * is a legal guest CR4, not "reserved bits set"; a bit whose feature the
 * CPU lacks is named. Each from the CPUID bit features_detect() reads. */
static void test_check_cr4_from_cpuid(void **s)
{
	static const struct {
		u64 cr4;
		u32 leaf, reg, bit; /* reg: 1 ebx, 2 ecx, 3 edx */
	} rows[] = {
		{ CR4_UMIP, 7, 2, 2 },	   { CR4_LA57, 7, 2, 16 },
		{ CR4_FSGSBASE, 7, 1, 0 }, { CR4_PCIDE, 1, 2, 17 },
		{ CR4_SMEP, 7, 1, 7 },	   { CR4_SMAP, 7, 1, 20 },
		{ CR4_PKE, 7, 2, 3 },	   { CR4_CET, 7, 2, 7 },
		{ CR4_CET, 7, 3, 20 },	   { CR4_PKS, 7, 2, 31 },
	};
	struct pause_policy p = { 0 };

	(void)s;
	for (unsigned int i = 0; i < ARRAY_SIZE(rows); i++) {
		struct features f;
		struct vmcb *v;

		fake_cpu_reset();
		fake_cpuid_vendor("AuthenticAMD");
		fake_cpuid_set(0x80000001, 0, 0, 0, BIT(2), BIT(20));
		features_detect(&f);
		v = build(&f, &p);
		v->save.cr4 |= rows[i].cr4;
		if (!vmcb_check(v, &f) || !strstr(vmcb_check(v, &f), "CR4"))
			fail_msg("row %u: CR4 %#llx accepted without CPUID", i,
				 (unsigned long long)rows[i].cr4);
		fake_cpuid_or(rows[i].leaf, 0, (int)rows[i].reg,
			      BIT(rows[i].bit));
		features_detect(&f);
		if (vmcb_check(v, &f))
			fail_msg("row %u: CR4 %#llx refused with CPUID: %s", i,
				 (unsigned long long)rows[i].cr4,
				 vmcb_check(v, &f));
		free(v);
	}
}

/* G3: on an SEV-capable CPU, ASIDs 1 .. CPUID 0x8000001F:ECX belong to
 * encrypted guests (APM vol 2 15.34); a plain guest's comes from above
 * them, as KVM's min_asid = max_sev_asid + 1. Without SEV from 1. Always
 * below CPUID 0x8000000A:EBX, and 64 at most. */
static void asids(u32 nasid, bool sev, u32 sev_asids, u32 want_first,
		  u32 want_n)
{
	u32 got[65];
	unsigned int n = 0;

	fake_cpu_reset();
	fake_cpuid_vendor("AuthenticAMD");
	fake_cpuid_set(0x80000001, 0, 0, 0, BIT(2), 0);
	fake_cpuid_set(0x8000000a, 0, 1, nasid, 0, BIT(0));
	fake_cpuid_set(0x8000001f, 0, sev ? BIT(1) : 0, 51, sev_asids, 1);
	features_detect(&g_features);
	while (n < 65 && (got[n] = asid_alloc()) != 0)
		n++;
	assert_int_equal(n, want_n);
	for (unsigned int i = 0; i < n; i++) {
		assert_int_equal(got[i], want_first + i);
		assert_true(got[i] < nasid);
	}
	for (unsigned int i = 0; i < n; i++)
		asid_free(got[i]);
	if (!n)
		return;
	/* Freed: the first one comes back. */
	assert_int_equal(asid_alloc(), want_first);
	asid_free(want_first);
}

static void test_asid_above_sev(void **s)
{
	(void)s;
	asids(32768, true, 509, 510, 64); /* Milan/Genoa: 509 SEV ASIDs */
	asids(32768, false, 509, 1, 64); /* no SEV: ECX means nothing */
	asids(16, false, 0, 1, 15); /* TCG's EPYC: 16 ASIDs, 0 the host's */
	asids(520, true, 509, 510, 10); /* only 510..519 left */
	asids(510, true, 509, 0, 0); /* none left: guest creation fails */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_intercepts),
		cmocka_unit_test(test_intercept_accessors),
		cmocka_unit_test(test_pause_fields),
		cmocka_unit_test(test_guest_state),
		cmocka_unit_test(test_msrpm),
		cmocka_unit_test(test_iopm),
		cmocka_unit_test(test_check_rules),
		cmocka_unit_test(test_clean_and_tlb),
		cmocka_unit_test(test_check_each_rule),
		cmocka_unit_test(test_check_cr4_pks),
		cmocka_unit_test(test_check_cr4_from_cpuid),
		cmocka_unit_test(test_asid_above_sev),
	};
	return cmocka_run_group_tests_name("vmcb", tests, NULL, NULL);
}
