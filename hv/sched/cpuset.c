// SPDX-License-Identifier: GPL-2.0-only
/* hv/sched/cpuset.c - counting and walking a CPU set (hv/sched/cpuset.h). */
#include "arch/errno.h"
#include "hv/sched/cpuset.h"

u32 cpuset_count(const struct cpuset *s)
{
	u32 n = 0;

	/* No libgcc in the hypervisor: clear the lowest bit each round. */
	for (u64 i = 0; i < CPUSET_WORDS(s->nbits); i++)
		for (u64 w = s->w[i]; w; w &= w - 1)
			n++;
	return n;
}

int cpuset_next(const struct cpuset *s, u32 from)
{
	for (u32 c = from; c < s->nbits; c++) {
		u64 word = s->w[c / 64] >> (c % 64);

		if (!word) { /* nothing more in this word */
			c |= 63;
			continue;
		}
		c += (u32)__builtin_ctzll(word);
		return c < s->nbits ? (int)c : -ENOENT;
	}
	return -ENOENT;
}

int cpuset_nth(const struct cpuset *s, u32 n)
{
	int c = cpuset_next(s, 0);

	while (c >= 0 && n--)
		c = cpuset_next(s, (u32)c + 1);
	return c;
}
