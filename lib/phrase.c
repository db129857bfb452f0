// SPDX-License-Identifier: GPL-2.0-only
/* lib/phrase.c - whole-phrase matching (lib/phrase.h). */
#include <stddef.h>

#include "lib/phrase.h"

static bool is_alnum(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
	       (c >= 'A' && c <= 'Z') || c == '_';
}

bool has_phrase(const char *s, const char *phrase)
{
	size_t n = 0;

	while (phrase[n])
		n++;
	if (!n)
		return false;
	for (const char *p = s; *p; p++) {
		size_t i = 0;

		while (i < n && p[i] == phrase[i])
			i++;
		if (i < n)
			continue;
		/* A word of the phrase's ends must not go on outside it. */
		if (is_alnum(phrase[0]) && p > s && is_alnum(p[-1]))
			continue;
		if (is_alnum(phrase[n - 1]) && is_alnum(p[n]))
			continue;
		return true;
	}
	return false;
}
