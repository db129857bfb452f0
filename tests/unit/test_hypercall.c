// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_hypercall.c - the VMMCALL ABI: every pointer+length
 * validated (null, outside, straddling the end, wrap-around, huge,
 * misaligned), unknown numbers, CPL, vCPU start/offline/online rules. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "hv/svm/exit.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

static s64 hc_on(struct vcpu *v, u64 nr, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4)
{
	fx_exit(v, VMEXIT_VMMCALL, 0, 0);
	v->vmcb->save.rax = nr;
	v->gprs.rdi = a0;
	v->gprs.rsi = a1;
	v->gprs.rdx = a2;
	v->gprs.r10 = a3;
	v->gprs.r8 = a4;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, 0x100003); /* VMMCALL is 3 bytes */
	return (s64)v->vmcb->save.rax;
}

#define HC(nr, a0, a1, a2, a3) hc_on(fx_v[0], nr, a0, a1, a2, a3, 0)

static void test_console_write(void **s)
{
	(void)s;
	fx_put(0x3000, "hello\nworld", 11);
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x3000, 11, 0, 0), 11);
	assert_true(fake_console_has("[tg] hello\n"));
	assert_false(fake_console_has("world")); /* still buffered */
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x3000, 0, 0, 0), 0);
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0, 5, 0, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x10, 5, 0, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_CONSOLE_WRITE, FX_MEM, 1, 0, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_CONSOLE_WRITE, FX_MEM - 4, 5, 0, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_CONSOLE_WRITE, FX_MEM - 5, 5, 0, 0), 5);
	assert_int_equal(HC(HC_CONSOLE_WRITE, ~0ULL - 2, 4, 0, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x3000, HC_MAX_CONSOLE_LEN + 1, 0,
			    0),
			 -HC_E2BIG);
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x3000, ~0ULL, 0, 0), -HC_E2BIG);
}

/* The console budget: bytes beyond it are dropped and counted, the flood
 * is reported once, and the tick's refill gives rate bytes per second,
 * banking at most one second's worth. */
static void test_console_budget(void **s)
{
	char line[64];

	(void)s;
	memset(line, 'x', sizeof(line));
	line[sizeof(line) - 1] = '\n';
	fx_put(0x3000, line, sizeof(line));
	fx_g->con_rate = 100;
	fx_g->con_budget = 100;
	fake_console_clear();
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x3000, 64, 0, 0), 64);
	assert_int_equal(fx_g->con_dropped, 0);
	/* 36 of these fit; the guest still sees its length returned. */
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x3000, 64, 0, 0), 64);
	assert_int_equal(fx_g->con_dropped, 28);
	assert_true(
		fake_console_has("console flood: output beyond 100 bytes/s"));
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x3000, 64, 0, 0), 64);
	assert_int_equal(fx_g->con_dropped, 92);
	fake_console_clear();
	/* Half a second at 1000 kHz: 50 bytes back, no debt carried. */
	fx_g->con_refill_tsc = 1000;
	guest_console_refill(fx_g, 1000 + 500000, 1000);
	assert_int_equal(fx_g->con_budget, 50);
	guest_console_refill(fx_g, 1000 + 500000 + 10000000, 1000);
	assert_int_equal(fx_g->con_budget, 100); /* capped at one second */
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x3000, 64, 0, 0), 64);
	assert_int_equal(fx_g->con_dropped, 92);
	assert_false(fake_console_has("console flood")); /* said once */
}

static void test_report(void **s)
{
	char big[HC_MAX_NAME_LEN + 8];

	(void)s;
	fx_put(0x4000, "boot.hello", 11);
	fx_put(0x5000, "diag text#x", 11);
	assert_int_equal(HC(HC_REPORT, 0x4000, HC_RESULT_OK, 0x5000, 9), 0);
	assert_string_equal(fx_report, "boot.hello|0|diag text");
	assert_int_equal(HC(HC_REPORT, 0x4000, HC_RESULT_SKIP, 0, 0), 0);
	assert_string_equal(fx_report, "boot.hello|2|");
	/* '#' in diagnostics cannot forge a KTAP directive. */
	assert_int_equal(HC(HC_REPORT, 0x4000, HC_RESULT_FAIL, 0x5000, 11), 0);
	assert_string_equal(fx_report, "boot.hello|1|diag text x");
	assert_int_equal(fx_reports, 3);
	/* Errors: nothing reported. */
	assert_int_equal(HC(HC_REPORT, 0, 0, 0, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_REPORT, 0x4000, 3, 0, 0), -HC_EINVAL);
	assert_int_equal(HC(HC_REPORT, 0x4000, 0, 0x5000, HC_MAX_DIAG_LEN + 1),
			 -HC_E2BIG);
	assert_int_equal(HC(HC_REPORT, 0x4000, 0, FX_MEM - 2, 4), -HC_EFAULT);
	assert_int_equal(HC(HC_REPORT, 0x4000, 0, 0, 4), -HC_EFAULT);
	memset(big, 'a', sizeof(big));
	fx_put(0x6000, big, sizeof(big)); /* no NUL within the limit */
	assert_int_equal(HC(HC_REPORT, 0x6000, 0, 0, 0), -HC_E2BIG);
	fx_put(FX_MEM - 3, "abc", 3); /* runs off the end of memory */
	assert_int_equal(HC(HC_REPORT, FX_MEM - 3, 0, 0, 0), -HC_EFAULT);
	/* One byte before the end cannot hold a name and its NUL. */
	fx_put(FX_MEM - 1, "", 1);
	assert_int_equal(HC(HC_REPORT, FX_MEM - 1, 0, 0, 0), -HC_EFAULT);
	fx_put(FX_MEM - 2, "z", 2);
	assert_int_equal(HC(HC_REPORT, FX_MEM - 2, 0, 0, 0), 0);
	fx_put(0x7000, "bad # name", 11);
	assert_int_equal(HC(HC_REPORT, 0x7000, 0, 0, 0), -HC_EINVAL);
	fx_put(0x7100, "", 1);
	assert_int_equal(HC(HC_REPORT, 0x7100, 0, 0, 0), -HC_EINVAL);
	assert_int_equal(fx_reports, 4);
}

/* Terminal control characters never reach the console or KTAP raw: the
 * one filter (guest_text_char) serves console text, diagnostics, names. */
static void test_control_chars(void **s)
{
	static const char esc[] = "a\x1b[2J\a\b\x7f\x9b\tz";

	(void)s;
	fx_put(0x4000, "name", 5);
	fx_put(0x5000, esc, sizeof(esc) - 1);
	assert_int_equal(HC(HC_REPORT, 0x4000, HC_RESULT_FAIL, 0x5000,
			    sizeof(esc) - 1),
			 0);
	assert_string_equal(fx_report, "name|1|a?[2J????\tz");
	fake_console_clear();
	assert_int_equal(HC(HC_CONSOLE_WRITE, 0x5000, sizeof(esc) - 1, 0, 0),
			 sizeof(esc) - 1);
	guest_console_flush(fx_v[0]);
	assert_true(fake_console_has("[tg] a?[2J????\tz\n"));
	assert_null(
		memchr(fake_console_text(), 0x1b, strlen(fake_console_text())));
	fx_put(0x4000, "n\x1bm", 4);
	assert_int_equal(HC(HC_REPORT, 0x4000, 0, 0, 0), -HC_EINVAL);
	fx_put(0x4000, "n\xc3\xa9", 4);
	assert_int_equal(HC(HC_REPORT, 0x4000, 0, 0, 0), -HC_EINVAL);
	assert_int_equal(guest_text_char('#', true), ' ');
	assert_int_equal(guest_text_char('#', false), '#');
	assert_int_equal(guest_text_char('\r', true), ' ');
	assert_int_equal(guest_text_char('\x1b', false), '?');
}

/* HC_TEST_PLAN records the plan once; too large a plan is refused. */
static void test_test_plan(void **s)
{
	(void)s;
	assert_int_equal(HC(HC_TEST_PLAN, GUEST_MAX_REPORTS + 1, 0, 0, 0),
			 -HC_E2BIG);
	assert_int_equal(fx_g->plan, 0);
	assert_int_equal(HC(HC_TEST_PLAN, ~0ULL, 0, 0, 0), -HC_E2BIG);
	assert_int_equal(HC(HC_TEST_PLAN, 5, 0, 0, 0), 0);
	assert_int_equal(fx_g->plan, 6);
	assert_int_equal(HC(HC_TEST_PLAN, 7, 0, 0, 0), -HC_EBUSY);
	assert_int_equal(fx_g->plan, 6);
	fx_g->plan = 0;
	assert_int_equal(HC(HC_TEST_PLAN, 0, 0, 0, 0), 0);
	assert_int_equal(fx_g->plan, 1);
}

static void test_counters(void **s)
{
	struct hc_counters c;

	(void)s;
	fx_v[1]->stats.count[EK_PAUSE] = 5;
	fx_v[1]->stats.exits = 5;
	assert_int_equal(HC(HC_GET_COUNTERS, 0x8000, sizeof(c), 0, 0),
			 sizeof(c));
	memcpy(&c, (char *)fx_g->mem_host + 0x8000, sizeof(c));
	assert_int_equal(c.vmmcall, 1);
	assert_int_equal(c.pause, 5);
	assert_int_equal(c.exits_total, 6);
	assert_int_equal(c.cpuid, 0);
	assert_int_equal(HC(HC_GET_COUNTERS, 0x8000, sizeof(c) - 1, 0, 0),
			 -HC_EINVAL);
	assert_int_equal(HC(HC_GET_COUNTERS, 0x8004, sizeof(c), 0, 0),
			 -HC_EINVAL);
	assert_int_equal(HC(HC_GET_COUNTERS, 0, sizeof(c), 0, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_GET_COUNTERS, FX_MEM - 8, sizeof(c), 0, 0),
			 -HC_EFAULT);
	/* A larger buffer is fine: only sizeof(struct) is written. */
	assert_int_equal(HC(HC_GET_COUNTERS, 0x8000, 4096, 0, 0), sizeof(c));
}

static void test_vcpu_start(void **s)
{
	(void)s;
	assert_int_equal(HC(HC_VCPU_START, 4, 0x40000, 0x8000, 0), -HC_EINVAL);
	assert_int_equal(HC(HC_VCPU_START, ~0ULL, 0x40000, 0x8000, 0),
			 -HC_EINVAL);
	assert_int_equal(HC(HC_VCPU_START, 1, 0, 0x8000, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_VCPU_START, 1, FX_MEM, 0x8000, 0), -HC_EFAULT);
	assert_int_equal(HC(HC_VCPU_START, 1, 0x40000, FX_MEM + 8, 0),
			 -HC_EFAULT);
	assert_int_equal(HC(HC_VCPU_START, 1, 0x40000, 0x8004, 0), -HC_EINVAL);
	assert_int_equal(HC(HC_VCPU_START, 0, 0x40000, 0x8000, 0), -HC_EBUSY);
	assert_int_equal(fx_launches, 0);
	assert_int_equal(HC(HC_VCPU_START, 1, 0x40040, 0x8000, 42), 0);
	assert_int_equal(fx_launches, 1);
	assert_int_equal(fx_v[1]->vmcb->save.rip, 0x40040);
	assert_int_equal(fx_v[1]->vmcb->save.rsp, 0x8000);
	assert_int_equal(fx_v[1]->gprs.rdi, 42);
	assert_int_equal(HC(HC_VCPU_START, 1, 0x40040, 0x8000, 42), -HC_EBUSY);
	fx_launch_ret = -ENOENT; /* its CPU is not online */
	assert_int_equal(HC(HC_VCPU_START, 2, 0x40040, 0x8000, 0), -HC_ENOENT);
	assert_int_equal(fx_v[2]->state, VCPU_IDLE);
}

/* Claim, then write: the target was STARTING (claimed under the lock)
 * when launched, and a caller that loses leaves its registers alone. */
static void test_vcpu_start_claim(void **s)
{
	(void)s;
	assert_int_equal(HC(HC_VCPU_START, 1, 0x40040, 0x8000, 42), 0);
	assert_int_equal(fx_launch_state, VCPU_STARTING);
	fx_v[2]->state = VCPU_STARTING; /* another caller's claim */
	fx_v[2]->vmcb->save.rip = 0x1111;
	fx_v[2]->gprs.rdi = 7;
	assert_int_equal(HC(HC_VCPU_START, 2, 0x40040, 0x8000, 42), -HC_EBUSY);
	assert_int_equal(fx_v[2]->vmcb->save.rip, 0x1111);
	assert_int_equal(fx_v[2]->gprs.rdi, 7);
	assert_int_equal(vcpu_claim_start(fx_v[1]), -HC_EBUSY); /* running */
	/* A vCPU that ended (HLT, IF=0) starts again from a fresh state,
	 * but only once its CPU has left the run loop. */
	fx_v[3]->state = VCPU_DONE;
	fx_v[3]->in_loop = true;
	assert_int_equal(HC(HC_VCPU_START, 3, 0x40040, 0x8000, 9), -HC_EBUSY);
	fx_v[3]->in_loop = false;
	fx_v[3]->gprs.rbx = 5;
	fx_v[3]->vmcb->control.event_inj = 0x80000b0e;
	assert_int_equal(HC(HC_VCPU_START, 3, 0x40080, 0x7ff0, 9), 0);
	assert_int_equal(fx_v[3]->state, VCPU_RUNNING);
	assert_int_equal(fx_v[3]->vmcb->save.rip, 0x40080);
	assert_int_equal(fx_v[3]->vmcb->save.rsp, 0x7ff0);
	assert_int_equal(fx_v[3]->gprs.rdi, 9);
	assert_int_equal(fx_v[3]->gprs.rbx, 0);
	assert_int_equal(fx_v[3]->vmcb->control.event_inj, 0);
	assert_int_equal(fx_v[3]->vmcb->control.asid, 1);
}

/* An OFFLINE whose wait ends early (brought back by a third vCPU, or the
 * time limit) says so. */
static void test_offline_bounded(void **s)
{
	(void)s;
	assert_int_equal(HC(HC_VCPU_START, 1, 0x40040, 0x8000, 0), 0);
	fx_wait_out_ret = -HC_EBUSY;
	assert_int_equal(HC(HC_VCPU_OFFLINE, 1, 0, 0, 0), -HC_EBUSY);
	assert_int_equal(fx_waits_out, 1);
}

static void test_offline_online(void **s)
{
	(void)s;
	/* Never-started vCPUs can be neither. */
	assert_int_equal(HC(HC_VCPU_OFFLINE, 1, 0, 0, 0), -HC_ENOENT);
	assert_int_equal(HC(HC_VCPU_ONLINE, 1, 0, 0, 0), -HC_ENOENT);
	assert_int_equal(HC(HC_VCPU_OFFLINE, 9, 0, 0, 0), -HC_EINVAL);
	assert_int_equal(HC(HC_VCPU_ONLINE, 1ULL << 32, 0, 0, 0), -HC_EINVAL);
	assert_int_equal(HC(HC_VCPU_START, 1, 0x40040, 0x8000, 0), 0);
	assert_int_equal(fx_g->live, 2);
	assert_int_equal(HC(HC_VCPU_ONLINE, 1, 0, 0, 0), -HC_EBUSY);
	assert_int_equal(HC(HC_VCPU_OFFLINE, 1, 0, 0, 0), 0);
	assert_int_equal(fx_v[1]->state, VCPU_OFFLINE);
	assert_int_equal(fx_g->live, 1);
	assert_int_equal(fx_kicks, 1);
	/* Synchronous: vCPU 0 waited until vCPU 1 left guest mode. */
	assert_int_equal(fx_waits_out, 1);
	assert_int_equal(fx_v[1]->stats.offlines, 1);
	assert_int_equal(HC(HC_VCPU_OFFLINE, 1, 0, 0, 0), 0); /* idempotent */
	assert_int_equal(fx_v[1]->stats.offlines, 1); /* no new transition */
	assert_int_equal(HC(HC_VCPU_ONLINE, 1, 0, 0, 0), 0);
	assert_int_equal(fx_v[1]->state, VCPU_RUNNING);
	assert_int_equal(fx_g->live, 2);
	/* vCPU 1 takes itself offline; then vCPU 0 does: nobody is left. */
	fx_waits_out = 0;
	assert_int_equal(hc_on(fx_v[1], HC_VCPU_OFFLINE, 1, 0, 0, 0, 0), 0);
	assert_int_equal(fx_waits_out, 0); /* never waits for itself */
	assert_false(fx_g->stopping);
	assert_int_equal(HC(HC_VCPU_OFFLINE, 0, 0, 0, 0), 0);
	assert_true(fx_g->stopping);
	assert_non_null(strstr(fx_g->stop_reason, "offline"));
}

static void test_exit_info_unknown(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	assert_int_equal(HC(HC_VCPU_INFO, 0, 0, 0, 0), (s64)FX_VCPUS << 32);
	assert_int_equal(hc_on(fx_v[3], HC_VCPU_INFO, 0, 0, 0, 0, 0),
			 3 | ((s64)FX_VCPUS << 32));
	assert_int_equal(HC(0, 0, 0, 0, 0), -HC_ENOSYS);
	assert_int_equal(HC(HC_NR, 0, 0, 0, 0), -HC_ENOSYS);
	assert_int_equal(HC(~0ULL, 0, 0, 0, 0), -HC_ENOSYS);
	/* Only CPL 0 may call. */
	v->vmcb->save.cpl = 3;
	assert_int_equal(HC(HC_VCPU_INFO, 0, 0, 0, 0), -HC_EPERM);
	v->vmcb->save.cpl = 0;
	/* HC_EXIT ends the guest with its status and leaves the loop. */
	fx_exit(v, VMEXIT_VMMCALL, 0, 0);
	v->vmcb->save.rax = HC_EXIT;
	v->gprs.rdi = 7;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_true(fx_g->stopping);
	assert_false(fx_g->failed);
	assert_int_equal(fx_g->exit_status, 7);
	assert_true(fake_console_has("guest tg stopped: exited with status 7"));
}

/* VMMCALL completes like every instruction minhv carries out: with
 * RFLAGS.TF the single-step #DB after it (RIP past it, DR6.BS set, B0-B3
 * clear), and the interrupt shadow before it is over; on the table path,
 * on the error path and with NRIP alike. HC_EXIT does not return. */
static void test_single_step_shadow(void **s)
{
	const u64 db = VEC_DB | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID;
	struct vcpu *v = fx_v[0];
	struct vmcb *vm = v->vmcb;

	(void)s;
	vm->save.rflags = 0x302; /* TF, IF */
	vm->save.dr6 = 0xffff0ff2; /* B1 from an earlier breakpoint */
	vm->control.int_shadow = INT_SHADOW;
	vm->control.clean = VMCB_CLEAN_ALL;
	assert_int_equal(HC(HC_VCPU_INFO, 0, 0, 0, 0), (s64)FX_VCPUS << 32);
	assert_int_equal(vm->control.event_inj, db);
	assert_int_equal(vm->save.dr6, 0xffff4ff0);
	assert_int_equal(vm->control.clean & VMCB_CLEAN_DRX, 0);
	assert_int_equal(vm->control.int_shadow, 0);
	/* An unknown number: the error, and the trap all the same. */
	vm->control.int_shadow = INT_SHADOW;
	assert_int_equal(HC(~0ULL, 0, 0, 0, 0), -HC_ENOSYS);
	assert_int_equal(vm->control.event_inj, db);
	assert_int_equal(vm->control.int_shadow, 0);
	/* NRIP when the CPU wrote it. */
	g_features.nrips = true;
	fx_exit(v, VMEXIT_VMMCALL, 0, 0);
	vm->save.rax = HC_VCPU_INFO;
	vm->control.next_rip = FX_RIP + 7;
	vm->control.int_shadow = INT_SHADOW;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->save.rip, FX_RIP + 7);
	assert_int_equal(vm->control.event_inj, db);
	assert_int_equal(vm->control.int_shadow, 0);
	g_features.nrips = false;
	vm->control.next_rip = 0;
	/* TF clear: no trap. */
	vm->save.rflags = 0x202;
	vm->save.dr6 = 0xffff0ff0;
	assert_int_equal(HC(HC_VCPU_INFO, 0, 0, 0, 0), (s64)FX_VCPUS << 32);
	assert_int_equal(vm->control.event_inj, 0);
	assert_int_equal(vm->save.dr6, 0xffff0ff0);
	/* HC_EXIT leaves: RIP stays, nothing injected. */
	vm->save.rflags = 0x302;
	fx_exit(v, VMEXIT_VMMCALL, 0, 0);
	vm->save.rax = HC_EXIT;
	v->gprs.rdi = 0;
	assert_int_equal(exit_dispatch(v), EXIT_LEAVE);
	assert_int_equal(vm->save.rip, FX_RIP);
	assert_int_equal(vm->control.event_inj, 0);
}

int main(void)
{
#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_console_write),
		T(test_console_budget),
		T(test_report),
		T(test_counters),
		T(test_vcpu_start),
		T(test_offline_online),
		T(test_exit_info_unknown),
		T(test_control_chars),
		T(test_test_plan),
		T(test_vcpu_start_claim),
		T(test_offline_bounded),
		T(test_single_step_shadow),
	};
	return cmocka_run_group_tests_name("hypercall", tests, NULL, NULL);
}
