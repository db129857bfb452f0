/* hv/guest/pt.c - identity page tables for a guest, built in its memory at
 * GUEST_PT_GPA: PML4, PDPTs, PDs of 2 MiB pages, 4 KiB PTs where needed. */
#include "hv/guest/pt.h"
#include "include/minhv/guest_layout.h"
#include "include/minhv/hypercall_abi.h"
#include "lib/string.h"
#include "hv/log.h"

#define ENTRIES 512ULL
#define SZ_512G (ENTRIES * SZ_1G)
#define TABLE_FLAGS (GPT_P | GPT_RW | GPT_A)
#define LEAF_FLAGS (GPT_P | GPT_RW | GPT_A | GPT_D)

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

/* Allocates the next zeroed table page from the area; returns its GPA. */
static u64 alloc_table(u8 *mem, u64 *next)
{
	u64 at = *next;

	*next += PAGE_SIZE;
	memset(mem + at, 0, PAGE_SIZE);
	return at;
}

static u64 *table(u8 *mem, u64 gpa_of_table)
{
	return (u64 *)(mem + gpa_of_table);
}

/* Returns the table that entry e points to, creating it when absent. */
static u64 next_level(u8 *mem, u64 *e, u64 *next)
{
	if (!(*e & GPT_P))
		*e = alloc_table(mem, next) | TABLE_FLAGS;
	return *e & GPT_ADDR_MASK;
}

/* Map the 2 MiB region at base (a PD entry) with 4 KiB pages up to limit. */
static void map_4k(u8 *mem, u64 *pde, u64 base, u64 limit, u64 *next)
{
	u64 *pt = table(mem, alloc_table(mem, next));
	u64 a;

	*pde = ((u8 *)pt - mem) | TABLE_FLAGS;
	for (a = base; a < limit && a < base + SZ_2M; a += PAGE_SIZE)
		if (a != 0)
			pt[(a - base) / PAGE_SIZE] = a | LEAF_FLAGS;
}

int guest_pt_build(void *mem_host, u64 mem_size, gpa_t *cr3)
{
	u8 *mem = mem_host;
	u64 size = guest_pt_size(mem_size), next = GUEST_PT_GPA, pml4, a;

	if (mem_size == 0 || !IS_ALIGNED(mem_size, PAGE_SIZE)) {
		pr_err("guest_pt: memory size %#llx is not a non-zero multiple of 4 KiB\n",
		       (unsigned long long)mem_size);
		return -HC_EINVAL;
	}
	if (size > GUEST_PT_MAX) {
		pr_err("guest_pt: %#llx bytes of memory need %#llx bytes of page tables, more than the %#llx reserved\n",
		       (unsigned long long)mem_size, (unsigned long long)size,
		       GUEST_PT_MAX);
		return -HC_E2BIG;
	}
	if (GUEST_PT_GPA + size > mem_size) {
		pr_err("guest_pt: memory size %#llx cannot hold page tables at %#llx + %#llx\n",
		       (unsigned long long)mem_size, GUEST_PT_GPA,
		       (unsigned long long)size);
		return -HC_EINVAL;
	}

	pml4 = alloc_table(mem, &next);
	for (a = 0; a < mem_size; a += SZ_2M) {
		u64 *pml4e = &table(mem, pml4)[(a / SZ_512G) % ENTRIES];
		u64 pdpt = next_level(mem, pml4e, &next);
		u64 *pdpte = &table(mem, pdpt)[(a / SZ_1G) % ENTRIES];
		u64 pd = next_level(mem, pdpte, &next);
		u64 *pde = &table(mem, pd)[(a / SZ_2M) % ENTRIES];

		if (a == 0 || a + SZ_2M > mem_size)
			map_4k(mem, pde, a, mem_size, &next);
		else
			*pde = a | LEAF_FLAGS | GPT_PS;
	}
	CHECK(next - GUEST_PT_GPA == size);
	*cr3 = gpa(pml4);
	return 0;
}
