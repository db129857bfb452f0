// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/pt.c - identity page tables for a guest, built in its memory at
 * GUEST_PT_GPA: PML4, PDPTs, PDs of 2 MiB pages, 4 KiB PTs where needed. */
#include "hv/guest/pt.h"
#include "arch/ptwalk.h"
#include "arch/errno.h"
#include "include/minhv/guest_layout.h"
#include "lib/string.h"
#include "hv/emul/walk.h"
#include "hv/log.h"

#define SZ_512G (512ULL * SZ_1G)
#define TABLE_FLAGS (PTE_P | PTE_RW | PTE_A)
#define LEAF_FLAGS (PTE_P | PTE_RW | PTE_A | PTE_D)

static u64 div_up(u64 a, u64 b)
{
	return a / b + (a % b != 0);
}

/* The first 2 MiB always needs a PT (page 0 is unmapped); an unaligned
 * tail in a later 2 MiB needs another. */
static u64 nr_pts(u64 mem_size)
{
	return 1 + (mem_size > SZ_2M && !IS_ALIGNED(mem_size, SZ_2M));
}

u64 guest_pt_size(u64 mem_size)
{
	u64 pages = 1 + div_up(mem_size, SZ_512G) + div_up(mem_size, SZ_1G) +
		    nr_pts(mem_size);

	return pages * PAGE_SIZE;
}

/* Table pages come one after the other from GUEST_PT_GPA; entries hold
 * their GPAs. */
struct gpt_area {
	u8 *mem; /* guest memory as the host sees it */
	u64 next, end; /* GPAs */
};

static u64 gpt_alloc(void *ctx)
{
	struct gpt_area *ar = ctx;
	u64 at = ar->next;

	if (at + PAGE_SIZE > ar->end)
		return 0;
	ar->next += PAGE_SIZE;
	memset(ar->mem + at, 0, PAGE_SIZE);
	return at;
}

static u64 *gpt_table(void *ctx, u64 gpa_of_table)
{
	struct gpt_area *ar = ctx;

	return (u64 *)(ar->mem + gpa_of_table);
}

int guest_pt_build(void *mem_host, u64 mem_size, gpa_t *cr3)
{
	u64 size = guest_pt_size(mem_size), pml4, low, mid;
	struct gpt_area ar = { mem_host, GUEST_PT_GPA, GUEST_PT_GPA + size };
	const struct pt_alloc a = { gpt_alloc, gpt_table, &ar };
	bool ok;

	if (mem_size == 0 || !IS_ALIGNED(mem_size, PAGE_SIZE)) {
		pr_err("guest_pt: memory size %#llx is not a non-zero multiple of 4 KiB\n",
		       (unsigned long long)mem_size);
		return -EINVAL;
	}
	if (size > GUEST_PT_MAX) {
		pr_err("guest_pt: %#llx bytes of memory need %#llx bytes of page tables, more than the %#llx reserved\n",
		       (unsigned long long)mem_size, (unsigned long long)size,
		       GUEST_PT_MAX);
		return -E2BIG;
	}
	if (GUEST_PT_GPA + size > mem_size) {
		pr_err("guest_pt: memory size %#llx cannot hold page tables at %#llx + %#llx\n",
		       (unsigned long long)mem_size, GUEST_PT_GPA,
		       (unsigned long long)size);
		return -EINVAL;
	}

	/* 4 KiB pages in the first 2 MiB from page 1, 2 MiB pages up to the
	 * last whole 2 MiB, 4 KiB pages for the tail; in address order, so
	 * the tables land in the area in the order guest_pt_size() counts. */
	pml4 = gpt_alloc(&ar);
	low = mem_size < SZ_2M ? mem_size : SZ_2M;
	mid = mem_size > SZ_2M ? ALIGN_DOWN(mem_size, SZ_2M) : low;
	ok = !pt_map_range(&a, pml4, PAGE_SIZE, PAGE_SIZE, low - PAGE_SIZE,
			   PT_SHIFT_4K, LEAF_FLAGS, TABLE_FLAGS) &&
	     !pt_map_range(&a, pml4, low, low, mid - low, PT_SHIFT_2M,
			   LEAF_FLAGS, TABLE_FLAGS) &&
	     !pt_map_range(&a, pml4, mid, mid, mem_size - mid, PT_SHIFT_4K,
			   LEAF_FLAGS, TABLE_FLAGS);
	CHECK(ok && ar.next - GUEST_PT_GPA == size);
	*cr3 = gpa(pml4);
	return 0;
}

int guest_pt_map_page0(void *mem_host, u64 mem_size, gpa_t cr3)
{
	const struct gmem m = { mem_host, mem_size };
	const struct pt_reader rd = { gmem_read, &m };
	struct pt_walk w;
	int r = pt_walk(&pt_mode_long4, cr3.v, 0, &rd, &w);

	/* Mapped or not, the walk must reach page 0's PTE, in guest memory:
	 * tables all the way down, no large page. */
	if ((r && r != -EFAULT) || w.shift != PT_SHIFT_4K)
		return -EINVAL;
	*(u64 *)((u8 *)mem_host + w.entry_addr) = 0 | LEAF_FLAGS;
	return 0;
}
