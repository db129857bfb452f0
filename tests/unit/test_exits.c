// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exits.c - the dispatcher and exit handlers against a
 * fake guest: IOIO, NPF, SHUTDOWN, SVM instructions, VMEXIT_INVALID in both
 * widths (and QEMU's at a MOV to CR), single-step traps, HLT, PAUSE,
 * counters (CPUID: test_exits_cpuid.c; MSRs: test_exits_msr.c). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/svm/exit.h"
#include "hv/vmcb/exit_decode.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

#define RIP0 FX_RIP
#define UD_EVENT (VEC_UD | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID)
#define GP_EVENT FX_GP_EVENT

#define IO(port, sz, in) (((u64)(port) << 16) | BIT(4 + (sz)) | ((in) ? 1 : 0))

/* Page tables at the top of guest memory (out of the tests' way): VA
 * [0, 2M) -> GPA 0 (identity, as the fixture's CR0.PG says paging is on),
 * [2M, 4M) -> GPA 0 too, [4M, 6M) -> pc-testdev's memory at 0xff000000.
 * For test_ioio_paged; fx_long_mode_pt() maps only the first. */
#define PT_PML4 (FX_MEM - 0x3000)
static void page_tables(struct vcpu *v)
{
	u64 e;

	e = (PT_PML4 + 0x1000) | 3;
	fx_put(PT_PML4, &e, 8);
	e = (PT_PML4 + 0x2000) | 3;
	fx_put(PT_PML4 + 0x1000, &e, 8);
	e = 0x83;
	fx_put(PT_PML4 + 0x2000, &e, 8);
	fx_put(PT_PML4 + 0x2008, &e, 8);
	e = 0xff000000ULL | 0x83;
	fx_put(PT_PML4 + 0x2010, &e, 8);
	v->vmcb->save.cr3 = PT_PML4;
	v->vmcb->save.cr4 = 0x20; /* PAE */
}

static void test_ioio(void **s)
{
	struct vcpu *v = fx_v[0];
	const char *hi = "hi\n";

	(void)s;
	for (const char *c = hi; *c; c++) {
		v->vmcb->save.rax = 0x1200 | (u8)*c;
		assert_int_equal(fx_run(VMEXIT_IOIO, IO(0x3f8, 0, 0), RIP0 + 1),
				 EXIT_RESUME);
		assert_int_equal(v->vmcb->save.rip, RIP0 + 1);
	}
	assert_true(fake_console_has("[tg] hi\n"));
	/* IN AL from an unknown port: all ones, upper bits kept. */
	v->vmcb->save.rax = 0xabcd1234;
	fx_run(VMEXIT_IOIO, IO(0x80, 0, 1), RIP0 + 2);
	assert_int_equal(v->vmcb->save.rax, 0xabcd12ff);
	/* IN EAX zero-extends. */
	v->vmcb->save.rax = 0xffff000000000000ULL;
	fx_run(VMEXIT_IOIO, IO(0xcfc, 2, 1), RIP0 + 1);
	assert_int_equal(v->vmcb->save.rax, 0xffffffffULL);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 1);
	/* Writes elsewhere are dropped and counted. */
	u64 before = v->stats.io_dropped;
	fx_run(VMEXIT_IOIO, IO(0x80, 0, 0), RIP0 + 2);
	fx_run(VMEXIT_IOIO, IO(0x3f8, 1, 0), RIP0 + 2); /* OUT AX to COM1 */
	assert_int_equal(v->stats.io_dropped, before + 2);
	/* REP OUTSB from guest memory (identity-mapped 2 MiB). */
	fx_long_mode_pt(v);
	fx_put(0x5000, "rep!\n", 5);
	v->gprs.rsi = 0x5000;
	v->gprs.rcx = 5;
	fx_run(VMEXIT_IOIO, IO(0x3f8, 0, 0) | BIT(2) | BIT(3), RIP0 + 2);
	assert_true(fake_console_has("[tg] rep!\n"));
	assert_int_equal(v->gprs.rsi, 0x5005);
	assert_int_equal(v->gprs.rcx, 0);
	/* String I/O mapped past the end of guest RAM stops the guest, after
	 * the bytes that were RAM. */
	v->gprs.rsi = FX_MEM - 2;
	v->gprs.rcx = 5;
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(0x3f8, 0, 0) | BIT(2) | BIT(3),
				RIP0 + 2),
			 EXIT_LEAVE);
	assert_true(fx_g->stopping);
	assert_non_null(strstr(fx_g->stop_reason, "reaches no guest RAM"));
	assert_int_equal(v->gprs.rsi, FX_MEM);
	assert_int_equal(v->gprs.rcx, 3);
	assert_int_equal(v->stats.count[EK_IOIO], 9);
}

#define OUTSB(asz) (IO(0x3f8, 0, 0) | BIT(2) | BIT(3) | (asz))
#define JUNK 0xdead000000000000ULL

/* The address size (EXITINFO1 A16/A32/A64, bits 7-9) picks SI/ESI/RSI and
 * CX/ECX/RCX; 32-bit results zero-extend, 16-bit ones merge. */
static void test_ioio_addr_size(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_long_mode_pt(v);
	fx_put(0x5000, "a32!\n", 5);
	v->gprs.rsi = JUNK | 0x5000;
	v->gprs.rcx = JUNK | 5;
	assert_int_equal(fx_run(VMEXIT_IOIO, OUTSB(BIT(8)), RIP0 + 3),
			 EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_true(fake_console_has("[tg] a32!\n"));
	assert_int_equal(v->gprs.rsi, 0x5005);
	assert_int_equal(v->gprs.rcx, 0);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 3);
	fx_put(0x6000, "a16!\n", 5);
	v->gprs.rsi = 0x123450000ULL | 0x6000;
	v->gprs.rcx = 0x77770000ULL | 5;
	assert_int_equal(fx_run(VMEXIT_IOIO, OUTSB(BIT(7)), RIP0 + 3),
			 EXIT_RESUME);
	assert_true(fake_console_has("[tg] a16!\n"));
	assert_int_equal(v->gprs.rsi, 0x123456005ULL);
	assert_int_equal(v->gprs.rcx, 0x77770000ULL);
	/* A64: the junk counts: a non-canonical address, #GP(0), RIP and
	 * the registers as they were. */
	v->gprs.rsi = JUNK | 0x5000;
	v->gprs.rcx = 5;
	assert_int_equal(fx_run(VMEXIT_IOIO, OUTSB(BIT(9)), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, GP_EVENT);
	assert_int_equal(v->vmcb->save.rip, RIP0);
	assert_int_equal(v->gprs.rsi, JUNK | 0x5000);
	assert_int_equal(v->gprs.rcx, 5);
	assert_false(fx_g->stopping);
}

/* No size in EXITINFO1 (QEMU): a 67 prefix at RIP in 64-bit code means
 * 32-bit addresses; without it, 64-bit. */
static void test_ioio_addr_size_decoded(void **s)
{
	const u64 rip = 0x8000; /* the instruction bytes inside guest memory */
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_long_mode_pt(v);
	fx_put(rip, "\x67\xf3\x6e", 3);
	fx_put(0x5000, "dec!\n", 5);
	v->gprs.rsi = JUNK | 0x5000;
	v->gprs.rcx = JUNK | 5;
	fx_exit(v, VMEXIT_IOIO, OUTSB(0), rip + 3);
	v->vmcb->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_true(fake_console_has("[tg] dec!\n"));
	assert_int_equal(v->gprs.rsi, 0x5005);
	assert_int_equal(v->gprs.rcx, 0);
	assert_int_equal(v->vmcb->save.rip, rip + 3);
	/* Without the prefix, 64-bit: the junk counts (#GP). */
	fx_put(rip, "\xf3\x6e", 2);
	v->gprs.rsi = JUNK | 0x5000;
	v->gprs.rcx = 5;
	fx_exit(v, VMEXIT_IOIO, OUTSB(0), rip + 2);
	v->vmcb->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, GP_EVENT);
	assert_int_equal(v->vmcb->save.rip, rip);
}

/* String I/O addresses are linear (AUDIT D1): segment base + the register
 * masked to the address size, through the guest's page tables a page at a
 * time. Page 0 is RAM; an unmapped page is the #PF a CPU raises, after
 * the elements before it; overrides choose the segment of OUTS. */
static void test_ioio_linear(void **s)
{
	struct vcpu *v = fx_v[0];
	struct vmcb_save *vs = &v->vmcb->save;
	const u64 rip = 0x8000;
	u64 e;

	(void)s;
	/* 32-bit protected mode, paging off, DS.base 0x10000. */
	vs->cr0 = CR0_PE | CR0_ET;
	vs->efer = EFER_SVME;
	vs->cs.attrib = 0xc9b; /* D = 1 */
	vs->ds.base = 0x10000;
	fx_put(0x10100, "seg!\n", 5);
	v->gprs.rsi = 0x100;
	v->gprs.rcx = 5;
	fx_exit(v, VMEXIT_IOIO, OUTSB(BIT(8)), RIP0 + 2);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_true(fake_console_has("[tg] seg!\n"));
	/* INSB into page 0 (a PC guest's IVT and BDA are RAM). */
	v->gprs.rdi = 0x100;
	v->gprs.rcx = 2;
	fx_exit(v, VMEXIT_IOIO, IO(0x80, 0, 1) | BIT(2) | BIT(3) | BIT(8),
		RIP0 + 2);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_int_equal(((u8 *)fx_g->mem_host)[0x100], 0xff);
	assert_int_equal(((u8 *)fx_g->mem_host)[0x101], 0xff);
	assert_int_equal(v->gprs.rdi, 0x102);
	/* 64-bit paging: linear 0x40000000 -> GPA 0x7000, the next page
	 * unmapped. OUTSW of 2 words from 0x40000ffe: one word, then #PF
	 * with CR2 at the unmapped page, RSI/RCX after the word done. */
	vs->cr0 = 0x80000011;
	vs->efer = EFER_LME | EFER_LMA | EFER_SVME;
	vs->cs.attrib = 0xa9b;
	fx_long_mode_pt(v);
	e = 0x4000 | 3;
	fx_put(0x2008, &e, 8); /* PDPT[1] -> PD */
	e = 0x6000 | 3;
	fx_put(0x4000, &e, 8); /* PD[0] -> PT */
	e = 0x7000 | 3;
	fx_put(0x6000, &e, 8); /* PT[0] -> 0x7000; PT[1] not present */
	fx_put(0x7ffe, "ok", 2);
	v->gprs.rsi = 0x40000ffe;
	v->gprs.rcx = 2;
	v->vmcb->control.event_inj = 0;
	fx_exit(v, VMEXIT_IOIO, IO(0x80, 1, 0) | BIT(2) | BIT(3) | BIT(9),
		RIP0 + 3);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj,
			 VEC_PF | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID |
				 EVENTINJ_EV);
	assert_int_equal(vs->cr2, 0x40001000);
	assert_int_equal(v->gprs.rsi, 0x40001000);
	assert_int_equal(v->gprs.rcx, 1);
	assert_int_equal(vs->rip, RIP0);
	/* INSB there: the error code says write (bit 1). */
	v->gprs.rdi = 0x40001000;
	v->gprs.rcx = 1;
	fx_exit(v, VMEXIT_IOIO, IO(0x80, 0, 1) | BIT(2) | BIT(3) | BIT(9),
		RIP0 + 2);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj >> 32, 2);
	/* An FS override (QEMU: no segment in EXITINFO1) reads FS.base +
	 * RSI; in 64-bit mode DS has no base. */
	vs->fs.base = 0x40000000;
	vs->ds.base = 0x12345000;
	fx_put(rip, "\x64\x6e", 2); /* outsb %fs:(%rsi) */
	v->gprs.rsi = 0xffe;
	v->vmcb->control.event_inj = 0;
	fx_exit(v, VMEXIT_IOIO, IO(0x3f8, 0, 0) | BIT(2), rip + 2);
	vs->rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_int_equal(v->gprs.rsi, 0xfff);
	fx_put(rip, "\x6e", 1); /* outsb (%rsi): DS, base ignored */
	fx_put(0xfff, "\n", 1);
	fx_exit(v, VMEXIT_IOIO, IO(0x3f8, 0, 0) | BIT(2), rip + 1);
	vs->rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_true(fake_console_has("[tg] o\n"));
}

/* A long REP moves at most 4 KiB an exit and leaves RIP at the instruction
 * until RCX reaches 0. */
static void test_ioio_chunked(void **s)
{
	struct vcpu *v = fx_v[0];
	static char buf[10000];
	unsigned exits = 0;

	(void)s;
	fx_long_mode_pt(v);
	memset(buf, 'c', sizeof(buf));
	fx_put(0x10000, buf, sizeof(buf));
	v->gprs.rsi = 0x10000;
	v->gprs.rcx = sizeof(buf);
	do {
		assert_int_equal(fx_run(VMEXIT_IOIO, OUTSB(BIT(9)), RIP0 + 2),
				 EXIT_RESUME);
		exits++;
		if (v->gprs.rcx)
			assert_int_equal(v->vmcb->save.rip, RIP0);
		assert_true(exits < 10);
	} while (v->gprs.rcx);
	assert_int_equal(exits, 3); /* 4096 + 4096 + 1808 */
	assert_int_equal(v->gprs.rsi, 0x10000 + sizeof(buf));
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_false(fx_g->stopping);
}

/* INS/OUTS go through the guest's page tables, a page at a time, to guest
 * RAM or pc-testdev's memory (kvm-unit-tests' emulator reads from port
 * 0xe0 into a virtual page mapped at 0xff000000). */
static void test_ioio_paged(void **s)
{
	static u8 iomem[TESTDEV_IOMEM_SIZE];
	struct vcpu *v = fx_v[0];

	(void)s;
	page_tables(v);
	fx_g->kind = GUEST_MULTIBOOT;
	fx_g->plat = (struct platform){ .testdev = true };
	platform_reset(&fx_g->plat);
	fx_g->testdev_mem = ptr_to_hpa(iomem);
	v->vmcb->save.rax = 0x99;
	fx_run(VMEXIT_IOIO, IO(TESTDEV_PORT, 0, 0), RIP0 + 1);
	/* rep insb of 3 bytes at VA 0x205ffe: GPA 0x5ffe, then 0x6000. */
	v->gprs.rdi = 0x205ffe;
	v->gprs.rcx = 3;
	assert_int_equal(fx_run(VMEXIT_IOIO,
				IO(TESTDEV_PORT, 0, 1) | BIT(2) | BIT(3) |
					BIT(9),
				RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_int_equal(v->gprs.rcx, 0);
	assert_int_equal(v->gprs.rdi, 0x206001);
	assert_memory_equal((u8 *)fx_g->mem_host + 0x5ffe, "\x99\x99\x99", 3);
	/* Into pc-testdev's memory through VA 4M + 0x1000. */
	v->gprs.rdi = 0x401000;
	v->gprs.rcx = 4;
	fx_run(VMEXIT_IOIO, IO(TESTDEV_PORT, 0, 1) | BIT(2) | BIT(3) | BIT(9),
	       RIP0 + 2);
	assert_false(fx_g->stopping);
	assert_memory_equal(iomem + 0x1000, "\x99\x99\x99\x99", 4);
	fx_g->testdev_mem = hpa(0);
}

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

static void test_shutdown(void **s)
{
	(void)s;
	assert_int_equal(fx_run(VMEXIT_SHUTDOWN, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "triple fault"));
	assert_true(fx_g->failed);
}

static void test_svm_insns_ud(void **s)
{
	static const u64 codes[] = { VMEXIT_VMRUN,  VMEXIT_VMLOAD,
				     VMEXIT_VMSAVE, VMEXIT_STGI,
				     VMEXIT_CLGI,   VMEXIT_SKINIT,
				     VMEXIT_INVLPGA };

	(void)s;
	for (unsigned i = 0; i < ARRAY_SIZE(codes); i++) {
		assert_int_equal(fx_run(codes[i], 0, 0), EXIT_RESUME);
		assert_int_equal(fx_v[0]->vmcb->control.event_inj, UD_EVENT);
		assert_int_equal(fx_v[0]->vmcb->save.rip, RIP0);
	}
	assert_int_equal(fx_v[0]->stats.count[EK_SVM_INSN], ARRAY_SIZE(codes));
	assert_false(fx_g->stopping);
}

static void test_invalid_both_widths(void **s)
{
	(void)s;
	fx_v[0]->vmcb->save.efer = EFER_LME | EFER_LMA; /* SVME missing */
	assert_int_equal(fx_run(0xffffffffULL, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "VMRUN failed"));
	assert_non_null(strstr(fx_g->stop_reason, "EFER.SVME is clear"));
	assert_true(fake_console_has("VMCB "));
	fx_teardown();
	fx_setup();
	assert_int_equal(fx_run(~0ULL, 0, 0), EXIT_LEAVE);
	assert_non_null(
		strstr(fx_g->stop_reason, "VMEXIT_INVALID 0xffffffffffffffff"));
}

/* QEMU overwrites the save area with host state when VMRUN fails: the
 * diagnosis uses the CR0 the run loop gave VMRUN. */
static void test_invalid_cr0_nw(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	v->vmrun_cr0 = v->vmcb->save.cr0 | BIT(29); /* NW, CD clear */
	assert_int_equal(fx_run(0xffffffffULL, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "CR0.NW set without CR0.CD"));
}

/* QEMU TCG's VMEXIT_INVALID for a guest MOV to CR4 with a reserved bit
 * (or CR3 above MAXPHYADDR) in mid-guest: the guest gets #GP(0) at the
 * MOV, as the architecture says; anything else at RIP still stops it. */
static void test_invalid_mov_cr_gp(void **s)
{
	const u64 rip = 0x8000;
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	g_features.qemu = true; /* fw_cfg said so at boot */
	fx_long_mode_pt(v);
	vm->control.asid = 1; /* a VMCB that passes vmcb_check() */
	vmcb_set_intercept(vm, INTERCEPT_VMRUN);
	fx_put(rip, "\x0f\x22\xe7", 3); /* mov %rdi,%cr4 */
	v->gprs.rdi = 0x20 | BIT(28);
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_int_equal(vm->control.event_inj, GP_EVENT);
	assert_int_equal(vm->save.rip, rip);
	assert_int_equal(vm->save.cr4, 0x20);
	assert_int_equal(v->stats.mov_cr_gp, 1);
	/* mov %r8,%cr3, after the guest ran on (another exit) */
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	vm->control.event_inj = 0;
	fx_put(rip, "\x41\x0f\x22\xd8", 4);
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->control.event_inj, GP_EVENT);
	assert_int_equal(v->stats.mov_cr_gp, 2);
	/* A save area that breaks a rule is a real VMRUN failure. */
	vm->control.event_inj = 0;
	vm->save.cr4 = 0; /* long mode without PAE */
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "without CR4.PAE"));
	assert_int_equal(v->stats.mov_cr_gp, 2);
}

/* D3: the QEMU workaround is QEMU's only (on hardware a VMRUN failure
 * vmcb_check() misses, with RIP at a MOV to CR4, would turn into a #GP
 * that fails again at once, forever), and never twice in a row at one
 * RIP: the first #GP was then never delivered. */
static void test_invalid_mov_cr_gp_guarded(void **s)
{
	const u64 rip = 0x8000;
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	fx_long_mode_pt(v);
	vm->control.asid = 1;
	vmcb_set_intercept(vm, INTERCEPT_VMRUN);
	fx_put(rip, "\x0f\x22\xe7", 3); /* mov %rdi,%cr4 */
	/* Not QEMU: the VMRUN failure it is. */
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "VMRUN failed"));
	assert_int_equal(v->stats.mov_cr_gp, 0);
	/* QEMU: once; after other exits (the guest ran) again. */
	fx_g->stopping = false;
	fx_g->stop_reason[0] = 0;
	g_features.qemu = true;
	for (int i = 0; i < 2; i++) {
		fx_exit(v, 0xffffffffULL, 0, 0);
		vm->save.rip = rip;
		assert_int_equal(exit_dispatch(v), EXIT_RESUME);
		assert_int_equal(vm->control.event_inj, GP_EVENT);
		assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	}
	assert_int_equal(v->stats.mov_cr_gp, 2);
	/* The same RIP right after the answer: its #GP was never delivered,
	 * VMRUN failed again. Stop instead of looping. */
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_true(fx_g->stopping);
	assert_int_equal(v->stats.mov_cr_gp, 3);
}

/* The same from 16-bit code: decoded at CS.base + IP, and in real mode
 * the #GP carries no error code (VMRUN would refuse one). */
static void test_invalid_mov_cr4_16bit(void **s)
{
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	g_features.qemu = true; /* fw_cfg said so at boot */
	vm->control.asid = 1;
	vmcb_set_intercept(vm, INTERCEPT_VMRUN);
	/* 16-bit protected mode: CS.D = 0, paging off */
	fx_put(0x8000, "\x0f\x22\xe0", 3); /* mov %eax,%cr4 */
	vm->save.rax = BIT(28);
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.cr0 = CR0_PE | CR0_ET;
	vm->save.efer = EFER_SVME;
	vm->save.cs.attrib = 0x9b; /* present code, D = 0 */
	vm->save.cs.base = 0x7000;
	vm->save.rip = 0x1000;
	v->vmrun_cr0 = vm->save.cr0;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_int_equal(vm->control.event_inj, GP_EVENT);
	assert_int_equal(vm->save.rip, 0x1000);
	/* real mode, after the guest ran on (another exit) */
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	vm->control.event_inj = 0;
	fx_exit(v, 0xffffffffULL, 0, 0);
	vm->save.cr0 = CR0_ET;
	vm->save.efer = EFER_SVME;
	vm->save.cs.attrib = 0x9b;
	vm->save.cs.base = 0x7000;
	vm->save.rip = 0x1000;
	v->vmrun_cr0 = vm->save.cr0;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(fx_g->stopping);
	assert_int_equal(vm->control.event_inj,
			 VEC_GP | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
	assert_int_equal(v->stats.mov_cr_gp, 2);
}

/* MOV to CR0 (QEMU never answers it with VMEXIT_INVALID) or any other
 * instruction at RIP: the guest stops with the diagnosis. */
static void test_invalid_other_insn(void **s)
{
	const u64 rip = 0x8000;
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_long_mode_pt(v);
	v->vmcb->control.asid = 1;
	vmcb_set_intercept(v->vmcb, INTERCEPT_VMRUN);
	fx_put(rip, "\x0f\x22\xc7", 3); /* mov %rdi,%cr0 */
	fx_exit(v, 0xffffffffULL, 0, 0);
	v->vmcb->save.rip = rip;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_int_equal(v->stats.mov_cr_gp, 0);
	assert_non_null(strstr(fx_g->stop_reason, "no consistency rule"));
}

/* A guest single-stepping (RFLAGS.TF) through an instruction minhv carries
 * out gets the #DB trap the CPU would raise after it: RIP past the
 * instruction, DR6.BS set and B0-B3 clear, the DR clean bit dropped. A
 * faulting one gets only its fault; without TF nothing is added. */
static void test_single_step_trap(void **s)
{
	const u64 db = VEC_DB | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;
	struct vmcb *vm = fx_v[0]->vmcb;

	(void)s;
	vm->save.rflags = 0x302; /* TF, IF */
	vm->save.dr6 = 0xffff0ff1; /* B0 from an earlier breakpoint */
	vm->control.clean = VMCB_CLEAN_ALL;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_int_equal(vm->save.rip, RIP0 + 2);
	assert_int_equal(vm->control.event_inj, db);
	assert_int_equal(vm->save.dr6, 0xffff4ff0);
	assert_int_equal(vm->control.clean & VMCB_CLEAN_DRX, 0);
	/* IN AL, 0x80: carried out by minhv, the trap follows */
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(0x80, 0, 1), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(vm->control.event_inj, db);
	/* RDMSR of an MSR nobody has: #GP, no trap (it did not complete) */
	fx_msr(0x12345678, false, 0);
	fx_expect_gp();
	/* TF clear: nothing added */
	vm->save.rflags = 0x202;
	vm->save.dr6 = 0xffff0ff0;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_int_equal(vm->control.event_inj, 0);
	assert_int_equal(vm->save.dr6, 0xffff0ff0);
}

/* The PM timer (port 0x608) of a foreign guest: IN EAX on its own path,
 * the narrower reads through the port table, both at the TSC's rate
 * since the platform's origin; no platform, no timer (all ones); TF
 * still traps after the fast path. */
static void test_ioio_pm_timer(void **s)
{
	const u64 db = VEC_DB | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	vm->save.rax = 0xffff000000000000ULL; /* IN EAX zero-extends */
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(PM_TIMER_PORT, 2, 1), RIP0 + 1),
			 EXIT_RESUME);
	assert_int_equal(vm->save.rax, 0xffffffffULL); /* no platform */
	fx_platform(v);
	fx_g->plat.tsc_khz = 2000000; /* 2 GHz */
	fx_g->plat.pm_tsc0 = 1000;
	fake_tsc_set(1000 + 2000000000ULL, 0); /* one second later */
	vm->save.rax = 0xffff000000000000ULL;
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(PM_TIMER_PORT, 2, 1), RIP0 + 1),
			 EXIT_RESUME);
	assert_int_equal(vm->save.rax, ACPI_PM_TIMER_HZ);
	assert_int_equal(vm->save.rip, RIP0 + 1);
	assert_int_equal(vm->control.event_inj, 0);
	/* IN AX: the low 16 bits, RAX's upper bits kept. */
	vm->save.rax = 0xabcd0000ffff0000ULL;
	fx_run(VMEXIT_IOIO, IO(PM_TIMER_PORT, 1, 1), RIP0 + 2);
	assert_int_equal(vm->save.rax,
			 0xabcd0000ffff0000ULL | (ACPI_PM_TIMER_HZ & 0xffff));
	/* IN AL from 0x609: the second byte. */
	vm->save.rax = 0;
	fx_run(VMEXIT_IOIO, IO(PM_TIMER_PORT + 1, 0, 1), RIP0 + 2);
	assert_int_equal(vm->save.rax, (ACPI_PM_TIMER_HZ >> 8) & 0xff);
	/* Half a second later. */
	fake_tsc_set(1000 + 3000000000ULL, 0);
	fx_run(VMEXIT_IOIO, IO(PM_TIMER_PORT, 2, 1), RIP0 + 1);
	assert_int_equal(vm->save.rax, ACPI_PM_TIMER_HZ + ACPI_PM_TIMER_HZ / 2);
	/* Single-stepped: the trap after it. */
	vm->save.rflags = 0x302;
	fx_run(VMEXIT_IOIO, IO(PM_TIMER_PORT, 2, 1), RIP0 + 1);
	assert_int_equal(vm->control.event_inj, db);
	fx_g->kind = GUEST_MINHV;
}

/* Every instruction minhv completes ends the interrupt shadow of a STI or
 * MOV SS before it (APM vol 2 15.21.5, AUDIT-HARDWARE.md B3: after
 * `sti; hlt` the woken vCPU must take its interrupt, not open a window);
 * one that faults, or a REP string I/O that goes on, keeps it. */
static void test_shadow_cleared(void **s)
{
	struct vcpu *v = fx_v[0];
	struct vmcb_control *c = &v->vmcb->control;
	static char buf[5000];

	(void)s;
	c->int_shadow = INT_SHADOW;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_int_equal(c->int_shadow, 0);
	c->int_shadow = INT_SHADOW;
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(0x80, 0, 1), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(c->int_shadow, 0);
	c->int_shadow = INT_SHADOW;
	assert_int_equal(fx_run(VMEXIT_PAUSE, 0, 0), EXIT_RESUME);
	assert_int_equal(c->int_shadow, 0);
	c->int_shadow = INT_SHADOW;
	fx_msr(MSR_EFER, false, 0);
	fx_expect_ok();
	assert_int_equal(c->int_shadow, 0);
	/* A faulting RDMSR: #GP, the instruction did not complete. */
	c->int_shadow = INT_SHADOW;
	fx_msr(0x12345678, false, 0);
	fx_expect_gp();
	assert_int_equal(c->int_shadow, INT_SHADOW);
	/* REP OUTSB: kept while RCX runs, cleared when it completes. */
	fx_long_mode_pt(v);
	memset(buf, 'x', sizeof(buf));
	fx_put(0x10000, buf, sizeof(buf));
	v->gprs.rsi = 0x10000;
	v->gprs.rcx = sizeof(buf);
	assert_int_equal(fx_run(VMEXIT_IOIO, OUTSB(BIT(9)), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, RIP0);
	assert_int_equal(c->int_shadow, INT_SHADOW);
	assert_int_equal(fx_run(VMEXIT_IOIO, OUTSB(BIT(9)), RIP0 + 2),
			 EXIT_RESUME);
	assert_int_equal(v->gprs.rcx, 0);
	assert_int_equal(c->int_shadow, 0);
	/* `sti; hlt`: the HLT completes (here with IF=0: the vCPU is done). */
	c->int_shadow = INT_SHADOW;
	v->vmcb->save.rflags = 0x2;
	assert_int_equal(fx_run(VMEXIT_HLT, 0, 0), EXIT_LEAVE);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 1);
	assert_int_equal(c->int_shadow, 0);
}

static void test_hlt_pause(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	assert_int_equal(fx_run(VMEXIT_PAUSE, 0, 0), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_int_equal(v->stats.count[EK_PAUSE], 1);
	/* HLT with IF=0, the only live vCPU: it is done, the guest stops. */
	v->vmcb->save.rflags = 0x2;
	assert_int_equal(fx_run(VMEXIT_HLT, 0, 0), EXIT_LEAVE);
	assert_int_equal(v->state, VCPU_DONE);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 1);
	assert_true(fx_g->stopping);
	assert_false(fx_g->failed);
	assert_non_null(strstr(fx_g->stop_reason, "halted"));
}

static void test_hlt_if1_waits(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	/* Another vCPU keeps the guest alive; this one halts with IF=1. */
	fx_v[1]->state = VCPU_RUNNING;
	fx_g->live = 2;
	assert_int_equal(fx_run(VMEXIT_HLT, 0, 0), EXIT_LEAVE);
	assert_int_equal(v->state, VCPU_HALTED);
	assert_int_equal(fx_g->live, 1);
	assert_false(fx_g->stopping);
}

static void test_nrip_used(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	g_features.nrips = true;
	fx_exit(v, VMEXIT_PAUSE, 0, 0);
	v->vmcb->control.next_rip = RIP0 + 7;
	exit_dispatch(v);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 7);
}

static void test_clean_bits_marked(void **s)
{
	struct vmcb_control *c = &fx_v[0]->vmcb->control;

	(void)s;
	c->clean = VMCB_CLEAN_ALL;
	fx_msr(MSR_EFER, true, EFER_LME | EFER_LMA | EFER_NXE);
	fx_expect_ok();
	assert_int_equal(c->clean, VMCB_CLEAN_ALL & ~VMCB_CLEAN_CRX);
	c->clean = VMCB_CLEAN_ALL;
	fx_msr(MSR_PAT, true, 0x0606060606060606ULL);
	fx_expect_ok();
	assert_int_equal(c->clean, VMCB_CLEAN_ALL & ~VMCB_CLEAN_NP);
	/* A refused write changes nothing. */
	c->clean = VMCB_CLEAN_ALL;
	fx_msr(MSR_PAT, true, 0x0202020202020202ULL);
	fx_expect_gp();
	assert_int_equal(c->clean, VMCB_CLEAN_ALL);
	/* Fields no group covers: RAX/RIP (CPUID), FS base (VMLOAD state),
	 * EVENTINJ (#UD for an SVM instruction). */
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	fx_msr(MSR_FS_BASE, true, 0x1000);
	fx_expect_ok();
	fx_run(VMEXIT_VMRUN, 0, 0);
	assert_int_equal(fx_v[0]->vmcb->control.event_inj, UD_EVENT);
	assert_int_equal(c->clean, VMCB_CLEAN_ALL);
}

static void test_unexpected(void **s)
{
	(void)s;
	/* The inline dispatch calls a direct slot's handler untested: every
	 * slot has one, and a code without a row still looks up as "?". */
	for (u64 c = 0; c < EXIT_DIRECT; c++)
		assert_non_null(exit_rows[exit_row_of[c]].handler);
	assert_string_equal(exit_name(0x65), "?");
	assert_ptr_equal(exit_lookup(0x65), exit_lookup(0x1234));
	assert_ptr_not_equal(exit_lookup(VMEXIT_CPUID), exit_lookup(0x1234));
	assert_int_equal(fx_run(0x65, 0, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "unexpected exit 0x65"));
	assert_int_equal(fx_v[0]->stats.count[EK_OTHER], 1);
	assert_int_equal(fx_v[0]->stats.exits, 1);
}

static void test_intr_nmi(void **s)
{
	(void)s;
	assert_int_equal(fx_run(VMEXIT_INTR, 0, 0), EXIT_RESUME);
	assert_int_equal(fx_run(VMEXIT_NMI, 0, 0), EXIT_RESUME);
	assert_int_equal(fx_v[0]->stats.count[EK_INTR], 1);
	assert_int_equal(fx_v[0]->stats.count[EK_NMI], 1);
	assert_int_equal(fx_v[0]->vmcb->save.rip, RIP0); /* not skipped */
	/* Nothing else to do in C: no host interrupt-flag games. */
	assert_int_equal(fake_trace_count("sti"), 0);
	assert_false(fx_g->stopping);
}

int main(void)
{
#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_ioio),
		T(test_ioio_addr_size),
		T(test_ioio_addr_size_decoded),
		T(test_ioio_chunked),
		T(test_ioio_linear),
		T(test_ioio_paged),
		T(test_invalid_cr0_nw),
		T(test_invalid_mov_cr_gp),
		T(test_invalid_mov_cr_gp_guarded),
		T(test_invalid_mov_cr4_16bit),
		T(test_invalid_other_insn),
		T(test_single_step_trap),
		T(test_ioio_pm_timer),
		T(test_shadow_cleared),
		T(test_npf_outside),
		T(test_npf_lapic_final_data_only),
		T(test_npf_virtio_mmio),
		T(test_npf_virtio_undecodable),
		T(test_npf_no_disk),
		T(test_shutdown),
		T(test_svm_insns_ud),
		T(test_invalid_both_widths),
		T(test_hlt_pause),
		T(test_hlt_if1_waits),
		T(test_nrip_used),
		T(test_clean_bits_marked),
		T(test_unexpected),
		T(test_intr_nmi),
	};
	return cmocka_run_group_tests_name("exits", tests, NULL, NULL);
}
