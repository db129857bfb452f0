// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_trap.c - trap_dispatch() (hv/trap.c) for vectors nothing
 * registered: an exception is fatal; an interrupt is EOI'd when the local
 * APIC has it in service (else its ISR bit would block the timer and the
 * cross-call vectors, which rank below it), counted, and logged a few
 * times, never fatal. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/apic.h"
#include "arch/idt.h"
#include "hv/stop.h"
#include "hv/trap.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"

char ImageBase[16];
char rdmsr_safe_insn[1], rdmsr_safe_fixup[1];
/* arch/cpu_safe.asm's labels: the HLT or MWAIT, and right after it. */
char cpu_safe_halt_insn[1], cpu_safe_halt_done[1];
char cpu_safe_mwait_insn[3], cpu_safe_mwait_done[1];

void park_irq_enter(void)
{
}

/* A local APIC with one ISR bank and an EOI counter. */
static u32 isr[8];
static unsigned eois;

static u32 fake_read(u32 reg)
{
	if (reg >= APIC_REG_ISR && reg < APIC_REG_ISR + 0x80)
		return isr[(reg - APIC_REG_ISR) / 0x10];
	return 0;
}

static void fake_eoi(void)
{
	eois++;
	/* the highest vector in service is done */
	for (int i = 7; i >= 0; i--)
		if (isr[i]) {
			isr[i] &= ~(1u << (31 - __builtin_clz(isr[i])));
			return;
		}
}

static const struct apic_ops fake_apic = {
	.name = "fake",
	.read = fake_read,
	.eoi = fake_eoi,
};

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_console_clear();
	memset(isr, 0, sizeof(isr));
	eois = 0;
	g_apic = &fake_apic;
	return 0;
}

static void in_service(u8 v)
{
	isr[v / 32] |= 1u << (v % 32);
}

static void test_unexpected_vector_in_service_is_eoid(void **s)
{
	struct trap_frame f = { .vector = 0x31 };

	(void)s;
	in_service(0x31);
	assert_int_equal(FAKE_CATCH_STOP(trap_dispatch(&f)), -1);
	assert_int_equal(eois, 1);
	assert_int_equal(isr[1], 0);
	assert_true(fake_console_has(
		"unexpected interrupt vector 0x31 (1 so far), EOI sent"));
}

static void test_not_in_service_gets_no_eoi(void **s)
{
	struct trap_frame f = { .vector = 0x40 };

	(void)s;
	/* an EOI now would end whatever else is in service */
	in_service(VEC_TIMER);
	trap_dispatch(&f);
	assert_int_equal(eois, 0);
	assert_true(isr[VEC_TIMER / 32] & (1u << (VEC_TIMER % 32)));
}

static void test_storm_is_counted_not_logged(void **s)
{
	struct trap_frame f = { .vector = 0x55 };

	(void)s;
	for (int i = 0; i < 20; i++) {
		in_service(0x55);
		trap_dispatch(&f);
	}
	assert_int_equal(eois, 20);
	assert_false(fake_console_has("(20 so far)"));
}

static void test_exception_is_fatal(void **s)
{
	struct trap_frame f = { .vector = 13, .rip = 0x1000 };

	(void)s;
	assert_int_equal(FAKE_CATCH_STOP(trap_dispatch(&f)), STOP_FAIL);
	assert_true(fake_console_has("#GP general protection"));
	assert_int_equal(eois, 0);
}

static unsigned taken[256];

static void count_taken(struct trap_frame *f)
{
	taken[f->vector]++;
}

#define AT(label) ((u64)(uintptr_t)(label))

/* An NMI or #MC right before a safe halt's HLT (or MWAIT), after its STI:
 * the handler runs, then the CPU resumes after the HLT, not on it (an
 * interrupt pending since before the STI would be taken first, with the
 * shadow gone, and the HLT would then sleep on). Anywhere else, and for a
 * maskable vector (which that shadow holds off), RIP stays. */
static void test_nmi_mc_before_safe_halt(void **s)
{
	static const u8 vecs[] = { VEC_NMI, VEC_MC };
	struct trap_frame f;

	(void)s;
	memset(taken, 0, sizeof(taken));
	idt_register(VEC_NMI, count_taken);
	idt_register(VEC_MC, count_taken);
	idt_register(0x30, count_taken);
	for (unsigned i = 0; i < sizeof(vecs); i++) {
		f = (struct trap_frame){ .vector = vecs[i],
					 .rip = AT(cpu_safe_halt_insn) };
		trap_dispatch(&f);
		assert_int_equal(f.rip, AT(cpu_safe_halt_done));
		f = (struct trap_frame){ .vector = vecs[i],
					 .rip = AT(cpu_safe_mwait_insn) };
		trap_dispatch(&f);
		assert_int_equal(f.rip, AT(cpu_safe_mwait_done));
		/* Woken from the HLT: it returns after it already. */
		f = (struct trap_frame){ .vector = vecs[i],
					 .rip = AT(cpu_safe_halt_done) };
		trap_dispatch(&f);
		assert_int_equal(f.rip, AT(cpu_safe_halt_done));
		f = (struct trap_frame){ .vector = vecs[i], .rip = 0x1000 };
		trap_dispatch(&f);
		assert_int_equal(f.rip, 0x1000);
		assert_int_equal(taken[vecs[i]], 4);
	}
	f = (struct trap_frame){ .vector = 0x30,
				 .rip = AT(cpu_safe_halt_insn) };
	trap_dispatch(&f);
	assert_int_equal(f.rip, AT(cpu_safe_halt_insn));
	assert_int_equal(taken[0x30], 1);
	idt_register(VEC_NMI, NULL);
	idt_register(VEC_MC, NULL);
	idt_register(0x30, NULL);
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
	const struct CMUnitTest tests[] = {
		T(test_unexpected_vector_in_service_is_eoid),
		T(test_not_in_service_gets_no_eoi),
		T(test_storm_is_counted_not_logged),
		T(test_exception_is_fatal),
		T(test_nmi_mc_before_safe_halt),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
