// SPDX-License-Identifier: GPL-2.0-only
/* hv/cpuid/host.c - the host's CPUID leaves, read once on the boot CPU
 * into the table the guest model (model.c) computes from. Leaves above the
 * host's maximum stay zero: on Intel parts CPUID answers them with the
 * highest basic leaf, which may be indexed (SDM vol 2A CPUID). */
#include "hv/cpuid/cpuid.h"
#include "lib/string.h"

struct cpuid_host g_cpuid_host;

/* Subleaves of leaf (4 or 0x8000001D) until the cache type reads 0. */
static void caches(u32 leaf, struct cpuid_regs *out)
{
	for (u32 i = 0; i < CPUID_HOST_CACHES; i++) {
		cpuid(leaf, i, &out[i]);
		if (!(out[i].eax & 0x1f)) {
			out[i] = (struct cpuid_regs){ 0, 0, 0, 0 };
			break;
		}
	}
}

void cpuid_host_capture(struct cpuid_host *h)
{
	struct cpuid_regs r;

	memset(h, 0, sizeof(*h));
	cpuid(0, 0, &r);
	h->max_basic = r.eax;
	cpuid(0x80000000, 0, &r);
	/* No extended range at all reads back something below it. */
	h->max_ext = r.eax >= 0x80000000u ? r.eax : 0;
	for (u32 i = 0; i < CPUID_HOST_LEAVES; i++) {
		if (i <= h->max_basic)
			cpuid(i, 0, &h->basic[i]);
		if (h->max_ext && 0x80000000u + i <= h->max_ext)
			cpuid(0x80000000u + i, 0, &h->ext[i]);
	}
	if (h->max_basic >= 4)
		caches(4, h->leaf4);
	if (h->max_basic >= 7)
		for (u32 i = 0; i < CPUID_HOST_SUB7; i++)
			cpuid(7, i, &h->leaf7[i]);
	if (h->max_basic >= 0xd)
		for (u32 i = 0; i < CPUID_HOST_XSAVE; i++)
			cpuid(0xd, i, &h->xsave[i]);
	if (h->max_ext >= 0x8000001du)
		caches(0x8000001du, h->cache_ext);
}
