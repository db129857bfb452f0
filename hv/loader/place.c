// SPDX-License-Identifier: GPL-2.0-only
/* hv/loader/place.c - the loaders' one overflow-safe range check and the
 * only path from a guest-physical address to the bytes a loader writes. */
#include "hv/loader/place.h"

bool place_fits(const struct place_win *w, u64 gpa, u64 len)
{
	u64 end;

	return w->floor <= w->top && gpa >= w->floor &&
	       !__builtin_add_overflow(gpa, len, &end) && end <= w->top;
}

void *place_dst(const struct place_mem *m, const struct place_win *w, u64 gpa,
		u64 len)
{
	struct place_win in_mem = { w->floor,
				    w->top < m->size ? w->top : m->size };

	if (!m->host || !place_fits(&in_mem, gpa, len))
		return NULL;
	return (u8 *)m->host + gpa;
}

bool place_align_up(u64 a, u64 align, u64 *out)
{
	u64 s;

	if (align <= 1) {
		*out = a;
		return true;
	}
	if (__builtin_add_overflow(a, align - 1, &s))
		return false;
	*out = s & ~(align - 1);
	return true;
}
