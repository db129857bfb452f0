// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/mem.c - every guest pointer and length is checked here before
 * the hypervisor touches guest memory: null page, alignment, bounds and
 * wrap-around. Guest-physical [0, mem_size) is one host block. */
#include "arch/errno.h"
#include "hv/guest/guest.h"

int guest_mem_range(const struct guest *g, u64 gpa, u64 len, u64 align,
		    void **host)
{
	*host = NULL;
	if (!len)
		return 0;
	if (gpa < PAGE_SIZE)
		return -EFAULT; /* null pointer (page 0 is never data) */
	if (align > 1 && !IS_ALIGNED(gpa, align))
		return -EINVAL;
	/* gpa + len must neither wrap nor pass the end of guest memory. */
	if (gpa >= g->mem_size || len > g->mem_size - gpa)
		return -EFAULT;
	*host = (u8 *)g->mem_host + gpa;
	return 0;
}

int guest_phys_range(const struct guest *g, u64 gpa, u64 len, void **host)
{
	u64 off = gpa - TESTDEV_IOMEM_GPA;

	*host = NULL;
	if (!g->testdev_mem.v || gpa < TESTDEV_IOMEM_GPA ||
	    off >= TESTDEV_IOMEM_SIZE) {
		/* RAM, page 0 included: physical memory, not a pointer. */
		if (gpa >= g->mem_size || len > g->mem_size - gpa)
			return -EFAULT;
		*host = (u8 *)g->mem_host + gpa;
		return 0;
	}
	if (len > TESTDEV_IOMEM_SIZE - off)
		return -EFAULT;
	*host = (u8 *)hpa_to_ptr(g->testdev_mem) + off;
	return 0;
}

int guest_copy_str(const struct guest *g, u64 gpa, char *buf, size_t max)
{
	const char *src;
	u64 avail;

	if (!max)
		return -E2BIG;
	if (gpa < PAGE_SIZE || gpa >= g->mem_size)
		return -EFAULT;
	src = (const char *)g->mem_host + gpa;
	avail = g->mem_size - gpa;
	for (size_t i = 0; i < max; i++) {
		char c;

		if (i >= avail)
			return -EFAULT;
		c = __atomic_load_n(&src[i], __ATOMIC_RELAXED);
		buf[i] = c;
		if (!c)
			return 0;
	}
	buf[max - 1] = 0;
	return -E2BIG;
}
