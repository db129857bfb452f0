// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_park.c - parking: the exact SPEC_CTRL writes on park and
 * on wake for each enumeration, their order against everything else (fake
 * CPU trace), park/wake cycles, wake-ups, posted work and the summary. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/park/internal.h"
#include "hv/park/spec_ctrl.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/park_fakes.h"

#define SPEC_ALL (AMD8_IBRS | AMD8_STIBP | AMD8_SSBD)
#define PCPU 1 /* the fake CPU that parks */

/* What the CPU sees while it waits, driven from fake_halt_hook. */
enum wake_kind { WAKE_IRQ, WAKE_STORE };
static volatile u32 ready;
static enum wake_kind wake_kind;
static unsigned halts, wake_at;
static u64 msr_at_halt[16], msr_in_handler[16];
static bool parked_in_handler[16];
static void (*in_handler)(void);

static u64 spec_msr(void)
{
	return fake_msr_exists(PCPU, MSR_SPEC_CTRL) ?
		       fake_msr_read(PCPU, MSR_SPEC_CTRL) :
		       ~0ULL;
}

/* An interrupt: arch/idt.c trap_dispatch() calls park_irq_enter() first,
 * then the handler (a cross-call, a wake IPI), traced as "outb 0x80 n". */
static void halt_hook(void)
{
	unsigned n = halts++;

	assert_true(n < 16);
	msr_at_halt[n] = spec_msr();
	if (n + 1 == wake_at)
		ready = 1;
	if (wake_kind == WAKE_STORE) {
		park_wake(PCPU);
		return;
	}
	park_irq_enter();
	outb(0x80, (u8)(n + 1));
	msr_in_handler[n] = spec_msr();
	parked_in_handler[n] = park_is_parked(PCPU);
	if (in_handler)
		in_handler();
}

static void boot(u32 amd8, u32 amd21, bool snp, bool mwait)
{
	pf_reset();
	fake_msr_define(MSR_EFER, EFER_LME | EFER_LMA);
	if (amd8)
		fake_msr_define(MSR_SPEC_CTRL, 0);
	pf_cpuid_amd(amd8, amd21, 0);
	if (mwait)
		fake_cpuid_or(1, 0, 2, 1u << 3); /* MONITOR */
	pf_boot_spec(snp);
	assert_int_equal(park_init(mwait), 0);
	fake_cpu_select(PCPU);
	fake_trace_clear();
	fake_console_clear();
	fake_halt_hook = halt_hook;
	ready = 0;
	halts = 0;
	wake_at = 1;
	wake_kind = WAKE_IRQ;
	in_handler = NULL;
	memset(msr_at_halt, 0xff, sizeof(msr_at_halt));
	memset(msr_in_handler, 0xff, sizeof(msr_in_handler));
}

static unsigned total_wrmsr(void)
{
	unsigned n = 0;

	for (unsigned i = 0; i < FAKE_NCPUS; i++)
		n += fake_cpus[i].wrmsr_count;
	return n;
}

/* IBRS enumerated, no AutoIBRS: 0 while parked, 0x1 restored by the
 * interrupt entry before the handler runs. */
static void test_ibrs_park_and_wake_writes(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, false);
	park_until(PARK_VCPU_OFFLINE, &ready);
	assert_string_equal(fake_trace(), "cpu1: cli\n"
					  "cpu1: wrmsr 0x48 0\n"
					  "cpu1: sti;hlt\n"
					  "cpu1: wrmsr 0x48 0x1\n"
					  "cpu1: outb 0x80 0x1\n"
					  "cpu1: cli\n");
	assert_int_equal(msr_at_halt[0], 0);
	assert_int_equal(msr_in_handler[0], SPEC_CTRL_IBRS);
	assert_int_equal(spec_msr(), SPEC_CTRL_IBRS);
	assert_false(park_is_parked(PCPU));
}

/* The restore is the first thing on the woken CPU: the line right after
 * the HLT, before the handler and before anything of park_until(). */
static void test_restore_first_after_interrupt(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, false);
	park_until(PARK_IDLE, &ready);
	assert_int_equal(fake_trace_find("wrmsr 0x48 0x1"),
			 fake_trace_find("sti;hlt") + 1);
	assert_true(fake_trace_find("outb 0x80") >
		    fake_trace_find("wrmsr 0x48 0x1"));
}

/* MWAIT woken by a store to the monitored line (no interrupt, so no
 * park_irq_enter()): park_until() itself restores first. */
static void test_restore_first_after_mwait_store(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, true);
	assert_true(park_uses_mwait());
	wake_kind = WAKE_STORE;
	park_until(PARK_IDLE, &ready);
	assert_string_equal(fake_trace(), "cpu1: cli\n"
					  "cpu1: monitor\n"
					  "cpu1: wrmsr 0x48 0\n"
					  "cpu1: sti;mwait 0\n"
					  "cpu1: wrmsr 0x48 0x1\n"
					  "cpu1: cli\n"
					  "cpu1: monitor\n");
	assert_int_equal(pf_ncalls, 0); /* the store woke it: no IPI */
}

static void test_no_ibrs_no_write_at_all(void **s)
{
	(void)s;
	boot(0, 0, false, false); /* QEMU TCG: SPEC_CTRL undefined */
	wake_at = 3;
	park_until(PARK_IDLE, &ready);
	assert_int_equal(total_wrmsr(), 0);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	assert_int_equal(halts, 3);
	park_print_summary();
	assert_true(fake_console_has(
		"SPEC_CTRL: no SPEC_CTRL write needed: IBRS not enumerated by CPUID"));
}

static void test_auto_ibrs_no_change_logged(void **s)
{
	(void)s;
	boot(SPEC_ALL, AMD21_AUTOIBRS, false, false);
	wake_at = 2;
	park_until(PARK_IDLE, &ready);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	assert_int_equal(spec_msr(), 0);
	assert_true(fake_msr_read(PCPU, MSR_EFER) & EFER_AUTOIBRS);
	spec_policy_log(&g_spec_policy);
	park_print_summary();
	assert_true(fake_console_has(
		"spec: parking: no SPEC_CTRL change needed: AutoIBRS in use"));
	assert_true(fake_console_has(
		"SPEC_CTRL: no SPEC_CTRL change needed: AutoIBRS in use"));
}

static void test_snp_with_auto_ibrs_uses_ibrs_policy(void **s)
{
	(void)s;
	boot(SPEC_ALL, AMD21_AUTOIBRS, true, false);
	park_until(PARK_IDLE, &ready);
	assert_int_equal(fake_trace_count("wrmsr 0x48 0\n"), 1);
	assert_int_equal(fake_trace_count("wrmsr 0x48 0x1\n"), 1);
	assert_int_equal(msr_at_halt[0], 0);
	assert_int_equal(spec_msr(), SPEC_CTRL_IBRS);
	assert_false(fake_msr_read(PCPU, MSR_EFER) & EFER_AUTOIBRS);
}

/* A base with SSBD keeps SSBD while parked. */
static void test_ssbd_kept_while_parked(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, false);
	g_spec_policy.base = SPEC_CTRL_IBRS | SPEC_CTRL_SSBD;
	g_spec_policy.park_val = spec_park_value(g_spec_policy.base);
	g_percpu[PCPU]->spec_ctrl_base = g_spec_policy.base;
	park_until(PARK_IDLE, &ready);
	assert_int_equal(msr_at_halt[0], SPEC_CTRL_SSBD);
	assert_int_equal(msr_in_handler[0], SPEC_CTRL_IBRS | SPEC_CTRL_SSBD);
	assert_true(fake_trace_count("wrmsr 0x48 0x4\n") == 1);
	assert_true(fake_trace_count("wrmsr 0x48 0x5\n") == 1);
}

/* Cross-calls while parked: each runs with the base value, and the CPU
 * goes back to parked with IBRS cleared again, every time. */
static void test_cycles_leave_msr_right(void **s)
{
	struct park_stats st;

	(void)s;
	boot(SPEC_ALL, 0, false, false);
	wake_at = 5;
	park_until(PARK_VCPU_OFFLINE, &ready);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(msr_at_halt[i], 0);
		assert_int_equal(msr_in_handler[i], SPEC_CTRL_IBRS);
		assert_true(parked_in_handler[i]);
	}
	assert_int_equal(spec_msr(), SPEC_CTRL_IBRS);
	park_get_stats(PCPU, &st);
	assert_int_equal(st.parks, 1);
	assert_int_equal(st.sleeps, 5);
	assert_int_equal(st.irqs, 5);
	assert_int_equal(st.spec_writes, 10);
	assert_int_equal(fake_trace_count("wrmsr 0x48 0\n"), 5);
	assert_int_equal(fake_trace_count("wrmsr 0x48 0x1\n"), 5);

	/* Online again, offline again: the same sequence once more. */
	ready = 0;
	halts = 0;
	wake_at = 2;
	park_until(PARK_VCPU_OFFLINE, &ready);
	assert_int_equal(msr_at_halt[0], 0);
	assert_int_equal(msr_at_halt[1], 0);
	assert_int_equal(spec_msr(), SPEC_CTRL_IBRS);
	park_get_stats(PCPU, &st);
	assert_int_equal(st.parks, 2);
	assert_int_equal(st.sleeps, 7);
}

/* An NMI between "lowered" and the WRMSR of the park value restores the
 * base and clears the flag; parking must lower again, or the next wake
 * would find the flag clear and run its handler with IBRS off. */
static unsigned nmis;
static void nmi_before_wrmsr(u32 msr, u64 val)
{
	if (msr == MSR_SPEC_CTRL && val == 0 && nmis++ == 0)
		park_irq_enter();
}

static void test_nmi_while_lowering(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, false);
	nmis = 0;
	fake_wrmsr_hook = nmi_before_wrmsr;
	park_until(PARK_IDLE, &ready);
	assert_int_equal(nmis, 2);
	assert_int_equal(msr_at_halt[0], 0);
	assert_int_equal(msr_in_handler[0], SPEC_CTRL_IBRS);
	assert_string_equal(fake_trace(), "cpu1: cli\n"
					  "cpu1: wrmsr 0x48 0x1\n"
					  "cpu1: wrmsr 0x48 0\n"
					  "cpu1: wrmsr 0x48 0\n"
					  "cpu1: sti;hlt\n"
					  "cpu1: wrmsr 0x48 0x1\n"
					  "cpu1: outb 0x80 0x1\n"
					  "cpu1: cli\n");
}

static void test_ready_before_park_no_wait(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, false);
	ready = 1;
	park_until(PARK_IDLE, &ready);
	assert_string_equal(fake_trace(), "cpu1: cli\n");
	assert_int_equal(halts, 0);
}

static void test_interrupt_flag_restored(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, false);
	fake_cpus[PCPU].irq_enabled = true;
	park_until(PARK_IDLE, &ready);
	assert_true(fake_cpus[PCPU].irq_enabled);
	assert_int_equal(fake_trace_find("cpu1: sti\n"), 6); /* last */
	fake_cpus[PCPU].irq_enabled = false;
	fake_trace_clear();
	halts = 0;
	ready = 0;
	park_until(PARK_IDLE, &ready);
	assert_false(fake_cpus[PCPU].irq_enabled);
}

/* An interrupt on a CPU that is not parked leaves SPEC_CTRL alone. */
static void test_irq_on_running_cpu_no_write(void **s)
{
	struct park_stats st;

	(void)s;
	boot(SPEC_ALL, 0, false, false);
	park_irq_enter();
	assert_string_equal(fake_trace(), "");
	park_get_stats(PCPU, &st);
	assert_int_equal(st.irqs, 0);
}

static int wake_ret; /* what park_wake() returned in the handler */

static void wake_from_cpu0(void)
{
	fake_cpu_select(0);
	wake_ret = park_wake(PCPU);
	fake_cpu_select(PCPU);
}

static void test_wake_hlt_sends_ipi_only_when_parked(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, false);
	fake_cpu_select(0);
	assert_int_equal(park_wake(PCPU), 0); /* not parked: no IPI */
	assert_int_equal(park_wake(0), 0); /* itself: no IPI */
	assert_int_equal(park_wake(PF_NCPUS), -22);
	assert_int_equal(pf_ncalls, 0);
	fake_cpu_select(PCPU);
	in_handler = wake_from_cpu0;
	park_until(PARK_IDLE, &ready);
	assert_int_equal(wake_ret, 1); /* parked in HLT: the IPI went out */
	assert_int_equal(pf_ncalls, 1);
	assert_int_equal(pf_calls[0].from, 0);
	assert_int_equal(pf_calls[0].cpu, PCPU);
	assert_false(pf_calls[0].wait);
	assert_non_null(pf_calls[0].fn);
}

static void test_wake_mwait_is_a_store(void **s)
{
	u32 k;

	(void)s;
	boot(SPEC_ALL, 0, false, true);
	k = g_park_cpus[PCPU].kick;
	in_handler = wake_from_cpu0;
	park_until(PARK_IDLE, &ready);
	assert_int_equal(wake_ret, 0); /* MWAIT: no IPI */
	assert_int_equal(pf_ncalls, 0);
	assert_int_equal(g_park_cpus[PCPU].kick, k + 1);
}

static int work_ran;
static void work(void *arg)
{
	work_ran += *(int *)arg;
	/* Posted work runs with the base value, not the park value. */
	assert_int_equal(spec_msr(), SPEC_CTRL_IBRS);
	assert_false(park_is_parked(PCPU));
}

static int one = 1;
static void post_from_cpu0(void)
{
	fake_cpu_select(0);
	assert_int_equal(park_post(PCPU, work, &one), 0);
	assert_int_equal(park_post(PCPU, work, &one), -16);
	fake_cpu_select(PCPU);
}

static void test_post_runs_work_then_parks_again(void **s)
{
	struct park_stats st;

	(void)s;
	boot(SPEC_ALL, 0, false, false);
	wake_at = 0; /* only the posted work wakes it */
	in_handler = post_from_cpu0;
	work_ran = 0;
	park_run_one();
	assert_int_equal(work_ran, 1);
	assert_int_equal(pf_ncalls, 1); /* the wake IPI */
	assert_int_equal(halts, 1);
	park_get_stats(PCPU, &st);
	assert_int_equal(st.work, 1);
	/* The slot is free again; the next turn parks with IBRS cleared. */
	in_handler = NULL;
	fake_cpu_select(0);
	assert_int_equal(park_post(PCPU, work, &one), 0);
	assert_int_equal(park_post(PF_NCPUS, work, &one), -22);
	fake_cpu_select(PCPU);
	park_run_one(); /* already posted: runs without waiting */
	assert_int_equal(work_ran, 2);
	assert_int_equal(halts, 1);
}

static void print_summary(void)
{
	park_print_summary();
}

static void test_summary(void **s)
{
	(void)s;
	boot(SPEC_ALL, 0, false, false);
	in_handler = print_summary;
	park_until(PARK_VCPU_OFFLINE, &ready);
	assert_true(fake_console_has(
		"park: 1 of 4 CPUs parked, waiting with HLT; SPEC_CTRL: kernel-mode IBRS"));
	assert_true(fake_console_has(
		"park: cpu1 parked (its vCPU is offline): parks 1, park/wake cycles 1, interrupts while parked 1, SPEC_CTRL writes 2, work 0"));
	assert_true(fake_console_has("park: cpu0 running: parks 0"));
	assert_int_equal(park_reason_of(PCPU), PARK_RUNNING);
}

static void test_mwait_option_without_monitor(void **s)
{
	(void)s;
	pf_reset();
	fake_msr_define(MSR_EFER, 0);
	pf_cpuid_amd(0, 0, 0);
	pf_boot_spec(false);
	assert_int_equal(park_init(true), 0);
	assert_false(park_uses_mwait());
	assert_true(fake_console_has(
		"park=mwait asked, but CPUID.1:ECX[3] MONITOR is absent"));
}

int main(void)
{
	const struct CMUnitTest t[] = {
		cmocka_unit_test(test_ibrs_park_and_wake_writes),
		cmocka_unit_test(test_restore_first_after_interrupt),
		cmocka_unit_test(test_restore_first_after_mwait_store),
		cmocka_unit_test(test_no_ibrs_no_write_at_all),
		cmocka_unit_test(test_auto_ibrs_no_change_logged),
		cmocka_unit_test(test_snp_with_auto_ibrs_uses_ibrs_policy),
		cmocka_unit_test(test_ssbd_kept_while_parked),
		cmocka_unit_test(test_cycles_leave_msr_right),
		cmocka_unit_test(test_nmi_while_lowering),
		cmocka_unit_test(test_ready_before_park_no_wait),
		cmocka_unit_test(test_interrupt_flag_restored),
		cmocka_unit_test(test_irq_on_running_cpu_no_write),
		cmocka_unit_test(test_wake_hlt_sends_ipi_only_when_parked),
		cmocka_unit_test(test_wake_mwait_is_a_store),
		cmocka_unit_test(test_post_runs_work_then_parks_again),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_mwait_option_without_monitor),
	};

	return cmocka_run_group_tests_name("park", t, NULL, NULL);
}
