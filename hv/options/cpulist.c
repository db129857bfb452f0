// SPDX-License-Identifier: GPL-2.0-only
/* hv/options/cpulist.c - the cpus= list: "all", or CPU numbers and ranges
 * ("0-3,6"), walked one range at a time (hv/options/options.h). */
#include "arch/errno.h"
#include "hv/options/options.h"

#define CPULIST_MAX 0xfffffu /* a CPU number beyond any machine's */

bool cpulist_all(const char *s)
{
	return !s[0] || (s[0] == 'a' && s[1] == 'l' && s[2] == 'l' && !s[3]);
}

/* A decimal number at *s, at most CPULIST_MAX. */
static int number(const char **s, u32 *out)
{
	const char *p = *s;
	u32 v = 0;

	if (*p < '0' || *p > '9')
		return -EINVAL;
	for (; *p >= '0' && *p <= '9'; p++) {
		v = v * 10 + (u32)(*p - '0');
		if (v > CPULIST_MAX)
			return -EINVAL;
	}
	*s = p;
	*out = v;
	return 0;
}

int cpulist_next(const char **s, u32 *lo, u32 *hi)
{
	const char *p = *s;

	if (!*p || cpulist_all(p))
		return 0;
	if (number(&p, lo))
		return -EINVAL;
	*hi = *lo;
	if (*p == '-') {
		p++;
		if (number(&p, hi) || *hi < *lo)
			return -EINVAL;
	}
	if (*p == ',') {
		p++;
		if (!*p)
			return -EINVAL; /* a trailing comma */
	} else if (*p) {
		return -EINVAL;
	}
	*s = p;
	return 1;
}
