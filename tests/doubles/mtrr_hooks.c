// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/mtrr_hooks.c - mtrr_reset() and the rendezvous timeout
 * for the unit tests. */
#include <string.h>

#include "hv/mtrr/internal.h"
#include "tests/doubles/state_hooks.h"

void mtrr_reset(void)
{
	memset(&g_mtrr, 0, sizeof(g_mtrr));
	g_mtrr.flush_opt = TRI_AUTO;
}

void mtrr_set_barrier_timeout(u64 cycles)
{
	g_mtrr_barrier_timeout = cycles;
}
