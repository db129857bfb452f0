// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/host_map.c - before a 4 KiB page becomes guest-owned in the RMP,
 * the host must not map it with a 2 MiB or 1 GiB page: any host write
 * through that large mapping (to any of its pages) raises an RMP #PF (APM
 * vol 2 15.36.10; Linux splits its direct map first, arch/x86/virt/svm/
 * sev.c). hv_main registers the splitter of minhv's identity map. */
#include "arch/errno.h"
#include "hv/snp/snp.h"

static int (*split_fn)(hpa_t spa);
static u64 table_pages;

void snp_host_map_hook(int (*fn)(hpa_t spa))
{
	split_fn = fn;
}

int snp_host_map_4k(hpa_t spa)
{
	int r = split_fn ? split_fn(spa) : -ENODEV;

	/* No splitter: refuse rather than crash the host on hardware. */
	if (r < 0)
		return -ENOMEM;
	__atomic_add_fetch(&table_pages, (u64)r, __ATOMIC_RELAXED);
	return 0;
}

u64 snp_host_map_pages(void)
{
	return __atomic_load_n(&table_pages, __ATOMIC_RELAXED);
}
