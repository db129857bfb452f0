// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exits_npf.c - nested page faults against a fake guest:
 * outside guest memory, the vLAPIC page (an instruction's data access
 * only) and the virtio disk's MMIO window. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/svm/exit.h"
#include "tests/doubles/fake_console.h"
#include "tests/unit/exits_fixture.h"
#include "tests/unit/svm_fixture.h"

static void test_npf_outside(void **s)
{
	(void)s;
	assert_int_equal(fx_run(VMEXIT_NPF, BIT(32) | BIT(1), FX_MEM + 0x1000),
			 EXIT_LEAVE);
	assert_true(fx_g->stopping);
	assert_true(fx_g->failed);
	assert_non_null(strstr(fx_g->stop_reason, "GPA 0x101000 outside"));
	assert_non_null(strstr(fx_g->stop_reason, "write to unmapped page"));
	assert_true(fake_console_has("guest tg stopped"));
	assert_int_equal(fx_v[0]->stats.count[EK_NPF], 1);
}

/* mov eax, [0xfee00030] (64-bit: ModRM 04, SIB 25, disp32): the APIC
 * version register, through the decode-assist bytes. */
static void lapic_read_insn(struct vcpu *v)
{
	static const u8 b[] = { 0x8b, 0x04, 0x25, 0x30, 0x00, 0xe0, 0xfe };

	v->vmcb->control.insn_len = sizeof(b);
	memcpy(v->vmcb->control.insn_bytes, b, sizeof(b));
}

/* The APIC page is emulated only for an instruction's data access to the
 * final address (AUDIT D2, B5): not for a guest page-table walk that
 * touches it, an instruction fetch from it, or an access while an event
 * is delivered; those stop the guest with the reason. */
static void test_npf_lapic_final_data_only(void **s)
{
	static const struct {
		u64 info1, intinfo;
		const char *why;
	} bad[] = {
		{ BIT(33), 0,
		  "read of unmapped page during a guest page-table walk" },
		{ BIT(33) | BIT(1), 0, "write to unmapped page during" },
		{ BIT(32) | BIT(4), 0, "fetch from unmapped page" },
		{ BIT(32), 0x8000000eULL | EVENTINJ_TYPE_EXCEPTION,
		  "in event delivery" },
		{ 0, 0, "read of unmapped page" }, /* neither bit */
	};
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_platform(v);
	lapic_read_insn(v);
	v->vmcb->save.rax = 0;
	assert_int_equal(fx_run(VMEXIT_NPF, BIT(32), 0xfee00030), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rax, VLAPIC_VERSION);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 7);
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		fx_teardown();
		fx_setup();
		v = fx_v[0];
		fx_platform(v);
		lapic_read_insn(v);
		v->vmcb->save.rax = 0;
		fx_exit(v, VMEXIT_NPF, bad[i].info1, 0xfee00300);
		v->vmcb->control.exit_int_info = bad[i].intinfo;
		assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
		assert_true(fx_g->stopping);
		assert_true(fx_g->failed);
		if (!strstr(fx_g->stop_reason, bad[i].why) ||
		    !strstr(fx_g->stop_reason, "not emulated, RIP"))
			fail_msg("case %u: '%s'", i, fx_g->stop_reason);
		/* Nothing was read or written: no IPI sent, EAX untouched. */
		assert_int_equal(v->vmcb->save.rax, 0);
		assert_int_equal(v->lapic.icr_lo, 0);
		assert_int_equal(v->vmcb->save.rip, RIP0);
	}
}

/* The decode-assist bytes of the instruction at FX_RIP (the fixture's
 * RIP is the end of its memory). */
static void insn(struct vcpu *v, const u8 *b, u8 n)
{
	v->vmcb->control.insn_len = n;
	memcpy(v->vmcb->control.insn_bytes, b, n);
}

/* A one-sector virtio disk on v's guest platform; free it when done. */
static struct virtio_blk *disk_attach(struct vcpu *v)
{
	static u8 image[512];
	struct virtio_blk *d = calloc(1, sizeof(*d));

	fx_platform(v);
	virtio_blk_init(d, &fx_g->plat, fx_g->mem_host, FX_MEM, image, 1,
			false);
	fx_g->plat.disk = d;
	return d;
}

/* An access to the virtio disk's window (outside guest RAM) reaches its
 * registers through the platform's MMIO map: MOV EAX, [RBX] reads the
 * magic value; past the 0x200-byte window, or without a disk, it is a
 * fault outside guest memory. */
static void test_npf_virtio_mmio(void **s)
{
	static const u8 mov[] = { 0x8b, 0x03 }; /* mov eax, [rbx] */
	struct vcpu *v = fx_v[0];
	struct virtio_blk *d = disk_attach(v);

	(void)s;
	v->vmcb->save.rax = ~0ULL;
	insn(v, mov, sizeof(mov));
	assert_int_equal(fx_run(VMEXIT_NPF, BIT(32) | BIT(0), VIRTIO_BLK_GPA),
			 EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rax, VIRTIO_MMIO_MAGIC);
	assert_int_equal(v->vmcb->save.rip, FX_RIP + 2);
	insn(v, mov, sizeof(mov));
	assert_int_equal(fx_run(VMEXIT_NPF, BIT(32) | BIT(0),
				VIRTIO_BLK_GPA + VIRTIO_MMIO_VERSION),
			 EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rax, VIRTIO_MMIO_VERSION_MODERN);
	assert_false(fx_g->stopping);
	insn(v, mov, sizeof(mov));
	assert_int_equal(fx_run(VMEXIT_NPF, BIT(32) | BIT(0),
				VIRTIO_BLK_GPA + VIRTIO_MMIO_SIZE),
			 EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "outside guest memory"));
	fx_g->plat.disk = NULL;
	free(d);
}

/* An instruction the decoder does not know, on the disk's window: the
 * guest stops, the device named. */
static void test_npf_virtio_undecodable(void **s)
{
	static const u8 ud2[] = { 0x0f, 0x0b };
	struct vcpu *v = fx_v[0];
	struct virtio_blk *d = disk_attach(v);

	(void)s;
	insn(v, ud2, sizeof(ud2));
	assert_int_equal(fx_run(VMEXIT_NPF, BIT(32) | BIT(0), VIRTIO_BLK_GPA),
			 EXIT_LEAVE);
	assert_non_null(
		strstr(fx_g->stop_reason,
		       "virtio disk access at GPA 0xfeb00000 not emulated"));
	fx_g->plat.disk = NULL;
	free(d);
}

static void test_npf_no_disk(void **s)
{
	(void)s;
	fx_platform(fx_v[0]);
	assert_int_equal(fx_run(VMEXIT_NPF, BIT(32) | BIT(0), VIRTIO_BLK_GPA),
			 EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "GPA 0xfeb00000 outside"));
}

int main(void)
{
#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_npf_outside),	 T(test_npf_lapic_final_data_only),
		T(test_npf_virtio_mmio), T(test_npf_virtio_undecodable),
		T(test_npf_no_disk),
	};
	return cmocka_run_group_tests_name("exits_npf", tests, NULL, NULL);
}
