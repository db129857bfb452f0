// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/ktap_hooks.c - ktap_reset() for the unit tests. */
#include "hv/ktap_internal.h"
#include "tests/doubles/state_hooks.h"

void ktap_reset(void)
{
	g_ktap = (struct ktap_tally){ 0 };
}
