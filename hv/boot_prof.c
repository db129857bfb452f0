// SPDX-License-Identifier: GPL-2.0-only
/* hv/boot_prof.c - the boot profile's table (hv/boot_prof.h): per phase
 * the TSC it took, filled on the boot CPU only (everything before the
 * first VMRUN runs there), printed once. */
#include "hv/boot_prof.h"
#include "arch/cpu.h"
#include "lib/fmt.h"
#include "hv/log.h"

static const char names[PROF_NR][11] = { PROF_PHASE_NAMES };
static u64 acc[PROF_NR];
static u64 t_start, t_last, t_end;
static enum prof_phase cur;
static bool running;

void prof_start(u64 tsc)
{
	t_start = t_last = tsc;
	cur = PROF_EFI;
	running = true;
}

enum prof_phase prof_mark(enum prof_phase p)
{
	enum prof_phase old = cur;
	u64 now;

	if (!running)
		return old;
	now = rdtsc();
	acc[cur] += now - t_last;
	t_last = now;
	cur = p;
	return old;
}

void prof_first_vmrun(void)
{
	u64 now = rdtsc();

	/* A later guest, or another vCPU: the profile has ended. */
	if (!__atomic_exchange_n(&running, false, __ATOMIC_ACQ_REL))
		return;
	acc[cur] += now - t_last;
	t_end = now;
}

void prof_print(void)
{
	char line[512];
	int n;

	if (!t_end)
		return;
	n = fmt_snprintf(line, sizeof(line), "boot: profile total=%llu",
			 (unsigned long long)(t_end - t_start));
	for (int i = 0; i < PROF_NR && n < (int)sizeof(line); i++)
		if (acc[i])
			n += fmt_snprintf(line + n, sizeof(line) - n,
					  " %s=%llu", names[i],
					  (unsigned long long)acc[i]);
	kprintf("%s tsc\n", line);
}
