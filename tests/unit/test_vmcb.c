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
#include "hv/svm/vmcb.h"

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
	/* ...and VMRUN VMMCALL VMLOAD VMSAVE STGI CLGI SKINIT WBINVD XSETBV. */
	assert_int_equal(v->control.intercept2, 0x7f | BIT(9) | BIT(13));
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

static void test_pause_fields(void **s)
{
	struct features f = epyc();
	struct pause_policy p = { .intercept = true,
				  .count = 4000,
				  .threshold = 1000 };
	struct vmcb *v = build(&f, &p);

	(void)s;
	assert_true(v->control.intercept1 & INTERCEPT_PAUSE);
	assert_int_equal(*(u16 *)((u8 *)v + 0x3e), 4000);
	assert_int_equal(*(u16 *)((u8 *)v + 0x3c), 1000);
	free(v);
	p = (struct pause_policy){ .intercept = true, .count = 0 };
	v = build(&f, &p);
	assert_true(v->control.intercept1 & INTERCEPT_PAUSE);
	assert_int_equal(v->control.pause_filter_count, 0);
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
	assert_int_equal(vmcb_msrpm_bit(0x2000), -1);
	assert_int_equal(vmcb_msrpm_bit(0xc0002000), -1);
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
	v->control.intercept2 &= ~INTERCEPT_VMRUN;
	assert_non_null(strstr(vmcb_check(v, &f), "VMRUN"));
	v->control.intercept2 |= INTERCEPT_VMRUN;
	v->control.event_inj = EVENTINJ_VALID | EVENTINJ_TYPE_EXCEPTION | 2;
	assert_non_null(strstr(vmcb_check(v, &f), "EVENTINJ"));
	v->control.event_inj = 0;
	v->control.msrpm_base_pa = 1ULL << 48;
	assert_non_null(strstr(vmcb_check(v, &f), "MSRPM"));
	free(v);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout),
		cmocka_unit_test(test_intercepts),
		cmocka_unit_test(test_pause_fields),
		cmocka_unit_test(test_guest_state),
		cmocka_unit_test(test_msrpm),
		cmocka_unit_test(test_iopm),
		cmocka_unit_test(test_check_rules),
	};
	return cmocka_run_group_tests_name("vmcb", tests, NULL, NULL);
}
