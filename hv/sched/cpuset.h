/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/sched/cpuset.h - a set of physical CPUs by dense index (hv/percpu.h):
 * the CPUs a guest is given (cpus=). The bitmap belongs to its owner, sized
 * for the machine's CPUs, so there is no fixed CPU limit. Pure. */
#ifndef MINHV_HV_SCHED_CPUSET_H
#define MINHV_HV_SCHED_CPUSET_H

#include "arch/types.h"

struct cpuset {
	u32 nbits; /* CPUs 0 .. nbits-1 can be members */
	u64 *w; /* CPUSET_WORDS(nbits) words, owned by whoever set it up */
};

#define CPUSET_WORDS(n) (((u64)(n) + 63) / 64)

static inline bool cpuset_has(const struct cpuset *s, u32 cpu)
{
	return cpu < s->nbits && ((s->w[cpu / 64] >> (cpu % 64)) & 1);
}

static inline void cpuset_add(struct cpuset *s, u32 cpu)
{
	if (cpu < s->nbits)
		s->w[cpu / 64] |= 1ULL << (cpu % 64);
}

/* Members of s. */
u32 cpuset_count(const struct cpuset *s);
/* The first member >= from, or -ENOENT. */
int cpuset_next(const struct cpuset *s, u32 from);
/* The n-th member (0-based) in index order, or -ENOENT when s has at most
 * n members: where vCPU n of a guest is placed (n modulo the count). */
int cpuset_nth(const struct cpuset *s, u32 n);

#endif
