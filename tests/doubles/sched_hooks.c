// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/sched_hooks.c - sched_reset() for the unit tests. */
#include <string.h>

#include "hv/sched/internal.h"
#include "tests/doubles/state_hooks.h"

void sched_reset(void)
{
	memset(&g_sched, 0, sizeof(g_sched));
}
