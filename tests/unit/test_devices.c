// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_devices.c - the guest platform's ends and small devices
 * on the exit-handler fixture: reset by the 8042 and port 0xCF9 and ACPI
 * S5 (how the guest ended, a clean stop), the verdict on a foreign
 * guest's end (hv/run/verdict.c), the 8042's idle status, and
 * pc-testdev's data ports and IRQ lines (multiboot guests only), the
 * virtio disk's interrupt line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/ioapic.h"
#include "hv/platform/platform.h"
#include "hv/run/run.h"
#include "hv/svm/exit.h"
#include "tests/unit/exits_fixture.h"
#include "tests/unit/svm_fixture.h"

static u32 io(u16 port, unsigned sz, bool in, u32 val)
{
	fx_v[0]->vmcb->save.rax = val;
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(port, sz, in), FX_RIP + 1),
			 EXIT_RESUME);
	return (u32)fx_v[0]->vmcb->save.rax;
}

static void platform_on(enum guest_kind kind)
{
	fx_g->kind = kind;
	fx_g->plat = (struct platform){ .nr_cpus = FX_VCPUS,
					.tsc_khz = 1000000,
					.pm = ACPI_PM_INIT(0xe0000),
					.testdev = kind == GUEST_MULTIBOOT };
	platform_reset(&fx_g->plat);
}

static void test_reset_by_kbc(void **s)
{
	(void)s;
	platform_on(GUEST_LINUX);
	/* Idle: input and output buffers empty (Linux's kb_wait()). */
	assert_int_equal(io(KBC_CMD_PORT, 0, true, 0) & 3, 0);
	io(KBC_CMD_PORT, 0, false, 0xaa); /* other commands: nothing */
	assert_false(fx_g->stopping);
	io(KBC_DATA_PORT, 0, false, KBC_CMD_RESET); /* the data port: no */
	assert_false(fx_g->stopping);
	io(KBC_CMD_PORT, 0, false, KBC_CMD_RESET);
	assert_true(fx_g->stopping);
	assert_false(fx_g->failed);
	assert_int_equal(fx_g->end, GUEST_END_RESET);
	assert_non_null(strstr(fx_g->stop_reason, "keyboard controller"));
}

static void test_reset_by_cf9(void **s)
{
	(void)s;
	platform_on(GUEST_LINUX);
	io(RESET_PORT, 0, false, RESET_RCR_SYS_RST); /* selects, no reset */
	assert_false(fx_g->stopping);
	assert_int_equal(io(RESET_PORT, 0, true, 0) & 0xff, RESET_RCR_SYS_RST);
	io(RESET_PORT, 0, false, RESET_VALUE); /* the FADT's RESET_VALUE */
	assert_true(fx_g->stopping);
	assert_int_equal(fx_g->end, GUEST_END_RESET);
	assert_non_null(strstr(fx_g->stop_reason, "0xcf9"));
}

static void test_s5_power_off(void **s)
{
	(void)s;
	platform_on(GUEST_LINUX);
	io(PM1_CNT_PORT, 1, false, 0x2000); /* SLP_TYP 0 (\_S5) | SLP_EN */
	assert_true(fx_g->stopping);
	assert_false(fx_g->failed);
	assert_int_equal(fx_g->end, GUEST_END_POWEROFF);
	/* The first end wins: a reset after it changes nothing. */
	io(RESET_PORT, 0, false, RESET_VALUE);
	assert_int_equal(fx_g->end, GUEST_END_POWEROFF);
}

static void test_verdict(void **s)
{
	(void)s;
	/* Linux: isa-debug-exit 0 (status 1), power-off and reset pass. */
	assert_int_equal(run_foreign_verdict(true, false, GUEST_END_NONE, 1),
			 RUN_PASS);
	assert_int_equal(run_foreign_verdict(true, false, GUEST_END_POWEROFF,
					     0),
			 RUN_PASS);
	assert_int_equal(run_foreign_verdict(true, false, GUEST_END_RESET, 0),
			 RUN_PASS);
	/* ... a failing value, or minhv stopping it, do not. */
	assert_int_equal(run_foreign_verdict(true, false, GUEST_END_NONE, 3),
			 RUN_FAIL);
	assert_int_equal(run_foreign_verdict(true, true, GUEST_END_NONE, -1),
			 RUN_FAIL);
	assert_int_equal(run_foreign_verdict(true, true, GUEST_END_POWEROFF, 0),
			 RUN_FAIL);
	/* kvm-unit-tests: only the pass value; 77 skips; a plain power-off
	 * is no pass (their runner says so of a plain QEMU exit). */
	assert_int_equal(run_foreign_verdict(false, false, GUEST_END_NONE, 1),
			 RUN_PASS);
	assert_int_equal(run_foreign_verdict(false, false, GUEST_END_NONE, 77),
			 RUN_SKIP);
	assert_int_equal(run_foreign_verdict(false, false, GUEST_END_NONE, 155),
			 RUN_SKIP);
	assert_int_equal(run_foreign_verdict(false, false, GUEST_END_POWEROFF,
					     0),
			 RUN_FAIL);
	assert_int_equal(run_foreign_verdict(false, false, GUEST_END_NONE, 3),
			 RUN_FAIL);
}

static void test_testdev(void **s)
{
	struct vioapic *ioa = &fx_g->plat.ioapic;

	(void)s;
	platform_on(GUEST_MULTIBOOT);
	/* The data register: byte lanes by address, at 0xe0 and 0xe8. */
	io(TESTDEV_PORT, 2, false, 0x11223344);
	assert_int_equal(io(TESTDEV_PORT, 2, true, 0), 0x11223344);
	io(TESTDEV_PORT + 1, 0, false, 0xaa);
	assert_int_equal(io(TESTDEV_PORT, 2, true, 0), 0x1122aa44);
	assert_int_equal(io(TESTDEV_PORT_BYTE + 2, 1, true, 0), 0x1122);
	assert_int_equal(io(TESTDEV_PORT + 3, 0, true, 0) & 0xff, 0x11);
	assert_int_equal(io(TESTDEV_PORT_FLUSH, 2, true, 0), 0);
	/* IRQ lines: byte writes set ISA line n; line 0 is GSI 2. */
	io(TESTDEV_PORT_IRQ + 14, 0, false, 1);
	assert_true(ioa->level & BIT(14));
	io(TESTDEV_PORT_IRQ + 14, 0, false, 0);
	assert_false(ioa->level & BIT(14));
	io(TESTDEV_PORT_IRQ + 0, 0, false, 7);
	assert_true(ioa->level & BIT(2));
	io(TESTDEV_PORT_IRQ + 11, 2, false, 1); /* 4 bytes: dropped */
	assert_false(ioa->level & BIT(11));
	/* Linux has none: the ports are no device's. */
	platform_on(GUEST_LINUX);
	io(TESTDEV_PORT, 2, false, 0x55);
	assert_int_equal(io(TESTDEV_PORT, 2, true, 0), 0xffffffff);
	io(TESTDEV_PORT_IRQ + 14, 0, false, 1);
	assert_false(ioa->level & BIT(14));
}

/* The guest's APIC bus as hv/svm/vlapic_vcpu.c wires it: vCPU i's vLAPIC. */
static struct vlapic *bus_at(void *ctx, u32 i)
{
	(void)ctx;
	return i < FX_VCPUS ? &fx_v[i]->lapic : NULL;
}

static void bus_notify(struct vlapic *t)
{
	(void)t;
}

static void ioapic_wr(u32 reg, u32 v)
{
	struct vioapic *ioa = &fx_g->plat.ioapic;

	ioapic_mmio_ops.write(ioa, IOAPIC_MMIO_REGSEL, 4, reg);
	ioapic_mmio_ops.write(ioa, IOAPIC_MMIO_WIN, 4, v);
}

/* The virtio disk's interrupt is GSI 16 of the I/O APIC, level: asserted
 * while InterruptStatus is not 0, so an unmasked entry delivers its vector
 * to the vLAPIC; InterruptACK and the platform's reset lower it. */
static void test_disk_irq(void **s)
{
	struct vioapic *ioa = &fx_g->plat.ioapic;
	struct vlapic *l = &fx_v[0]->lapic;
	static struct virtio_blk d;
	static u8 image[512];
	const u8 vec = 0x61;

	(void)s;
	fx_platform(fx_v[0]); /* an enabled vLAPIC, ID 0 */
	platform_on(GUEST_LINUX);
	fx_g->plat.lapic_bus = (struct vlapic_bus){ .at = bus_at,
						    .notify = bus_notify,
						    .ctx = NULL,
						    .n = FX_VCPUS,
						    .eoi = NULL };
	l->bus = &fx_g->plat.lapic_bus;
	virtio_blk_init(&d, &fx_g->plat, fx_g->mem_host, FX_MEM, image, 1,
			false);
	fx_g->plat.disk = &d;
	assert_int_equal(vlapic_reg_write(l, 0xf0, 0x1ff), 0); /* SVR on */
	ioapic_wr(IOAPIC_REG_RTE_HI(VIRTIO_BLK_GSI), 0);
	ioapic_wr(IOAPIC_REG_RTE_LO(VIRTIO_BLK_GSI), vec | IOAPIC_RTE_LEVEL);
	d.isr = VIRTIO_MMIO_INT_VRING; /* a used buffer, as notify() sets */
	virtio_mmio_ops.write(&d, VIRTIO_MMIO_INTERRUPT_ACK, 4, 0);
	assert_true(ioa->level & BIT(VIRTIO_BLK_GSI));
	assert_true(l->irr[vec >> 5] & BIT(vec & 31));
	virtio_mmio_ops.write(&d, VIRTIO_MMIO_INTERRUPT_ACK, 4,
			      VIRTIO_MMIO_INT_VRING);
	assert_false(ioa->level & BIT(VIRTIO_BLK_GSI));
	d.isr = VIRTIO_MMIO_INT_CONFIG;
	virtio_mmio_ops.write(&d, VIRTIO_MMIO_INTERRUPT_ACK, 4, 0);
	assert_true(ioa->level & BIT(VIRTIO_BLK_GSI));
	platform_reset(&fx_g->plat); /* a reboot: the disk at power-on */
	assert_int_equal(d.isr, 0);
	assert_false(ioa->level & BIT(VIRTIO_BLK_GSI));
	fx_g->plat.disk = NULL;
}

#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_reset_by_kbc), T(test_reset_by_cf9),
		T(test_s5_power_off), T(test_verdict),
		T(test_testdev),      T(test_disk_irq),
	};
	return cmocka_run_group_tests_name("devices", tests, NULL, NULL);
}
