// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic.c - the virtual local APIC register file: reset
 * values, read-back and writable masks, read-only and reserved registers,
 * IA32_APIC_BASE mode switches and the accesses a real CPU refuses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "hv/vlapic/vlapic.h"

static struct vlapic l;
static const struct vlapic_config cfg = { .vcpu_id = 0x25,
					  .bsp = true,
					  .x2apic = true,
					  .maxphyaddr = 40 };

static int setup(void **s)
{
	(void)s;
	vlapic_init(&l, &cfg);
	return 0;
}

static u32 mr(u64 off)
{
	u64 v = 0xbad;

	assert_int_equal(vlapic_mmio_ops.read(&l, off, 4, &v), 0);
	return (u32)v;
}

static void mw(u64 off, u32 v)
{
	assert_int_equal(vlapic_mmio_ops.write(&l, off, 4, v), 0);
}

static u64 xr(u32 msr)
{
	u64 v = 0xbad;

	assert_int_equal(vlapic_msr_read(&l, msr, &v), 0);
	return v;
}

static void to_x2apic(void)
{
	assert_int_equal(vlapic_apic_base_write(&l, APIC_DEFAULT_BASE |
							    APIC_BASE_EN |
							    APIC_BASE_EXTD),
			 0);
	assert_int_equal(vlapic_mode(&l), VLAPIC_X2APIC);
}

static void test_reset_state(void **s)
{
	(void)s;
	assert_int_equal(vlapic_mode(&l), VLAPIC_XAPIC);
	assert_int_equal(vlapic_apic_base_read(&l),
			 0xfee00000ULL | APIC_BASE_EN | APIC_BASE_BSP);
	assert_int_equal(vlapic_mmio_base(&l).v, 0xfee00000ULL);
	assert_int_equal(mr(0x20), 0x25000000);
	assert_int_equal(mr(0x30), 0x00050014);
	assert_int_equal(mr(0xe0), 0xffffffff); /* DFR */
	assert_int_equal(mr(0xf0), 0xff); /* SVR */
	for (u64 o = 0x320; o <= 0x370; o += 0x10)
		assert_int_equal(mr(o), BIT(16));
	for (u64 o = 0x100; o <= 0x270; o += 0x10)
		assert_int_equal(mr(o), 0); /* ISR, TMR, IRR */
}

static void test_xapic_readback(void **s)
{
	(void)s;
	mw(0x80, 0xffffffff); /* TPR: 7:0 */
	assert_int_equal(mr(0x80), 0xff);
	assert_int_equal(mr(0xa0), 0xff); /* PPR = TPR, nothing in service */
	assert_int_equal(mr(0x90), 0xff); /* APR */
	mw(0x80, 0x0f);
	assert_int_equal(mr(0x90), 0); /* APR: TPR class 0 -> 0 */
	mw(0xd0, 0xffffffff); /* LDR: 31:24 */
	assert_int_equal(mr(0xd0), 0xff000000);
	mw(0xe0, 0); /* DFR: 31:28, rest read 1 */
	assert_int_equal(mr(0xe0), 0x0fffffff);
	mw(0x20, 0xffffffff); /* AMD: ID 31:24 writable */
	assert_int_equal(mr(0x20), 0xff000000);
	mw(0xf0, 0xffffffff); /* SVR */
	assert_int_equal(mr(0xf0), 0x3ff);
	mw(0x310, 0xffffffff); /* ICR high: 31:24 */
	assert_int_equal(mr(0x310), 0xff000000);
	mw(0x300, 0xffffffff); /* ICR low: delivery status never set */
	assert_int_equal(mr(0x300), 0x000ccfff);
	/* LVTs with SVR enabled: writable masks, read-only bits 0 */
	mw(0x320, 0xffffffff);
	assert_int_equal(mr(0x320), 0x000300ff); /* no TSC deadline */
	mw(0x330, 0xffffffff);
	assert_int_equal(mr(0x330), 0x000107ff);
	mw(0x340, 0xffffffff);
	assert_int_equal(mr(0x340), 0x000107ff);
	mw(0x350, 0xffffffff);
	assert_int_equal(mr(0x350), 0x0001a7ff);
	mw(0x360, 0x000000ee);
	assert_int_equal(mr(0x360), 0x000000ee);
	mw(0x370, 0xffffffff);
	assert_int_equal(mr(0x370), 0x000100ff);
	mw(0x380, 0x12345678);
	assert_int_equal(mr(0x380), 0x12345678);
	/* The timer runs: at the time of the write, the whole count. */
	assert_int_equal(mr(0x390), 0x12345678);
	mw(0x3e0, 0xffffffff);
	assert_int_equal(mr(0x3e0), 0xb);
}

static void test_xapic_readonly_reserved(void **s)
{
	(void)s;
	mw(0x30, 0); /* version: ignored */
	assert_int_equal(mr(0x30), 0x00050014);
	mw(0xa0, 0xff);
	assert_int_equal(mr(0xa0), 0);
	mw(0x100, 0xff);
	assert_int_equal(mr(0x100), 0);
	mw(0x390, 5);
	assert_int_equal(mr(0x390), 0);
	/* reserved: 0x000, 0x2f0 (CMCI is Intel's), 0x3f0 (x2APIC only),
	 * 0x400+ (no extended space) */
	mw(0x2f0, 0xff);
	assert_int_equal(mr(0x2f0), 0);
	assert_int_equal(mr(0x000), 0);
	assert_int_equal(mr(0x3f0), 0);
	assert_int_equal(mr(0x400), 0);
	mw(0xb0, 0); /* EOI: write-only, reads 0 */
	assert_int_equal(mr(0xb0), 0);
}

static void test_tsc_deadline_and_svr(void **s)
{
	struct vlapic_config c = cfg;

	(void)s;
	c.tsc_deadline = true;
	vlapic_init(&l, &c);
	mw(0xf0, 0x1ff);
	mw(0x320, 0xffffffff);
	assert_int_equal(mr(0x320), 0x000700ff);
	/* software disable sets every mask and keeps them set */
	mw(0x350, 0x20);
	mw(0xf0, 0xff);
	assert_int_equal(mr(0x350), BIT(16) | 0x20);
	mw(0x350, 0x30);
	assert_int_equal(mr(0x350), BIT(16) | 0x30);
}

static void test_esr(void **s)
{
	(void)s;
	mw(0xf0, 0x1ff);
	assert_int_equal(mr(0x280), 0);
	mw(0x300, 0x4005); /* fixed IPI, vector 5: illegal */
	assert_int_equal(mr(0x280), 0); /* not visible before an ESR write */
	mw(0x280, 0);
	assert_int_equal(mr(0x280), BIT(5));
	mw(0x280, 0);
	assert_int_equal(mr(0x280), 0);
	vlapic_set_error(&l, BIT(7));
	mw(0x280, 0);
	assert_int_equal(mr(0x280), BIT(7));
}

static void test_bad_mmio(void **s)
{
	u64 v;

	(void)s;
	/* Byte, word and qword reads inside a register's slot are served
	 * (as KVM and QEMU do): its bytes, then the slot's zeros. */
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x30, 1, &v), 0);
	assert_int_equal(v, 0x14); /* version 0x00050014 */
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x32, 1, &v), 0);
	assert_int_equal(v, 0x05); /* max LVT */
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x31, 2, &v), 0);
	assert_int_equal(v, 0x0500);
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x30, 8, &v), 0);
	assert_int_equal(v, 0x00050014);
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x34, 4, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x3c, 4, &v), 0);
	assert_int_equal(v, 0);
	/* Across two slots, or off the page: not emulated. */
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x3c, 8, &v), -EINVAL);
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x1000, 4, &v), -EINVAL);
	/* Stores other than an aligned dword are dropped. */
	assert_int_equal(vlapic_mmio_ops.write(&l, 0x80, 2, 1), 0);
	assert_int_equal(vlapic_mmio_ops.write(&l, 0x80, 1, 1), 0);
	assert_int_equal(vlapic_mmio_ops.write(&l, 0x80, 8, 1), 0);
	assert_int_equal(vlapic_mmio_ops.write(&l, 0x84, 4, 1), 0);
	assert_int_equal(vlapic_mmio_ops.write(&l, 0x1000, 4, 1), -EINVAL);
	assert_int_equal(mr(0x80), 0);
	/* xAPIC mode: the x2APIC MSRs #GP */
	assert_int_equal(vlapic_msr_read(&l, 0x802, &v), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x808, 0), -EINVAL);
}

static void test_x2apic_regs(void **s)
{
	u64 v;

	(void)s;
	mw(0x80, 0x33);
	to_x2apic();
	assert_int_equal(xr(0x802), 0x25); /* x2APIC ID = vCPU id */
	assert_int_equal(xr(0x803), 0x00050014);
	assert_int_equal(xr(0x808), 0x33); /* state kept across the switch */
	/* LDR from the ID: cluster 2, bit 5 */
	assert_int_equal(xr(0x80d), (2u << 16) | BIT(5));
	assert_int_equal(vlapic_msr_write(&l, 0x80d, 0), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x802, 0), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x803, 0), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x80a, 0), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x810, 0), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x839, 0), -EINVAL);
	/* EOI: write-only, zero only */
	assert_int_equal(vlapic_msr_write(&l, 0x80b, 0), 0);
	assert_int_equal(vlapic_msr_write(&l, 0x80b, 1), -EINVAL);
	assert_int_equal(vlapic_msr_read(&l, 0x80b, &v), -EINVAL);
	/* ESR: zero only */
	assert_int_equal(vlapic_msr_write(&l, 0x828, 0), 0);
	assert_int_equal(vlapic_msr_write(&l, 0x828, 1), -EINVAL);
	/* ICR: one 64-bit register; 0x831 does not exist */
	assert_int_equal(vlapic_msr_write(&l, 0x830, 0x0000002500004030ULL), 0);
	assert_int_equal(xr(0x830), 0x0000002500004030ULL);
	assert_int_equal(vlapic_msr_write(&l, 0x830, BIT(13)), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x830, BIT(20)), -EINVAL);
	assert_int_equal(vlapic_msr_read(&l, 0x831, &v), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x831, 0), -EINVAL);
	/* SELF_IPI: write-only */
	assert_int_equal(vlapic_msr_write(&l, 0x83f, 0x40), 0);
	assert_int_equal(vlapic_msr_read(&l, 0x83f, &v), -EINVAL);
	/* no DFR, APR, RRD, CMCI in x2APIC mode; reserved MSRs */
	assert_int_equal(vlapic_msr_read(&l, 0x80e, &v), -EINVAL);
	assert_int_equal(vlapic_msr_read(&l, 0x809, &v), -EINVAL);
	assert_int_equal(vlapic_msr_read(&l, 0x80c, &v), -EINVAL);
	assert_int_equal(vlapic_msr_read(&l, 0x82f, &v), -EINVAL);
	assert_int_equal(vlapic_msr_read(&l, 0x800, &v), -EINVAL);
	assert_int_equal(vlapic_msr_read(&l, 0x8ff, &v), -EINVAL);
	assert_int_equal(vlapic_msr_read(&l, 0x7ff, &v), -EINVAL);
	/* bits 63:32 are reserved everywhere but ICR */
	assert_int_equal(vlapic_msr_write(&l, 0x808, BIT(32)), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x838, 0x100000000ULL), -EINVAL);
	assert_int_equal(vlapic_msr_write(&l, 0x838, 1000), 0);
	assert_int_equal(xr(0x838), 1000);
	assert_int_equal(vlapic_msr_write(&l, 0x832, 0xffffffff), 0);
	assert_int_equal(xr(0x832), 0x000300ff); /* timer LVT mask */
	/* the MMIO page is not decoded in x2APIC mode */
	assert_int_equal(vlapic_mmio_ops.read(&l, 0x30, 4, &v), 0);
	assert_int_equal(v, 0xffffffff);
	assert_int_equal(vlapic_mmio_ops.write(&l, 0x80, 4, 0), 0);
	assert_int_equal(xr(0x808), 0x33);
}

static void test_apic_base_switches(void **s)
{
	u64 base = APIC_DEFAULT_BASE;

	(void)s;
	/* reserved bits 7:0, 9, above MAXPHYADDR */
	assert_int_equal(vlapic_apic_base_write(&l, base | APIC_BASE_EN | 1),
			 -EINVAL);
	assert_int_equal(vlapic_apic_base_write(&l,
						base | APIC_BASE_EN | BIT(9)),
			 -EINVAL);
	assert_int_equal(vlapic_apic_base_write(&l,
						base | APIC_BASE_EN | BIT(40)),
			 -EINVAL);
	/* EXTD without EN is invalid */
	assert_int_equal(vlapic_apic_base_write(&l, base | APIC_BASE_EXTD),
			 -EINVAL);
	/* BSP is read-only: a write without it keeps it */
	assert_int_equal(vlapic_apic_base_write(&l, base | APIC_BASE_EN), 0);
	assert_true(vlapic_apic_base_read(&l) & APIC_BASE_BSP);
	/* move the xAPIC page */
	assert_int_equal(
		vlapic_apic_base_write(&l, 0xfec00000ULL | APIC_BASE_EN), 0);
	assert_int_equal(vlapic_mmio_base(&l).v, 0xfec00000ULL);
	/* xAPIC -> x2APIC -> xAPIC is refused */
	to_x2apic();
	assert_int_equal(vlapic_apic_base_write(&l, base | APIC_BASE_EN),
			 -EINVAL);
	assert_int_equal(vlapic_mode(&l), VLAPIC_X2APIC);
	/* x2APIC -> disabled: reset; MSRs and MMIO gone */
	assert_int_equal(vlapic_msr_write(&l, 0x808, 0x44), 0);
	assert_int_equal(vlapic_apic_base_write(&l, base), 0);
	assert_int_equal(vlapic_mode(&l), VLAPIC_DISABLED);
	assert_int_equal(vlapic_msr_write(&l, 0x808, 0), -EINVAL);
	/* disabled -> x2APIC is refused */
	assert_int_equal(vlapic_apic_base_write(&l, base | APIC_BASE_EN |
							    APIC_BASE_EXTD),
			 -EINVAL);
	/* disabled -> xAPIC: power-up values */
	assert_int_equal(vlapic_apic_base_write(&l, base | APIC_BASE_EN), 0);
	assert_int_equal(mr(0x80), 0);
	assert_int_equal(mr(0x20), 0x25000000);
	assert_int_equal(mr(0xd0), 0);
}

static void test_no_x2apic_cpuid(void **s)
{
	struct vlapic_config c = cfg;

	(void)s;
	c.x2apic = false;
	c.bsp = false;
	vlapic_init(&l, &c);
	assert_false(vlapic_apic_base_read(&l) & APIC_BASE_BSP);
	assert_int_equal(vlapic_apic_base_write(&l, APIC_DEFAULT_BASE |
							    APIC_BASE_EN |
							    APIC_BASE_EXTD),
			 -EINVAL);
	/* a BSP bit written by the guest is ignored */
	assert_int_equal(vlapic_apic_base_write(&l, APIC_DEFAULT_BASE |
							    APIC_BASE_EN |
							    APIC_BASE_BSP),
			 0);
	assert_false(vlapic_apic_base_read(&l) & APIC_BASE_BSP);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_reset_state, setup),
		cmocka_unit_test_setup(test_xapic_readback, setup),
		cmocka_unit_test_setup(test_xapic_readonly_reserved, setup),
		cmocka_unit_test_setup(test_tsc_deadline_and_svr, setup),
		cmocka_unit_test_setup(test_esr, setup),
		cmocka_unit_test_setup(test_bad_mmio, setup),
		cmocka_unit_test_setup(test_x2apic_regs, setup),
		cmocka_unit_test_setup(test_apic_base_switches, setup),
		cmocka_unit_test_setup(test_no_x2apic_cpuid, setup),
	};

	return cmocka_run_group_tests_name("vlapic", tests, NULL, NULL);
}
