/* guest/scenarios/vcpu_online.c - HC_VCPU_OFFLINE/ONLINE from another
 * vCPU: a spinning vCPU stops while offline and resumes when onlined. */
#include "guest/atomic.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"

#define SETTLE_TSC 50000000ULL

static volatile unsigned long long ticks, stop;

static void spin(void *unused)
{
	(void)unused;
	while (!atomic_read(&stop))
		atomic_inc(&ticks);
}

static void settle(void)
{
	unsigned long long t0 = rdtsc();

	while (rdtsc() - t0 < SETTLE_TSC)
		;
}

static const char *need_two(void)
{
	return smp_nr() < 2 ? "needs at least 2 vCPUs" : NULL;
}

static void online_body(void)
{
	unsigned long long a, b;
	long r;

	ticks = stop = 0;
	if (!report(vcpu_run(1, spin, NULL) == 0, "vCPU 1 started"))
		return;
	settle();
	if (!report(atomic_read(&ticks) != 0, "vCPU 1 is spinning")) {
		atomic_set(&stop, 1);
		return;
	}
	r = hc_vcpu_offline(1);
	report(r == 0, "HC_VCPU_OFFLINE(1): %s", hc_errname(r));
	settle(); /* let the offline take effect */
	a = atomic_read(&ticks);
	settle();
	b = atomic_read(&ticks);
	report(a == b, "offline vCPU 1 made no progress (%llu -> %llu)", a, b);
	r = hc_vcpu_offline(1);
	report(r == 0 || r == -HC_EBUSY, "offline twice: %s", hc_errname(r));
	r = hc_vcpu_online(1);
	report(r == 0, "HC_VCPU_ONLINE(1): %s", hc_errname(r));
	settle();
	report(atomic_read(&ticks) > b,
	       "online vCPU 1 runs again (%llu -> %llu)", b,
	       atomic_read(&ticks));
	atomic_set(&stop, 1);
	report(vcpu_wait(1), "vCPU 1 finished");
}

const struct scenario scn_vcpu_online = { "vcpu_online", "smp", need_two,
					  online_body, 0 };
