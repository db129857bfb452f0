// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/mm_hooks.c - mm_reset() for the unit tests. */
#include <string.h>

#include "hv/mm_internal.h"
#include "tests/doubles/state_hooks.h"

void mm_reset(void)
{
	memset(&g_mm, 0, sizeof(g_mm));
}
