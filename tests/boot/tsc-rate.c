// SPDX-License-Identifier: GPL-2.0-only
/* tests/boot/tsc-rate.c - the host's TSC rate in kHz, for the boot tests
 * (under QEMU TCG a guest's RDTSC is the host's TSC): TSC cycles over about
 * a second of CLOCK_MONOTONIC_RAW, each end read between two clock reads,
 * keeping the tightest of several tries so a preempted read does not
 * count. Prints one number. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <x86intrin.h>

static uint64_t ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC_RAW, &t);
	return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

/* A (TSC, ns) pair whose clock reads are at most a few microseconds
 * apart. */
static void pair(uint64_t *tsc, uint64_t *when)
{
	uint64_t best = UINT64_MAX;

	for (int i = 0; i < 200; i++) {
		uint64_t a = ns(), t = __rdtsc(), b = ns();

		if (b - a < best) {
			best = b - a;
			*tsc = t;
			*when = a + (b - a) / 2;
		}
	}
}

int main(void)
{
	struct timespec second = { 1, 0 };
	uint64_t t0, n0, t1, n1;

	pair(&t0, &n0);
	nanosleep(&second, NULL);
	pair(&t1, &n1);
	printf("%llu\n", (unsigned long long)((t1 - t0) * 1000000 / (n1 - n0)));
	return 0;
}
