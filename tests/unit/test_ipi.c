// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_ipi.c - cross-CPU calls and raw IPIs (hv/smp/ipi.c) with one
 * host thread per fake CPU and a fake APIC that turns an ICR write into a
 * "pending IPI" flag the target thread services: waits, broadcasts, full
 * rings, APIC IDs above 255, NMI accounting. */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/apic.h"
#include "hv/ras/ras.h"
#include "arch/idt.h"
#include "arch/msr.h"
#include "hv/smp/ipi_internal.h"
#include "hv/mm.h"
#include "hv/percpu.h"
#include "tests/doubles/fake_cpu.h"

#define NCPU 4
static const u32 apic_ids[NCPU] = { 0, 255, 300, 70000 };

/* --- doubles for what ipi.c uses outside itself --- */
static trap_handler_t handlers[256];
static jmp_buf *fatal_jb;
static const char *fatal_why;

void idt_register(u8 vector, trap_handler_t h)
{
	handlers[vector] = h;
}

_Noreturn void trap_fatal(struct trap_frame *f, const char *why)
{
	(void)f;
	fatal_why = why;
	if (fatal_jb)
		longjmp(*fatal_jb, 1);
	fail_msg("trap_fatal: %s", why);
	abort();
}

/* hv/ras: an NMI nobody announced is counted there, not fatal. */
static u32 unknown_nmis;
void ras_nmi_unknown(const struct trap_frame *f)
{
	(void)f;
	unknown_nmis++;
}

void *page_alloc_ptr(u64 npages)
{
	return calloc(npages, PAGE_SIZE);
}

/* --- fake APIC: records every ICR, marks IPIs pending on the target --- */
static volatile u32 pend_call[NCPU], pend_nmi[NCPU];
static volatile u32 sends, shorthand_sends;
static u32 last_dest;
static pthread_mutex_t send_mu = PTHREAD_MUTEX_INITIALIZER;

static int cpu_of_apic(u32 id)
{
	for (int i = 0; i < NCPU; i++)
		if (apic_ids[i] == id)
			return i;
	return -1;
}

static void mark(int cpu, const struct apic_icr *r)
{
	if (r->dm == APIC_DM_NMI)
		__atomic_add_fetch(&pend_nmi[cpu], 1, __ATOMIC_RELEASE);
	else if (r->vector == VEC_IPI_CALL)
		__atomic_add_fetch(&pend_call[cpu], 1, __ATOMIC_RELEASE);
}

static int f_send(const struct apic_icr *r)
{
	u64 icr;
	int self = (int)fake_cpu_current();

	/* what x2APIC would write: the full 32-bit destination */
	assert_int_equal(apic_icr_encode_x2apic(r, &icr), 0);
	pthread_mutex_lock(&send_mu);
	sends++;
	if (r->sh == APIC_SH_OTHERS) {
		shorthand_sends++;
		for (int i = 0; i < NCPU; i++)
			if (i != self)
				mark(i, r);
	} else {
		int c = cpu_of_apic((u32)(icr >> 32));

		last_dest = (u32)(icr >> 32);
		assert_true(c >= 0);
		mark(c, r);
	}
	pthread_mutex_unlock(&send_mu);
	return 0;
}

static void f_eoi(void)
{
}

static const struct apic_ops fake_ops = { .name = "fake",
					  .send = f_send,
					  .eoi = f_eoi };
const struct apic_ops *g_apic = &fake_ops;

/* --- fake CPUs --- */
static struct percpu pcs[NCPU];
static struct percpu *pcs_ptr[NCPU];
static pthread_t threads[NCPU];
static volatile bool stop_threads;

/* Take pending interrupts, as the CPU would between instructions. */
static void service(int cpu)
{
	struct trap_frame f = { 0 };

	while (__atomic_load_n(&pend_nmi[cpu], __ATOMIC_ACQUIRE)) {
		__atomic_sub_fetch(&pend_nmi[cpu], 1, __ATOMIC_ACQ_REL);
		f.vector = VEC_NMI;
		handlers[VEC_NMI](&f);
	}
	if (__atomic_exchange_n(&pend_call[cpu], 0, __ATOMIC_ACQ_REL)) {
		f.vector = VEC_IPI_CALL;
		handlers[VEC_IPI_CALL](&f);
	}
}

static void *cpu_thread(void *arg)
{
	int cpu = (int)(intptr_t)arg;

	fake_cpu_select((unsigned)cpu);
	percpu_install(&pcs[cpu]);
	while (!__atomic_load_n(&stop_threads, __ATOMIC_ACQUIRE)) {
		service(cpu);
		sched_yield();
	}
	return NULL;
}

static void *idle_thread(void *arg)
{
	(void)arg;
	while (!__atomic_load_n(&stop_threads, __ATOMIC_ACQUIRE))
		sched_yield();
	return NULL;
}

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_trace_enable(false);
	fake_msr_define(MSR_GS_BASE, 0);
	memset(pcs, 0, sizeof(pcs));
	memset((void *)pend_call, 0, sizeof(pend_call));
	memset((void *)pend_nmi, 0, sizeof(pend_nmi));
	sends = shorthand_sends = 0;
	for (int i = 0; i < NCPU; i++) {
		pcs[i].cpu = (u32)i;
		pcs[i].apic_id = apic_ids[i];
		pcs[i].online = 1;
		assert_true(ipi_cpu_alloc(&pcs[i]));
		pcs_ptr[i] = &pcs[i];
	}
	g_percpu = pcs_ptr;
	g_ncpus = NCPU;
	ipi_init();
	ipi_set_broadcast_ok(false);
	fake_cpu_select(0);
	percpu_install(&pcs[0]);
	stop_threads = false;
	for (int i = 1; i < NCPU; i++)
		pthread_create(&threads[i], NULL, cpu_thread,
			       (void *)(intptr_t)i);
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	__atomic_store_n(&stop_threads, true, __ATOMIC_RELEASE);
	for (int i = 1; i < NCPU; i++)
		pthread_join(threads[i], NULL);
	for (int i = 0; i < NCPU; i++)
		free(pcs[i].smp);
	return 0;
}

struct rec {
	u32 ran_on[NCPU];
	u32 count;
	u32 sends_seen_by_self;
};

static void record(void *arg)
{
	struct rec *r = arg;

	__atomic_add_fetch(&r->ran_on[ipi_this_cpu()], 1, __ATOMIC_RELAXED);
	__atomic_add_fetch(&r->count, 1, __ATOMIC_RELEASE);
	if (ipi_this_cpu() == 0)
		r->sends_seen_by_self = sends;
}

static void test_call_on_wait_runs_there(void **s)
{
	struct rec r = { 0 };

	(void)s;
	for (u32 c = 0; c < NCPU; c++)
		assert_int_equal(ipi_call_on(c, record, &r, true), 0);
	/* with wait, each had run before ipi_call_on returned */
	for (u32 c = 0; c < NCPU; c++)
		assert_int_equal(r.ran_on[c], 1);
	/* the call to ourselves ran inline, without an IPI */
	assert_int_equal(sends, NCPU - 1);
	/* 32-bit destinations: the last one was APIC ID 70000 */
	assert_int_equal(last_dest, 70000);
}

static void test_call_on_offline_refused(void **s)
{
	struct rec r = { 0 };

	(void)s;
	pcs[2].online = 0;
	assert_true(ipi_call_on(2, record, &r, true) < 0);
	assert_true(ipi_call_on(NCPU, record, &r, true) < 0);
	assert_int_equal(r.count, 0);
	assert_int_equal(sends, 0);
	assert_int_equal(ipi_online_count(), NCPU - 1);
}

static void test_call_all_wait(void **s)
{
	struct rec r = { 0 };

	(void)s;
	assert_int_equal(ipi_call_all(record, &r, true, true), NCPU);
	assert_int_equal(r.count, NCPU);
	for (u32 c = 0; c < NCPU; c++)
		assert_int_equal(r.ran_on[c], 1);
	/* the caller's own call ran after the others were kicked */
	assert_int_equal(r.sends_seen_by_self, NCPU - 1);
	/* without broadcast permission: one unicast per CPU */
	assert_int_equal(shorthand_sends, 0);

	memset(&r, 0, sizeof(r));
	assert_int_equal(ipi_call_all(record, &r, true, false), NCPU - 1);
	assert_int_equal(r.ran_on[0], 0);
	assert_int_equal(r.count, NCPU - 1);
}

static void test_call_all_broadcast_and_skips_offline(void **s)
{
	struct rec r = { 0 };

	(void)s;
	ipi_set_broadcast_ok(true);
	assert_int_equal(ipi_call_all(record, &r, true, false), NCPU - 1);
	assert_int_equal(shorthand_sends, 1);
	assert_int_equal(sends, 1);

	/* an offline CPU gets neither the call nor an IPI */
	ipi_set_broadcast_ok(false);
	pcs[3].online = 0;
	memset(&r, 0, sizeof(r));
	sends = 0;
	assert_int_equal(ipi_call_all(record, &r, true, true), NCPU - 1);
	assert_int_equal(r.ran_on[3], 0);
	assert_int_equal(sends, NCPU - 2);
}

static void test_call_all_nowait_completes(void **s)
{
	static struct rec r;

	(void)s;
	memset(&r, 0, sizeof(r));
	assert_int_equal(ipi_call_all(record, &r, false, false), NCPU - 1);
	while (__atomic_load_n(&r.count, __ATOMIC_ACQUIRE) < NCPU - 1)
		sched_yield();
	assert_int_equal(r.ran_on[0], 0);
}

/* Two CPUs flood each other's rings (far more than CALLQ_SLOTS) while
 * neither takes interrupts: spinning senders must serve their own ring. */
struct flood {
	u32 target, n;
	u32 pending;
	volatile u32 *hits;
};

static void hit(void *arg)
{
	__atomic_add_fetch((volatile u32 *)arg, 1, __ATOMIC_RELAXED);
}

static void do_flood(struct flood *f)
{
	for (u32 i = 0; i < f->n; i++) {
		__atomic_add_fetch(&f->pending, 1, __ATOMIC_RELAXED);
		ipi_call_enqueue(f->target, hit, (void *)f->hits, &f->pending);
	}
	ipi_call_wait(&f->pending);
}

static volatile u32 flooder_done, main_done;

static void *flooder(void *arg)
{
	fake_cpu_select(1);
	percpu_install(&pcs[1]);
	do_flood(arg);
	__atomic_store_n(&flooder_done, 1, __ATOMIC_RELEASE);
	/* no IPIs here: keep serving CPU 1's ring until CPU 0 is done */
	while (!__atomic_load_n(&main_done, __ATOMIC_ACQUIRE))
		ipi_call_poll();
	return NULL;
}

static void test_full_rings_no_deadlock(void **s)
{
	static volatile u32 hits0, hits1;
	struct flood a = { .target = 1, .n = 20 * CALLQ_SLOTS, .hits = &hits1 };
	struct flood b = { .target = 0, .n = 20 * CALLQ_SLOTS, .hits = &hits0 };
	pthread_t t;

	(void)s;
	/* CPU 1's service thread is stopped: it only floods */
	__atomic_store_n(&stop_threads, true, __ATOMIC_RELEASE);
	for (int i = 1; i < NCPU; i++)
		pthread_join(threads[i], NULL);
	hits0 = hits1 = 0;
	flooder_done = main_done = 0;
	pthread_create(&t, NULL, flooder, &b);
	do_flood(&a);
	__atomic_store_n(&main_done, 1, __ATOMIC_RELEASE);
	/* likewise for CPU 0's ring */
	while (!__atomic_load_n(&flooder_done, __ATOMIC_ACQUIRE))
		ipi_call_poll();
	pthread_join(t, NULL);
	assert_int_equal(hits0, 20 * CALLQ_SLOTS);
	assert_int_equal(hits1, 20 * CALLQ_SLOTS);
	stop_threads = false;
	for (int i = 1; i < NCPU; i++)
		pthread_create(&threads[i], NULL, cpu_thread,
			       (void *)(intptr_t)i);
}

static void test_nmi_accounting(void **s)
{
	struct smp_cpu *t = pcs[2].smp;
	struct trap_frame f = { .vector = VEC_NMI };
	jmp_buf jb;

	(void)s;
	assert_int_equal(ipi_nmi(2), 0);
	assert_int_equal(last_dest, 300);
	while (__atomic_load_n(&t->nmi_seen, __ATOMIC_ACQUIRE) < 1)
		sched_yield();
	assert_int_equal(t->nmi_sent, 1);
	assert_null(fatal_why);

	assert_int_equal(unknown_nmis, 0);

	/* an NMI nobody announced goes to hv/ras, and is not fatal */
	fatal_jb = &jb;
	if (!setjmp(jb))
		handlers[VEC_NMI](&f);
	else
		fail_msg("an unexpected NMI was fatal: %s", fatal_why);
	fatal_jb = NULL;
	assert_null(fatal_why);
	assert_int_equal(unknown_nmis, 1);
	/* ... and the accounting of announced ones is untouched */
	assert_int_equal(t->nmi_seen, 1);
}

/* Runs last: afterwards every NMI means "stop". */
static void test_stop_others_only_owned_cpus(void **s)
{
	(void)s;
	/* park the fake CPUs so nobody takes the NMIs (cpu_dead) */
	__atomic_store_n(&stop_threads, true, __ATOMIC_RELEASE);
	for (int i = 1; i < NCPU; i++)
		pthread_join(threads[i], NULL);
	pcs[3].online = 0; /* left out at bring-up */
	ipi_stop_others();
	assert_int_equal(shorthand_sends, 0);
	assert_int_equal(pend_nmi[1], 1);
	assert_int_equal(pend_nmi[2], 1);
	assert_int_equal(pend_nmi[3], 0);
	assert_int_equal(pend_nmi[0], 0);

	/* everybody present and online: one all-but-self NMI */
	ipi_set_broadcast_ok(true);
	ipi_stop_others();
	assert_int_equal(shorthand_sends, 1);
	stop_threads = false;
	for (int i = 1; i < NCPU; i++)
		pthread_create(&threads[i], NULL, idle_thread,
			       (void *)(intptr_t)i);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_call_on_wait_runs_there,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_call_on_offline_refused,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_call_all_wait, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_call_all_broadcast_and_skips_offline, setup,
			teardown),
		cmocka_unit_test_setup_teardown(test_call_all_nowait_completes,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_rings_no_deadlock,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_nmi_accounting, setup,
						teardown),
		cmocka_unit_test_setup_teardown(
			test_stop_others_only_owned_cpus, setup, teardown),
	};

	return cmocka_run_group_tests_name("ipi", tests, NULL, NULL);
}
