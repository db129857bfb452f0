// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exits_io.c - IOIO exits against a fake guest: port I/O,
 * string I/O by address size (given or decoded), linear addresses through
 * segments and the guest's page tables, long REPs in chunks, pc-testdev's
 * memory, the PM timer's fast path. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/svm/exit.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/exits_fixture.h"
#include "tests/unit/svm_fixture.h"

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

/* COM1 of a foreign guest on its own path (exit_ioio()): OUT AL to THR
 * reaches the 16550's line, IN AL keeps RAX's upper bits, each register
 * at its own offset, RIP from EXITINFO2; a word-wide access takes the
 * port table's path to the same model. */
static void test_ioio_com1(void **s)
{
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;
	struct uart16550 *u = &fx_g->plat.uart;

	(void)s;
	fx_platform(v);
	platform_reset(&fx_g->plat);
	vm->save.rax = 0xabcd0000ffff0000ULL | 'h';
	assert_int_equal(fx_run(VMEXIT_IOIO, IO(UART_COM1_PORT, 0, 0),
				RIP0 + 1),
			 EXIT_RESUME);
	assert_int_equal(vm->save.rip, RIP0 + 1);
	assert_int_equal(u->line_len, 1);
	assert_int_equal(u->line[0], 'h');
	/* IER written at base + 1, read back there; LSR at base + 5. */
	vm->save.rax = UART_IER_THRI;
	fx_run(VMEXIT_IOIO, IO(UART_COM1_PORT + UART_IER, 0, 0), RIP0 + 1);
	assert_int_equal(u->ier, UART_IER_THRI);
	vm->save.rax = 0xabcd0000ffff0000ULL;
	fx_run(VMEXIT_IOIO, IO(UART_COM1_PORT + UART_IER, 0, 1), RIP0 + 2);
	assert_int_equal(vm->save.rax, 0xabcd0000ffff0000ULL | UART_IER_THRI);
	vm->save.rax = 0xabcd0000ffff0000ULL;
	fx_run(VMEXIT_IOIO, IO(UART_COM1_PORT + UART_LSR, 0, 1), RIP0 + 1);
	assert_int_equal(vm->save.rax,
			 0xabcd0000ffff0000ULL | UART_LSR_THRE | UART_LSR_TEMT);
	assert_int_equal(vm->save.rip, RIP0 + 1);
	/* OUT AX: the table's path, the same THR. */
	vm->save.rax = 'i';
	fx_run(VMEXIT_IOIO, IO(UART_COM1_PORT, 1, 0), RIP0 + 2);
	assert_int_equal(u->line_len, 2);
	assert_int_equal(u->line[1], 'i');
	fx_g->kind = GUEST_MINHV;
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
		T(test_ioio_pm_timer),
		T(test_ioio_com1),
	};
	return cmocka_run_group_tests_name("exits_io", tests, NULL, NULL);
}
