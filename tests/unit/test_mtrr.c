// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_mtrr.c - the MTRR module (hv/mtrr/): flush policy,
 * lock-step rendezvous on pthread fake CPUs, range API. */
#include "tests/unit/test_mtrr_fixture.h"

int main(void)
{
	int fails = 0;

	fails += t_policy_tests();
	fails += t_sync_tests();
	fails += t_range_tests();
	return fails ? 1 : 0;
}
