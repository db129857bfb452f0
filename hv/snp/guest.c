// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/guest.c - which RMP entries each SNP guest owns, and teardown in
 * the order Linux SEV uses (APM vol 3 RMPUPDATE/PSMASH): write back
 * caches, DECOMMISSION, reclaim firmware then guest pages (PSMASH partly
 * reclaimed 2 MiB entries), write back, free; a page whose reclaim fails is
 * leaked, never reused. Its 1 GiB regions then wait for the RMPOPT pass. */
#include "arch/errno.h"
#include "hv/snp/snp.h"
#include "arch/cpu.h"
#include "hv/smp/ipi.h"
#include "arch/spinlock.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/snp/rmp.h"
#include "hv/snp/fw.h"

enum pg_state {
	PG_EMPTY, /* slot unused */
	PG_ASSIGNED, /* assigned to asid in the RMP */
	PG_HV, /* hypervisor-owned again (or never assigned): to free */
	PG_LEAKED, /* reclaim failed: kept out of the pool forever */
};

struct snp_page {
	u64 hpa;
	u64 gpa;
	u32 asid;
	u8 pagesize; /* RMP_PG_4K / RMP_PG_2M */
	u8 state;
	u8 flags; /* SNP_MEM_* */
};

static struct snp_page *pages;
static u64 npages_max, leaked;
/* Guards the table; held across RMP operations (teardowns are rare). */
static spinlock_t lock;

static u64 entry_pages(const struct snp_page *p)
{
	return p->pagesize == RMP_PG_2M ? RMP_2M_PAGES : 1;
}

int snp_guest_init(u64 max_pages)
{
	u64 bytes = max_pages * sizeof(*pages);

	pages = page_alloc_ptr(ALIGN_UP(bytes, PAGE_SIZE) / PAGE_SIZE);
	if (!pages)
		return -ENOMEM;
	npages_max = max_pages;
	leaked = 0;
	return 0;
}

static void wb_fn(void *arg)
{
	(void)arg;
	wbnoinvd();
}

void snp_writeback_caches(void)
{
	ipi_call_all(wb_fn, NULL, true, true);
}

static struct snp_page *new_slot(void)
{
	for (u64 i = 0; i < npages_max; i++)
		if (pages[i].state == PG_EMPTY)
			return &pages[i];
	return NULL;
}

static u64 free_slots(void)
{
	u64 n = 0;

	for (u64 i = 0; i < npages_max; i++)
		n += pages[i].state == PG_EMPTY;
	return n;
}

static bool use_2m(u64 h, u64 g, u64 left)
{
	return IS_ALIGNED(h, SZ_2M) && IS_ALIGNED(g, SZ_2M) && left >= SZ_2M;
}

int snp_guest_assign(u32 asid, hpa_t base, gpa_t guest, u64 size,
		     unsigned flags)
{
	u64 need = 0;
	int ret = 0;

	if (!g_snp.ready || !asid || !size || !IS_ALIGNED(base.v, PAGE_SIZE) ||
	    !IS_ALIGNED(guest.v, PAGE_SIZE) || !IS_ALIGNED(size, PAGE_SIZE))
		return -EINVAL;
	for (u64 off = 0; off < size; need++) {
		if (use_2m(base.v + off, guest.v + off, size - off)) {
			off += SZ_2M;
			continue;
		}
		/* 4 KiB entry: the host's 2 MiB mapping around it goes
		 * first (host_map.c), before anything is assigned. */
		if (snp_host_map_4k(hpa(base.v + off))) {
			pr_err("snp: asid %u: cannot map %#llx with 4 KiB pages in the host\n",
			       asid, (unsigned long long)(base.v + off));
			return -ENOMEM;
		}
		off += PAGE_SIZE;
	}
	spin_lock(&lock);
	if (need > free_slots()) {
		spin_unlock(&lock);
		pr_err("snp: asid %u: no room to track %llu more entries\n",
		       asid, (unsigned long long)need);
		return -ENOSPC;
	}
	for (u64 off = 0; off < size;) {
		struct snp_page *p = new_slot();
		u8 ps = use_2m(base.v + off, guest.v + off, size - off) ?
				RMP_PG_2M :
				RMP_PG_4K;

		*p = (struct snp_page){ .hpa = base.v + off,
					.gpa = guest.v + off,
					.asid = asid,
					.pagesize = ps,
					.state = PG_HV,
					.flags = (u8)flags };
		/* After one failure the rest stays hypervisor-owned. */
		if (!ret) {
			u32 rc = rmp_assign(hpa(p->hpa), gpa(p->gpa), asid, ps);

			if (rc == RMP_OK) {
				p->state = PG_ASSIGNED;
			} else {
				pr_err("snp: asid %u: RMPUPDATE %#llx failed (%u)\n",
				       asid, (unsigned long long)p->hpa, rc);
				ret = -EIO;
			}
		}
		off += ps == RMP_PG_2M ? SZ_2M : PAGE_SIZE;
	}
	spin_unlock(&lock);
	return ret;
}

static void leak(struct snp_page *p, u32 rc)
{
	pr_err("snp: asid %u: reclaim of %#llx (%s) failed (%u): page leaked\n",
	       p->asid, (unsigned long long)p->hpa,
	       p->pagesize == RMP_PG_2M ? "2M" : "4K", rc);
	p->state = PG_LEAKED;
	leaked += entry_pages(p);
}

/* PSMASH the 2 MiB entry p and track it as 512 4 KiB entries. Lock held. */
static int split(struct snp_page *p)
{
	struct snp_page head = *p;
	u32 rc;

	if (free_slots() < RMP_2M_PAGES - 1)
		return -ENOSPC;
	rc = g_rmp->psmash(hpa(head.hpa));
	if (rc != RMP_OK) {
		pr_err("snp: PSMASH %#llx failed (%u)\n",
		       (unsigned long long)head.hpa, rc);
		return -EIO;
	}
	p->pagesize = RMP_PG_4K;
	for (u64 i = 1; i < RMP_2M_PAGES; i++) {
		struct snp_page *q = new_slot();

		*q = head;
		q->pagesize = RMP_PG_4K;
		q->hpa = head.hpa + i * PAGE_SIZE;
		q->gpa = head.gpa + i * PAGE_SIZE;
	}
	return 0;
}

/* Back to hypervisor-owned; a 2 MiB entry that will not go back whole is
 * split so that only its failing 4 KiB pages are leaked. Lock held. */
static void reclaim(struct snp_page *p)
{
	u32 rc = rmp_make_hv_owned(hpa(p->hpa), p->pagesize);
	u64 h = p->hpa;

	if (rc == RMP_OK) {
		p->state = PG_HV;
		return;
	}
	if (p->pagesize != RMP_PG_2M || split(p)) {
		leak(p, rc);
		return;
	}
	for (u64 i = 0; i < npages_max; i++) {
		struct snp_page *q = &pages[i];

		if (q->state != PG_ASSIGNED || q->hpa < h ||
		    q->hpa >= h + SZ_2M)
			continue;
		rc = rmp_make_hv_owned(hpa(q->hpa), RMP_PG_4K);
		if (rc == RMP_OK)
			q->state = PG_HV;
		else
			leak(q, rc);
	}
}

static bool in_range(const struct snp_page *p, u32 asid, u64 lo, u64 hi)
{
	return p->asid == asid && p->hpa < hi &&
	       p->hpa + entry_pages(p) * PAGE_SIZE > lo;
}

/* Free the PG_HV entries of asid in [lo, hi), queue their regions. */
static void release(u32 asid, u64 lo, u64 hi)
{
	for (u64 i = 0; i < npages_max; i++) {
		struct snp_page *p = &pages[i];
		u64 bytes = entry_pages(p) * PAGE_SIZE;

		/* Leaked and still assigned entries stay. */
		if (p->state != PG_HV || !in_range(p, asid, lo, hi))
			continue;
		rmpopt_pending_add(hpa(p->hpa), bytes);
		if (!(p->flags & SNP_MEM_NOFREE))
			page_free(hpa(p->hpa), entry_pages(p));
		p->state = PG_EMPTY;
	}
}

int snp_guest_reclaim(u32 asid, hpa_t base, u64 size)
{
	u64 lo = base.v, hi = base.v + size, before;

	if (!g_snp.ready || !IS_ALIGNED(lo, PAGE_SIZE) ||
	    !IS_ALIGNED(size, PAGE_SIZE))
		return -EINVAL;
	snp_writeback_caches();
	spin_lock(&lock);
	before = leaked;
	/* A 2 MiB entry only partly inside the range: PSMASH it first. */
	for (u64 i = 0; i < npages_max; i++) {
		struct snp_page *p = &pages[i];

		if (p->state == PG_ASSIGNED && p->pagesize == RMP_PG_2M &&
		    in_range(p, asid, lo, hi) &&
		    (p->hpa < lo || p->hpa + SZ_2M > hi) && split(p)) {
			spin_unlock(&lock);
			return -EIO;
		}
	}
	for (u64 i = 0; i < npages_max; i++) {
		struct snp_page *p = &pages[i];

		if (p->state == PG_ASSIGNED && p->asid == asid &&
		    p->hpa >= lo && p->hpa < hi)
			reclaim(p);
	}
	spin_unlock(&lock);
	snp_writeback_caches();
	spin_lock(&lock);
	release(asid, lo, hi);
	spin_unlock(&lock);
	return (int)(leaked - before);
}

int snp_guest_teardown(u32 asid)
{
	u64 n = snp_guest_pages(asid), before;

	if (!g_snp.ready || !asid || !n)
		return -ENOENT; /* not ready, or no such guest */
	/* 1. Write back guest data from every cache before the pages change
	 *    owner (APM vol 3 WBNOINVD; Linux sev_writeback_caches()). */
	snp_writeback_caches();
	/* 2. Firmware: DECOMMISSION, then its immutable pages (placeholders
	 *    until there is a PSP mailbox driver, hv/snp/fw.h). */
	snp_fw_decommission(asid);
	spin_lock(&lock);
	before = leaked;
	leaked += (u64)snp_fw_reclaim_pages(asid);
	/* 3. Every guest page back to hypervisor-owned. */
	for (u64 i = 0; i < npages_max; i++)
		if (pages[i].state == PG_ASSIGNED && pages[i].asid == asid)
			reclaim(&pages[i]);
	spin_unlock(&lock);
	/* 4. Write back again, then 5. free and queue the regions. */
	snp_writeback_caches();
	spin_lock(&lock);
	release(asid, 0, ~0ULL);
	spin_unlock(&lock);
	pr_info("snp: asid %u torn down: %llu pages reclaimed, %llu leaked, %u regions pending RMPOPT\n",
		asid, (unsigned long long)(n - (leaked - before)),
		(unsigned long long)(leaked - before), rmpopt_pending_count());
	return (int)(leaked - before);
}

u64 snp_guest_pages(u32 asid)
{
	u64 n = 0;

	spin_lock(&lock);
	for (u64 i = 0; i < npages_max; i++)
		if ((pages[i].state == PG_ASSIGNED ||
		     pages[i].state == PG_HV) &&
		    pages[i].asid == asid)
			n += entry_pages(&pages[i]);
	spin_unlock(&lock);
	return n;
}

u64 snp_leaked_pages(void)
{
	return leaked;
}
