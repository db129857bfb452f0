// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/park_hooks.c - park_reset() for the unit tests. */
#include "hv/park/internal.h"
#include "tests/doubles/state_hooks.h"

void park_reset(void)
{
	g_park_cpus = NULL;
	g_park_ncpus = 0;
	g_park_mwait = false;
	__atomic_store_n(&g_park_armed, false, __ATOMIC_RELEASE);
}
