// SPDX-License-Identifier: GPL-2.0-only
/* guest/select.c - which scenarios a filter string selects: globs over
 * names and groups, like kvm-unit-tests' -g/-n filters (words and globs
 * from lib/select.c, the same reader the hypervisor uses). */
#include "guest/test.h"
#include "lib/select.h"

bool scenario_selected(const struct scenario *s, const char *p)
{
	bool any = false;
	size_t n;

	for (p = select_next(p, &n); p; p = select_next(p + n, &n)) {
		any = true;
		if (select_glob(p, n, s->name) || select_glob(p, n, s->group))
			return true;
	}
	return !any && !(s->flags & SCN_MANUAL);
}
