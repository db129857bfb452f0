/* guest/select.c - which scenarios a filter string selects: globs over
 * names and groups, like kvm-unit-tests' -g/-n filters. */
#include "guest/test.h"

bool glob_match(const char *pat, size_t n, const char *s)
{
	if (n == 0)
		return *s == 0;
	if (*pat == '*')
		return glob_match(pat + 1, n - 1, s) ||
		       (*s && glob_match(pat, n, s + 1));
	if (*s && (*pat == '?' || *pat == *s))
		return glob_match(pat + 1, n - 1, s + 1);
	return false;
}

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t';
}

bool scenario_selected(const struct scenario *s, const char *p)
{
	bool any = false;

	while (*p) {
		size_t n = 0;

		while (is_sep(*p))
			p++;
		while (p[n] && !is_sep(p[n]))
			n++;
		if (n == 0)
			break;
		any = true;
		if (glob_match(p, n, s->name) || glob_match(p, n, s->group))
			return true;
		p += n;
	}
	return !any && !(s->flags & SCN_MANUAL);
}
