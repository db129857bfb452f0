// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/fake_smp_pthread.c - hv/smp/ipi.h on pthreads, one per fake CPU. */
#include "tests/doubles/fake_smp_pthread.h"
#include "hv/smp/ipi.h"
#include "tests/doubles/fake_cpu.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

static u32 online = 1;
static bool absent[FAKE_NCPUS];
static u32 calls;

struct job {
	unsigned cpu;
	ipi_fn fn;
	void *arg;
};

void fake_smp_set_online(u32 n)
{
	assert_true(n >= 1 && n <= FAKE_NCPUS);
	online = n;
	calls = 0;
	for (unsigned i = 0; i < FAKE_NCPUS; i++)
		absent[i] = false;
}

void fake_smp_set_absent(u32 cpu, bool a)
{
	assert_true(cpu < FAKE_NCPUS);
	absent[cpu] = a;
}

u32 fake_smp_calls(void)
{
	return calls;
}

static void *run(void *p)
{
	struct job *j = p;

	fake_cpu_select(j->cpu);
	j->fn(j->arg);
	return NULL;
}

u32 ipi_online_count(void)
{
	return online;
}

u32 ipi_this_cpu(void)
{
	return fake_cpu_current();
}

int ipi_call_on(u32 cpu, ipi_fn fn, void *arg, bool wait)
{
	struct job j = { cpu, fn, arg };
	pthread_t t;

	(void)wait; /* always waits: the job lives on this stack */
	if (cpu >= online || absent[cpu])
		return -1;
	calls++;
	if (cpu == fake_cpu_current()) {
		fn(arg);
		return 0;
	}
	assert_int_equal(pthread_create(&t, NULL, run, &j), 0);
	pthread_join(t, NULL);
	return 0;
}

int ipi_call_all(ipi_fn fn, void *arg, bool wait, bool include_self)
{
	struct job j[FAKE_NCPUS];
	pthread_t t[FAKE_NCPUS];
	bool started[FAKE_NCPUS] = { false };
	unsigned self = fake_cpu_current();
	int n = 0;

	(void)wait; /* always waits: the jobs live on this stack */
	calls++;
	for (unsigned i = 0; i < online; i++) {
		if (i == self || absent[i])
			continue;
		j[i] = (struct job){ i, fn, arg };
		assert_int_equal(pthread_create(&t[i], NULL, run, &j[i]), 0);
		started[i] = true;
		n++;
	}
	if (include_self && !absent[self]) { /* the caller's own call last */
		fn(arg);
		n++;
	}
	for (unsigned i = 0; i < online; i++)
		if (started[i])
			pthread_join(t[i], NULL);
	return n;
}
