// SPDX-License-Identifier: GPL-2.0-only
/* guest/hypercall.c - names of hypercall results for diagnostics. */
#include "guest/hypercall.h"

const char *hc_errname(long ret)
{
	switch (ret) {
	case 0:
		return "0";
	case -HC_EPERM:
		return "-EPERM";
	case -HC_ENOENT:
		return "-ENOENT";
	case -HC_E2BIG:
		return "-E2BIG";
	case -HC_EFAULT:
		return "-EFAULT";
	case -HC_EBUSY:
		return "-EBUSY";
	case -HC_EINVAL:
		return "-EINVAL";
	case -HC_ENOSYS:
		return "-ENOSYS";
	default:
		return ret > 0 ? "positive" : "-E?";
	}
}
