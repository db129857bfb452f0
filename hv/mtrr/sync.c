// SPDX-License-Identifier: GPL-2.0-only
/* hv/mtrr/sync.c - the MTRR rendezvous: every online CPU runs the
 * multiprocessor procedure of the Intel SDM vol 3A 11.11.8 (AMD APM vol 2
 * 7.6.2 follows it) at the same time, then reads its MTRRs back. */
#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/msr.h"
#include "arch/errno.h"
#include "hv/smp/ipi.h"
#include "arch/barrier.h"
#include "arch/spinlock.h"
#include "lib/string.h"
#include "hv/log.h"
#include "hv/mtrr/internal.h"
#include "hv/mtrr/mtrr.h"

/* ~90 s at 3 GHz: generous for 288 CPUs under TCG, finite on hardware
 * (hv/mtrr/internal.h: the unit tests shorten it). */
u64 g_mtrr_barrier_timeout = 1ULL << 38;
static spinlock_t sync_lock;

struct sync_ctx {
	const struct mtrr_state *target;
	const struct mtrr_state *old;
	bool flush;
	struct barrier entry, exit;
	struct mtrr_stats *st;
};

static void max64(u64 *p, u64 v)
{
	u64 o = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v > o &&
	       !__atomic_compare_exchange_n(p, &o, v, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static void max32(u32 *p, u32 v)
{
	u32 o = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v > o &&
	       !__atomic_compare_exchange_n(p, &o, v, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static void min32(u32 *p, u32 v)
{
	u32 o = __atomic_load_n(p, __ATOMIC_RELAXED);

	while (v < o &&
	       !__atomic_compare_exchange_n(p, &o, v, false, __ATOMIC_RELAXED,
					    __ATOMIC_RELAXED))
		;
}

static void add64(u64 *p, u64 v)
{
	__atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

static void add32(u32 *p, u32 v)
{
	__atomic_fetch_add(p, v, __ATOMIC_RELAXED);
}

/* One CPU's part; numbered steps are SDM 11.11.8's. */
static void mtrr_rendezvous(void *arg)
{
	struct sync_ctx *c = arg;
	struct mtrr_stats *st = c->st;
	bool irq = read_rflags() & RFLAGS_IF;
	u64 t[MTRR_NPHASES + 1], cr0, cr4;
	u32 nwb = 0, bad;
	int exit_rc;

	irq_disable(); /* 2 */
	t[0] = rdtsc();
	if (barrier_wait(&c->entry, g_mtrr_barrier_timeout)) { /* 3 */
		__atomic_store_n(&st->aborted, true, __ATOMIC_RELAXED);
		if (irq)
			irq_enable();
		return;
	}
	t[1] = rdtsc();
	cr0 = read_cr0();
	write_cr0((cr0 | CR0_CD) & ~CR0_NW); /* 4: no-fill cache mode */
	if (c->flush) { /* 5 */
		wbinvd();
		nwb++;
	}
	/* 6: clearing PGE flushes global entries too; else reload CR3. */
	cr4 = read_cr4();
	if (cr4 & CR4_PGE)
		write_cr4(cr4 & ~CR4_PGE);
	else
		write_cr3(read_cr3());
	wrmsr(MSR_MTRR_DEF_TYPE,
	      rdmsr(MSR_MTRR_DEF_TYPE) & ~MTRR_DEF_TYPE_E); /* 7 */
	t[2] = rdtsc();
	mtrr_write_ranges(c->target); /* 8 */
	t[3] = rdtsc();
	wrmsr(MSR_MTRR_DEF_TYPE, c->target->def_type); /* 9 */
	if (c->flush) { /* 10 */
		wbinvd();
		nwb++;
	}
	write_cr3(read_cr3()); /* 10: PGE is still clear: flushes all */
	write_cr0(cr0); /* 11: CD back to what it was (0) */
	if (cr4 & CR4_PGE) /* 12 */
		write_cr4(cr4);
	t[4] = rdtsc();
	exit_rc = barrier_wait(&c->exit, g_mtrr_barrier_timeout); /* 13 */
	t[5] = rdtsc();
	if (irq) /* 14 */
		irq_enable();

	bad = mtrr_compare(c->target, ipi_this_cpu(), MTRR_CMP_REPORT);
	add32(&st->cpus, 1);
	add64(&st->wbinvd_total, nwb);
	min32(&st->wbinvd_cpu_min, nwb);
	max32(&st->wbinvd_cpu_max, nwb);
	for (int p = 0; p < MTRR_NPHASES; p++) {
		max64(&st->phase_max[p], t[p + 1] - t[p]);
		add64(&st->phase_sum[p], t[p + 1] - t[p]);
	}
	if (exit_rc)
		__atomic_store_n(&st->exit_timeout, true, __ATOMIC_RELAXED);
	if (bad) {
		add32(&st->mismatch_cpus, 1);
		add32(&st->mismatch_msrs, bad);
		min32(&st->first_mismatch_cpu, ipi_this_cpu());
	}
}

/* Before skipping the flush: does every CPU really hold the old state?
 * A CPU that does not (firmware left it different; under QEMU an AP's
 * MTRRs are all 0 after INIT) has its own old types: judge the rule
 * against those, one CPU at a time through a shared scratch state. */
static void precheck(void *arg)
{
	static struct mtrr_state mine; /* under mine_lock */
	static spinlock_t mine_lock;
	struct sync_ctx *c = arg;
	const char *why;

	if (!mtrr_compare(c->old, ipi_this_cpu(), MTRR_CMP_TYPES))
		return;
	add32(&c->st->precheck_differ, 1);
	spin_lock(&mine_lock);
	mtrr_read(&mine);
	if (mtrr_need_flush(&g_features, &mine, c->target, TRI_AUTO, &why))
		add32(&c->st->precheck_unsafe, 1);
	spin_unlock(&mine_lock);
}

static u64 avg(const struct mtrr_stats *st, int p)
{
	return st->cpus ? st->phase_sum[p] / st->cpus : 0;
}

static void report(const struct mtrr_stats *st)
{
	pr_info("mtrr: rendezvous %u on %u of %u CPUs: caches %s: %s\n",
		st->seq, st->cpus, st->expected,
		st->flushed ? "flushed" : "not flushed", st->why);
	if (st->precheck_differ)
		pr_info("mtrr: %u of %u CPUs held MTRRs different from the boot CPU's before; %u of them need the flush\n",
			st->precheck_differ, st->expected, st->precheck_unsafe);
	if (st->aborted) {
		pr_err("mtrr: a CPU missed the entry barrier (%llu cycles): rendezvous aborted, no MTRR written\n",
		       (unsigned long long)g_mtrr_barrier_timeout);
		return;
	}
	pr_info("mtrr: WBINVD executed %llu times (%u..%u per CPU), %llu cycles in all\n",
		(unsigned long long)st->wbinvd_total, st->wbinvd_cpu_min,
		st->wbinvd_cpu_max, (unsigned long long)st->total_cycles);
	pr_info("mtrr: cycles max/avg: entry %llu/%llu disable %llu/%llu write %llu/%llu enable %llu/%llu exit %llu/%llu\n",
		(unsigned long long)st->phase_max[0],
		(unsigned long long)avg(st, 0),
		(unsigned long long)st->phase_max[1],
		(unsigned long long)avg(st, 1),
		(unsigned long long)st->phase_max[2],
		(unsigned long long)avg(st, 2),
		(unsigned long long)st->phase_max[3],
		(unsigned long long)avg(st, 3),
		(unsigned long long)st->phase_max[4],
		(unsigned long long)avg(st, 4));
	if (st->exit_timeout)
		pr_err("mtrr: a CPU missed the exit barrier\n");
	if (st->mismatch_cpus)
		pr_err("mtrr: %u of %u CPUs differ from the boot CPU after the rendezvous (first cpu%u, %u MSRs in all)\n",
		       st->mismatch_cpus, st->cpus, st->first_mismatch_cpu,
		       st->mismatch_msrs);
	else if (st->cpus == st->expected)
		pr_info("mtrr: all %u CPUs verified equal to the boot CPU\n",
			st->cpus);
}

int mtrr_sync_all(const struct mtrr_state *target, struct mtrr_stats *out)
{
	static struct sync_ctx c; /* under sync_lock */
	struct mtrr_stats st;
	u64 t0;
	int n, rc = 0;

	if (mtrr_locked_for_snp()) {
		pr_err("mtrr: rendezvous refused: MTRRs are locked for SNP\n");
		return -EPERM;
	}
	spin_lock(&sync_lock);
	memset(&st, 0, sizeof(st));
	st.seq = mtrr_last_stats()->seq + 1;
	st.expected = ipi_online_count();
	st.wbinvd_cpu_min = ~0u;
	st.first_mismatch_cpu = ~0u;
	c.target = target;
	c.old = mtrr_cur_state();
	c.st = &st;
	st.flushed = mtrr_need_flush(&g_features, c.old, target,
				     mtrr_flush_option(), &st.why);
	if (!st.flushed && c.old && mtrr_flush_option() == TRI_AUTO) {
		/* The rule judged old -> target; a CPU holding something
		 * else (firmware left it different) has unknown old types. */
		ipi_call_all(precheck, &c, true, true);
		if (st.precheck_unsafe) {
			st.flushed = true;
			st.why =
				"self-snoop, but on some CPU whose MTRRs differed from the boot CPU's before, a range goes from cacheable to UC: both WBINVDs done";
		} else if (st.precheck_differ) {
			st.why =
				"self-snoop (CPUID.1:EDX[27]) and no range goes from cacheable to UC, also on the CPUs whose MTRRs differed before (checked against their own): both WBINVDs skipped";
		}
	}
	c.flush = st.flushed;
	barrier_init(&c.entry, st.expected);
	barrier_init(&c.exit, st.expected);

	t0 = rdtsc();
	n = ipi_call_all(mtrr_rendezvous, &c, true, true);
	st.total_cycles = rdtsc() - t0;
	if (st.wbinvd_cpu_min == ~0u)
		st.wbinvd_cpu_min = 0;

	if (st.aborted)
		rc = -ETIMEDOUT;
	else if (st.mismatch_cpus || st.exit_timeout || (u32)n != st.expected)
		rc = -EIO;
	if (!st.aborted)
		mtrr_set_cur_state(target);
	st.rc = rc;
	mtrr_record_stats(&st);
	spin_unlock(&sync_lock);

	if ((u32)n != st.expected)
		pr_err("mtrr: ipi_call_all ran on %d CPUs, %u are online\n", n,
		       st.expected);
	report(&st);
	if (out)
		*out = st;
	return rc;
}
