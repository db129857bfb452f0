// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hostile_mem.c - read or write a guest-physical address
 * outside guest memory: the guest maps it at virtual page 0 (its NULL
 * page) and touches it; minhv must stop this guest with an NPF report. */
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "guest/x86.h"

/* Point virtual page 0 at gpa; the first PT is that of the low 2 MiB. */
static volatile u64 *map_page0(u64 gpa)
{
	u64 *pml4 = (u64 *)(uintptr_t)(read_cr3() & PTE_ADDR_MASK);
	u64 *pdpt = (u64 *)(uintptr_t)(pml4[0] & PTE_ADDR_MASK);
	u64 *pd = (u64 *)(uintptr_t)(pdpt[0] & PTE_ADDR_MASK);
	u64 *pt = (u64 *)(uintptr_t)(pd[0] & PTE_ADDR_MASK);

	pt[0] = gpa | PTE_P | PTE_RW;
	__asm__ volatile("invlpg (%0)" ::"r"(0UL) : "memory");
	return (volatile u64 *)0;
}

static void oob(bool write)
{
	u64 gpa = boot_info->mem_size + SZ_2M;
	volatile u64 *p = map_page0(gpa);

	printf("%s: %s GPA %#llx (outside %llu MiB of guest memory); minhv should stop this guest\n",
	       write ? "hostile_write" : "hostile_read",
	       write ? "writing" : "reading", (unsigned long long)gpa,
	       boot_info->mem_size >> 20);
	if (write)
		*p = 0x6b6b6b6b;
	else
		(void)*p;
	report(false, "the access to GPA %#llx returned to the guest",
	       (unsigned long long)gpa);
}

static void read_body(void)
{
	oob(false);
}

static void write_body(void)
{
	oob(true);
}

const struct scenario scn_hostile_read = { "hostile_read", "hostile", NULL,
					   read_body, SCN_MANUAL };
const struct scenario scn_hostile_write = { "hostile_write", "hostile", NULL,
					    write_body, SCN_MANUAL };
