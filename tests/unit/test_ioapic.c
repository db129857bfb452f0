// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_ioapic.c - masking the host's I/O APICs at boot
 * (arch/ioapic.c, hv/run/ioapic.c) against a fake 82093AA behind the MMIO
 * double: every pin masked, SMI pins left alone, a remote IRR the firmware
 * left set cleared (EOI register from version 0x20, a trigger-mode flip
 * before), other RTE fields kept, and one line per I/O APIC. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/ioapic.h"
#include "hv/run/ioapic.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"

#define BASE0 0xfec00000ULL
#define BASE1 0xfec01000ULL
#define PINS 24

struct fake_ioapic {
	u64 base;
	u32 sel;
	u32 version;
	u32 rte[PINS][2];
	bool ignore_eoi; /* a remote IRR that never clears */
	u32 eois;
};

static struct fake_ioapic io[2];

static struct fake_ioapic *which(u64 addr, u64 *off)
{
	for (int i = 0; i < 2; i++)
		if (addr >= io[i].base &&
		    addr < io[i].base + IOAPIC_MMIO_SIZE) {
			*off = addr - io[i].base;
			return &io[i];
		}
	fail_msg("MMIO at %#llx: no I/O APIC there", (unsigned long long)addr);
	return NULL;
}

static u32 rd(u64 addr)
{
	u64 off;
	struct fake_ioapic *d = which(addr, &off);
	u32 r = d->sel;

	assert_int_equal(off, IOAPIC_MMIO_WIN); /* IOREGSEL reads unused */
	if (r == IOAPIC_REG_VER)
		return d->version | (PINS - 1) << 16;
	if (r >= 0x10 && r < 0x10 + 2 * PINS)
		return d->rte[(r - 0x10) / 2][r & 1];
	return 0;
}

static void wr(u64 addr, u32 v)
{
	u64 off;
	struct fake_ioapic *d = which(addr, &off);
	u32 ro = IOAPIC_RTE_PENDING | IOAPIC_RTE_REMOTE_IRR;

	if (off == IOAPIC_MMIO_REGSEL) {
		d->sel = v & 0xff;
		return;
	}
	if (off == IOAPIC_MMIO_EOI) {
		assert_true(d->version >= IOAPIC_VERSION_EOI);
		d->eois++;
		for (int p = 0; p < PINS && !d->ignore_eoi; p++)
			if ((d->rte[p][0] & IOAPIC_RTE_LEVEL) &&
			    (d->rte[p][0] & 0xff) == (v & 0xff))
				d->rte[p][0] &= ~IOAPIC_RTE_REMOTE_IRR;
		return;
	}
	assert_int_equal(off, IOAPIC_MMIO_WIN);
	if (d->sel >= 0x10 && d->sel < 0x10 + 2 * PINS) {
		u32 *e = &d->rte[(d->sel - 0x10) / 2][d->sel & 1];

		if (d->sel & 1) {
			*e = v;
			return;
		}
		*e = (v & ~ro) | (*e & ro);
		/* 82093AA: edge trigger mode clears remote IRR */
		if (!(v & IOAPIC_RTE_LEVEL) && !d->ignore_eoi)
			*e &= ~IOAPIC_RTE_REMOTE_IRR;
	}
}

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_console_clear();
	memset(io, 0, sizeof(io));
	io[0] = (struct fake_ioapic){ .base = BASE0, .version = 0x20 };
	io[1] = (struct fake_ioapic){ .base = BASE1, .version = 0x11 };
	for (int i = 0; i < 2; i++)
		for (int p = 0; p < PINS; p++)
			io[i].rte[p][0] = IOAPIC_RTE_MASKED;
	fake_mmio_read_hook = rd;
	fake_mmio_write_hook = wr;
	return 0;
}

static void all_masked(struct fake_ioapic *d)
{
	for (int p = 0; p < PINS; p++)
		if ((d->rte[p][0] & IOAPIC_RTE_DELIVERY_MASK) !=
		    IOAPIC_RTE_DELIVERY_SMI)
			assert_true(d->rte[p][0] & IOAPIC_RTE_MASKED);
}

static void test_firmware_left_pins_unmasked(void **s)
{
	struct ioapic_mask_report r;
	u32 smi = IOAPIC_RTE_DELIVERY_SMI | 0x00; /* unmasked, firmware's */

	(void)s;
	io[0].rte[2][0] = 0x30; /* edge, fixed, vector 0x30 */
	io[0].rte[2][1] = 0x01000000; /* to APIC 1: kept */
	io[0].rte[9][0] = IOAPIC_RTE_LEVEL | IOAPIC_RTE_REMOTE_IRR |
			  IOAPIC_RTE_ACTIVE_LOW | 0x39; /* SCI, in service */
	io[0].rte[13][0] = smi;
	ioapic_mask_all(hpa(BASE0), &r);
	assert_int_equal(r.version, 0x20);
	assert_int_equal(r.pins, PINS);
	assert_int_equal(r.unmasked, 2);
	assert_int_equal(r.first_unmasked, 2);
	assert_int_equal(r.first_unmasked_rte, 0x30);
	assert_int_equal(r.smi, 1);
	assert_int_equal(r.irr_cleared, 1);
	assert_int_equal(r.irr_stuck, 0);
	all_masked(&io[0]);
	/* the rest of each entry is as the firmware left it */
	assert_int_equal(io[0].rte[2][0], 0x30 | IOAPIC_RTE_MASKED);
	assert_int_equal(io[0].rte[2][1], 0x01000000);
	assert_int_equal(io[0].rte[9][0], IOAPIC_RTE_LEVEL |
						  IOAPIC_RTE_ACTIVE_LOW |
						  IOAPIC_RTE_MASKED | 0x39);
	assert_int_equal(io[0].eois, 1);
	/* SMI pins belong to the firmware */
	assert_int_equal(io[0].rte[13][0], smi);
}

static void test_old_ioapic_clears_irr_by_trigger_flip(void **s)
{
	struct ioapic_mask_report r;

	(void)s;
	io[1].rte[5][0] = IOAPIC_RTE_LEVEL | IOAPIC_RTE_REMOTE_IRR |
			  IOAPIC_RTE_MASKED | 0x45;
	ioapic_mask_all(hpa(BASE1), &r);
	assert_int_equal(r.unmasked, 0);
	assert_int_equal(r.irr_cleared, 1);
	assert_int_equal(io[1].eois, 0); /* no EOI register before 0x20 */
	/* level again, masked, remote IRR gone */
	assert_int_equal(io[1].rte[5][0],
			 IOAPIC_RTE_LEVEL | IOAPIC_RTE_MASKED | 0x45);
}

static void test_stuck_irr_is_counted(void **s)
{
	struct ioapic_mask_report r;

	(void)s;
	io[0].ignore_eoi = true;
	io[0].rte[7][0] = IOAPIC_RTE_LEVEL | IOAPIC_RTE_REMOTE_IRR | 0x47;
	ioapic_mask_all(hpa(BASE0), &r);
	assert_int_equal(r.unmasked, 1);
	assert_int_equal(r.irr_stuck, 1);
	assert_int_equal(r.irr_cleared, 0);
	all_masked(&io[0]);
}

static void test_every_madt_ioapic(void **s)
{
	struct acpi_info a = {
		.nioapic = 2, .ioapic = { { 0, BASE0, 0 }, { 1, BASE1, 24 } }
	};

	(void)s;
	io[1].rte[4][0] = 0x44;
	io[1].rte[6][0] = 0x46;
	assert_int_equal(ioapic_quiesce(&a), 2);
	all_masked(&io[0]);
	all_masked(&io[1]);
	assert_true(fake_console_has(
		"ioapic: ID 0 at 0xfec00000: 24 pins masked, 0 were not"));
	assert_true(fake_console_has(
		"ioapic: ID 1 at 0xfec01000: 24 pins masked, 2 were not (first: pin 4, RTE 0x44)"));
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
	const struct CMUnitTest tests[] = {
		T(test_firmware_left_pins_unmasked),
		T(test_old_ioapic_clears_irr_by_trigger_flip),
		T(test_stuck_irr_is_counted),
		T(test_every_madt_ioapic),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
