// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vioapic.c - the guest's I/O APIC (hv/platform/ioapic.c)
 * on a bus of four vLAPICs: its registers through MMIO (ID, version,
 * arbitration, IOREGSEL/IOWIN, the EOI register), edge and level entries,
 * the remote IRR and the vLAPIC's EOI broadcast (TMR), masking, and
 * physical, logical, lowest-priority and NMI messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/ioapic.h"
#include "hv/platform/platform.h"

#define N 4
static struct vlapic cpu[N];
static struct vlapic_bus bus;
static struct vioapic io;
static unsigned eois;

static struct vlapic *at(void *ctx, u32 i)
{
	(void)ctx;
	return &cpu[i];
}

static void notify(struct vlapic *t)
{
	(void)t;
}

/* The vLAPICs' level-triggered EOIs reach the I/O APIC, as
 * hv/svm/vlapic_vcpu.c wires them. */
static void eoi(void *ctx, u8 vector)
{
	(void)ctx;
	eois++;
	ioapic_eoi(&io, vector);
}

static int setup(void **s)
{
	(void)s;
	bus = (struct vlapic_bus){
		.at = at, .notify = notify, .ctx = NULL, .n = N, .eoi = eoi
	};
	eois = 0;
	for (u32 i = 0; i < N; i++) {
		memset(&cpu[i], 0, sizeof(cpu[i]));
		vlapic_init(&cpu[i], &(struct vlapic_config){ .vcpu_id = i,
							      .bsp = i == 0,
							      .x2apic = true,
							      .maxphyaddr = 40,
							      .tsc_khz = 1 });
		cpu[i].bus = &bus;
		assert_int_equal(vlapic_reg_write(&cpu[i], 0xf0, 0x1ff), 0);
	}
	ioapic_reset(&io, &bus);
	return 0;
}

static u32 rd(u32 reg)
{
	u64 v = 0;

	ioapic_mmio_ops.write(&io, IOAPIC_MMIO_REGSEL, 4, reg);
	ioapic_mmio_ops.read(&io, IOAPIC_MMIO_WIN, 4, &v);
	return (u32)v;
}

static void wr(u32 reg, u32 v)
{
	ioapic_mmio_ops.write(&io, IOAPIC_MMIO_REGSEL, 4, reg);
	ioapic_mmio_ops.write(&io, IOAPIC_MMIO_WIN, 4, v);
}

/* Entry pin: vector, trigger, destination (physical unless logical). */
static void rte(u32 pin, u8 vec, bool level, u8 dest, u32 extra)
{
	wr(IOAPIC_REG_RTE_HI(pin), (u32)dest << 24);
	wr(IOAPIC_REG_RTE_LO(pin),
	   vec | (level ? IOAPIC_RTE_LEVEL : 0) | extra);
}

static bool irr(u32 c, u8 v)
{
	return cpu[c].irr[v >> 5] & (1u << (v & 31));
}

/* The CPU takes the vector (INTA) and its handler writes EOI. */
static void take_and_eoi(u32 c, u8 v)
{
	assert_true(irr(c, v));
	vlapic_ack(&cpu[c], v);
	assert_int_equal(vlapic_reg_write(&cpu[c], 0xb0, 0), 0);
}

static void test_registers(void **s)
{
	u64 v;

	(void)s;
	/* 82093AA 3.2.2: version 0x20 (with the EOI register), 24 entries,
	 * read-only. */
	assert_int_equal(rd(IOAPIC_REG_VER), 0x00170020);
	wr(IOAPIC_REG_VER, 0);
	assert_int_equal(rd(IOAPIC_REG_VER), 0x00170020);
	/* ID: only bits 27:24; ARB follows the ID and is read-only. */
	wr(IOAPIC_REG_ID, 0xffffffff);
	assert_int_equal(rd(IOAPIC_REG_ID), 0x0f000000);
	assert_int_equal(rd(IOAPIC_REG_ARB), 0x0f000000);
	wr(IOAPIC_REG_ARB, 0);
	assert_int_equal(rd(IOAPIC_REG_ARB), 0x0f000000);
	/* Reset: every entry masked; IOREGSEL reads back; the window
	 * repeats every 256 bytes; 8-byte IOWIN accesses read 0. */
	for (u32 p = 0; p < VIOAPIC_PINS; p++)
		assert_int_equal(rd(IOAPIC_REG_RTE_LO(p)), IOAPIC_RTE_MASKED);
	ioapic_mmio_ops.read(&io, IOAPIC_MMIO_REGSEL, 4, &v);
	assert_int_equal(v, IOAPIC_REG_RTE_LO(23));
	ioapic_mmio_ops.write(&io, 0x300, 4, IOAPIC_REG_VER);
	ioapic_mmio_ops.read(&io, 0x310, 4, &v);
	assert_int_equal(v, 0x00170020);
	ioapic_mmio_ops.read(&io, IOAPIC_MMIO_WIN, 8, &v);
	assert_int_equal(v, 0);
	/* Remote IRR and delivery status are read-only. */
	wr(IOAPIC_REG_RTE_LO(3), IOAPIC_RTE_RO | IOAPIC_RTE_LEVEL | 0x40);
	assert_int_equal(rd(IOAPIC_REG_RTE_LO(3)), IOAPIC_RTE_LEVEL | 0x40);
	wr(IOAPIC_REG_RTE_HI(3), 0x12000000);
	assert_int_equal(rd(IOAPIC_REG_RTE_HI(3)), 0x12000000);
	assert_int_equal(rd(0x10 + 2 * 24), 0); /* past the last entry */
}

static void test_edge(void **s)
{
	(void)s;
	rte(14, 0x76, false, 0, 0);
	ioapic_set_irq(&io, 14, true);
	assert_true(irr(0, 0x76));
	assert_false(cpu[0].tmr[0x76 >> 5] & (1u << (0x76 & 31)));
	take_and_eoi(0, 0x76);
	/* Still high: no new edge, nothing delivered. */
	ioapic_set_irq(&io, 14, true);
	assert_false(irr(0, 0x76));
	assert_int_equal(eois, 0); /* an edge EOI is not broadcast */
	ioapic_set_irq(&io, 14, false);
	ioapic_set_irq(&io, 14, true);
	assert_true(irr(0, 0x76));
	assert_int_equal(rd(IOAPIC_REG_RTE_LO(14)) & IOAPIC_RTE_REMOTE_IRR, 0);
}

static void test_edge_masked_is_lost(void **s)
{
	(void)s;
	rte(14, 0x81, false, 0, IOAPIC_RTE_MASKED);
	ioapic_set_irq(&io, 14, true);
	ioapic_set_irq(&io, 14, false);
	wr(IOAPIC_REG_RTE_LO(14), 0x81); /* unmask */
	assert_false(irr(0, 0x81));
	ioapic_set_irq(&io, 14, true);
	assert_true(irr(0, 0x81));
}

static void test_level_remote_irr_eoi(void **s)
{
	(void)s;
	rte(14, 0x77, true, 0, 0);
	ioapic_set_irq(&io, 14, true);
	assert_true(irr(0, 0x77));
	assert_true(cpu[0].tmr[0x77 >> 5] & (1u << (0x77 & 31)));
	assert_true(rd(IOAPIC_REG_RTE_LO(14)) & IOAPIC_RTE_REMOTE_IRR);
	/* In service: a second assertion coalesces. */
	vlapic_ack(&cpu[0], 0x77);
	ioapic_set_irq(&io, 14, false);
	ioapic_set_irq(&io, 14, true);
	assert_false(irr(0, 0x77));
	/* EOI with the line still high: delivered again. */
	assert_int_equal(vlapic_reg_write(&cpu[0], 0xb0, 0), 0);
	assert_int_equal(eois, 1);
	assert_true(irr(0, 0x77));
	assert_true(rd(IOAPIC_REG_RTE_LO(14)) & IOAPIC_RTE_REMOTE_IRR);
	/* Handler lowers the line, then EOI: remote IRR clear, no more. */
	vlapic_ack(&cpu[0], 0x77);
	ioapic_set_irq(&io, 14, false);
	assert_int_equal(vlapic_reg_write(&cpu[0], 0xb0, 0), 0);
	assert_false(irr(0, 0x77));
	assert_int_equal(rd(IOAPIC_REG_RTE_LO(14)) & IOAPIC_RTE_REMOTE_IRR, 0);
	/* TMR stays set until the vector is accepted again as an edge. */
	assert_true(cpu[0].tmr[0x77 >> 5] & (1u << (0x77 & 31)));
	rte(14, 0x77, false, 0, 0);
	ioapic_set_irq(&io, 14, true);
	assert_false(cpu[0].tmr[0x77 >> 5] & (1u << (0x77 & 31)));
}

/* A level assertion no vLAPIC took (a software-disabled one) sets no
 * remote IRR, and asserting the same level again retries it: only an
 * edge entry's unchanged level is nothing to do. */
static void test_level_refused_is_retried(void **s)
{
	(void)s;
	rte(14, 0x78, true, 0, 0);
	assert_int_equal(vlapic_reg_write(&cpu[0], 0xf0, 0xff), 0);
	ioapic_set_irq(&io, 14, true);
	assert_false(irr(0, 0x78));
	assert_int_equal(rd(IOAPIC_REG_RTE_LO(14)) & IOAPIC_RTE_REMOTE_IRR, 0);
	assert_int_equal(vlapic_reg_write(&cpu[0], 0xf0, 0x1ff), 0);
	ioapic_set_irq(&io, 14, true);
	assert_true(irr(0, 0x78));
	assert_true(rd(IOAPIC_REG_RTE_LO(14)) & IOAPIC_RTE_REMOTE_IRR);
}

static void test_level_mask_and_eoi_register(void **s)
{
	(void)s;
	rte(13, 0x82, true, 0, IOAPIC_RTE_MASKED);
	ioapic_set_irq(&io, 13, true);
	assert_false(irr(0, 0x82));
	wr(IOAPIC_REG_RTE_LO(13), 0x82 | IOAPIC_RTE_LEVEL); /* unmask */
	assert_true(irr(0, 0x82));
	/* Masked while in service: the EOI clears the remote IRR, nothing
	 * is delivered until it is unmasked with the line still high. */
	vlapic_ack(&cpu[0], 0x82);
	wr(IOAPIC_REG_RTE_LO(13), 0x82 | IOAPIC_RTE_LEVEL | IOAPIC_RTE_MASKED);
	assert_int_equal(vlapic_reg_write(&cpu[0], 0xb0, 0), 0);
	assert_false(irr(0, 0x82));
	assert_int_equal(rd(IOAPIC_REG_RTE_LO(13)) & IOAPIC_RTE_REMOTE_IRR, 0);
	wr(IOAPIC_REG_RTE_LO(13), 0x82 | IOAPIC_RTE_LEVEL);
	assert_true(irr(0, 0x82));
	/* The EOI register (version 0x20) clears the remote IRR too. */
	assert_true(rd(IOAPIC_REG_RTE_LO(13)) & IOAPIC_RTE_REMOTE_IRR);
	ioapic_set_irq(&io, 13, false);
	ioapic_mmio_ops.write(&io, IOAPIC_MMIO_EOI, 4, 0x82);
	assert_int_equal(rd(IOAPIC_REG_RTE_LO(13)) & IOAPIC_RTE_REMOTE_IRR, 0);
	/* Linux's way on older parts: level -> edge clears it. */
	ioapic_set_irq(&io, 13, true);
	assert_true(rd(IOAPIC_REG_RTE_LO(13)) & IOAPIC_RTE_REMOTE_IRR);
	wr(IOAPIC_REG_RTE_LO(13), 0x82 | IOAPIC_RTE_MASKED);
	assert_int_equal(rd(IOAPIC_REG_RTE_LO(13)) & IOAPIC_RTE_REMOTE_IRR, 0);
}

static void test_destinations(void **s)
{
	(void)s;
	/* Physical: APIC ID 2 only. */
	rte(5, 0x85, false, 2, 0);
	ioapic_set_irq(&io, 5, true);
	assert_true(irr(2, 0x85));
	assert_false(irr(0, 0x85) || irr(1, 0x85) || irr(3, 0x85));
	/* Logical (x2APIC targets: cluster 0, bits 0, 2, 3). */
	for (u32 i = 0; i < N; i++)
		assert_int_equal(
			vlapic_apic_base_write(&cpu[i],
					       0xfee00000 | BIT(11) | BIT(10) |
						       (i ? 0 : BIT(8))),
			0);
	rte(6, 0x86, false, 0x0d, IOAPIC_RTE_DEST_LOGICAL);
	ioapic_set_irq(&io, 6, true);
	assert_true(irr(0, 0x86) && irr(2, 0x86) && irr(3, 0x86));
	assert_false(irr(1, 0x86));
	/* Lowest priority: exactly one of them. */
	rte(7, 0x87, false, 0x0d,
	    IOAPIC_RTE_DEST_LOGICAL | (1u << IOAPIC_RTE_DELIVERY_SHIFT));
	ioapic_set_irq(&io, 7, true);
	assert_int_equal(
		irr(0, 0x87) + irr(1, 0x87) + irr(2, 0x87) + irr(3, 0x87), 1);
	/* NMI to APIC ID 3; a software-disabled APIC takes no fixed one. */
	rte(8, 0, false, 3, IOAPIC_RTE_DELIVERY_NMI);
	ioapic_set_irq(&io, 8, true);
	assert_true(cpu[3].nmi_pending);
	assert_int_equal(vlapic_reg_write(&cpu[1], 0xf0, 0xff), 0);
	rte(9, 0x89, true, 1, 0);
	ioapic_set_irq(&io, 9, true);
	assert_false(irr(1, 0x89));
	/* Not accepted: no remote IRR that no EOI would ever clear. */
	assert_int_equal(rd(IOAPIC_REG_RTE_LO(9)) & IOAPIC_RTE_REMOTE_IRR, 0);
}

#define T(f) cmocka_unit_test_setup(f, setup)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_registers),
		T(test_edge),
		T(test_edge_masked_is_lost),
		T(test_level_remote_irr_eoi),
		T(test_level_refused_is_retried),
		T(test_level_mask_and_eoi_register),
		T(test_destinations),
	};
	return cmocka_run_group_tests_name("vioapic", tests, NULL, NULL);
}
