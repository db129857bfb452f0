// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/rmpopt_stats.c - per-CPU RMPOPT cycle slots, summed after each pass
 * and printed (min/avg/max as in the upstream RMPOPT series). */
#include "arch/errno.h"
#include "hv/snp/rmpopt_stats.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mm.h"

struct slot {
	struct rmpopt_cycles role[RMPOPT_NROLES];
	u32 optimized;
};

static struct slot *slots; /* [ncpus] */
static u32 *optimized; /* [ncpus] */
static u32 nslots, passes;
static struct rmpopt_summary last;

static void *alloc_bytes(u64 n)
{
	return page_alloc_ptr(ALIGN_UP(n ? n : 1, PAGE_SIZE) / PAGE_SIZE);
}

int rmpopt_stats_init(u32 ncpus)
{
	slots = alloc_bytes((u64)ncpus * sizeof(*slots));
	optimized = alloc_bytes((u64)ncpus * sizeof(*optimized));
	if (!slots || !optimized)
		return -ENOMEM;
	nslots = ncpus;
	passes = 0;
	memset(&last, 0, sizeof(last));
	return 0;
}

void rmpopt_stats_begin(void)
{
	memset(slots, 0, (u64)nslots * sizeof(*slots));
}

static void add(struct rmpopt_cycles *c, u64 cycles)
{
	if (!c->count || cycles < c->min)
		c->min = cycles;
	if (cycles > c->max)
		c->max = cycles;
	c->count++;
	c->sum += cycles;
}

static void merge(struct rmpopt_cycles *to, const struct rmpopt_cycles *c)
{
	if (!c->count)
		return;
	if (!to->count || c->min < to->min)
		to->min = c->min;
	if (c->max > to->max)
		to->max = c->max;
	to->count += c->count;
	to->sum += c->sum;
}

void rmpopt_stats_record(u32 cpu, enum rmpopt_role role, u64 cycles, bool opt)
{
	if (cpu >= nslots)
		return;
	add(&slots[cpu].role[role], cycles);
	slots[cpu].optimized += opt;
}

u64 rmpopt_cycles_avg(const struct rmpopt_cycles *c)
{
	return c->count ? c->sum / c->count : 0;
}

static void print(const struct rmpopt_summary *s)
{
	const struct rmpopt_cycles *l = &s->role[RMPOPT_ROLE_LEADER];
	const struct rmpopt_cycles *f = &s->role[RMPOPT_ROLE_CORES];
	char line[200];
	int n = 0;

	pr_info("rmpopt: pass %s: %u regions, %llu RMPOPTs, %llu cycles total; per RMPOPT min/avg/max %llu/%llu/%llu (leader %llu x avg %llu, cores %llu x avg %llu)\n",
		s->sched, s->regions, (unsigned long long)s->all.count,
		(unsigned long long)s->total_cycles,
		(unsigned long long)s->all.min,
		(unsigned long long)rmpopt_cycles_avg(&s->all),
		(unsigned long long)s->all.max, (unsigned long long)l->count,
		(unsigned long long)rmpopt_cycles_avg(l),
		(unsigned long long)f->count,
		(unsigned long long)rmpopt_cycles_avg(f));
	for (u32 c = 0; c < s->ncpus; c++) {
		n += fmt_snprintf(line + n, sizeof(line) - (u64)n, " %u:%u", c,
				  s->optimized[c]);
		if (n > (int)sizeof(line) - 24 || c + 1 == s->ncpus) {
			pr_info("rmpopt: regions optimized per cpu:%s\n", line);
			n = 0;
		}
	}
}

const struct rmpopt_summary *rmpopt_stats_end(const char *sched, u32 regions,
					      u64 total_cycles)
{
	memset(&last, 0, sizeof(last));
	last.sched = sched;
	last.regions = regions;
	last.total_cycles = total_cycles;
	last.ncpus = nslots;
	last.optimized = optimized;
	for (u32 c = 0; c < nslots; c++) {
		for (int r = 0; r < RMPOPT_NROLES; r++) {
			merge(&last.role[r], &slots[c].role[r]);
			merge(&last.all, &slots[c].role[r]);
		}
		optimized[c] = slots[c].optimized;
	}
	passes++;
	print(&last);
	return &last;
}

const struct rmpopt_summary *rmpopt_stats_last(void)
{
	return &last;
}

u32 rmpopt_stats_passes(void)
{
	return passes;
}
