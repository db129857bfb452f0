// SPDX-License-Identifier: GPL-2.0-only
/* lib/select.c - the one reader of tests= lists (lib/select.h): the word
 * splitter and the two matchers, exact and glob. */
#include "lib/select.h"

static bool is_sep(char c)
{
	return c == ',' || c == ' ' || c == '\t';
}

const char *select_next(const char *p, size_t *n)
{
	*n = 0;
	while (is_sep(*p))
		p++;
	if (!*p)
		return NULL;
	while (p[*n] && !is_sep(p[*n]))
		(*n)++;
	return p;
}

bool select_glob(const char *pat, size_t n, const char *s)
{
	if (n == 0)
		return *s == 0;
	if (*pat == '*')
		return select_glob(pat + 1, n - 1, s) ||
		       (*s && select_glob(pat, n, s + 1));
	if (*s && (*pat == '?' || *pat == *s))
		return select_glob(pat + 1, n - 1, s + 1);
	return false;
}

bool select_has_word(const char *list, const char *w)
{
	size_t n;

	for (const char *p = select_next(list, &n); p;
	     p = select_next(p + n, &n)) {
		size_t i = 0;

		while (i < n && w[i] == p[i])
			i++;
		if (i == n && w[i] == 0)
			return true;
	}
	return false;
}
