// SPDX-License-Identifier: GPL-2.0-only
/* lib/string.c - freestanding memory and string routines.
 * gcc may emit calls to memset/memcpy itself, so these must exist. */
#include "lib/string.h"
#include "lib/types.h"

/* REP STOSQ/MOVSQ for the 8-byte words, then REP STOSB/MOVSB for the
 * tail: on hardware the string instructions run at cache-line speed (ERMS,
 * FSRM), and under QEMU TCG one iteration is one instruction, so a page
 * costs 512 instead of a byte loop's 4 x 4096 (docs/PERFORMANCE.md, boot
 * profile). DF is clear: the SysV ABI guarantees it at every call. */
void *memset(void *d, int c, size_t n)
{
	u64 q = (u8)c * 0x0101010101010101ULL;
	void *p = d;
	size_t words = n / 8, tail = n % 8;

	__asm__ volatile("rep stosq"
			 : "+D"(p), "+c"(words)
			 : "a"(q)
			 : "memory");
	__asm__ volatile("rep stosb" : "+D"(p), "+c"(tail) : "a"(q) : "memory");
	return d;
}

void *memcpy(void *d, const void *s, size_t n)
{
	void *dp = d;
	size_t words = n / 8, tail = n % 8;

	__asm__ volatile("rep movsq"
			 : "+D"(dp), "+S"(s), "+c"(words)
			 :
			 : "memory");
	__asm__ volatile("rep movsb"
			 : "+D"(dp), "+S"(s), "+c"(tail)
			 :
			 : "memory");
	return d;
}

void *memmove(void *d, const void *s, size_t n)
{
	unsigned char *dp = d;
	const unsigned char *sp = s;

	if (dp < sp)
		return memcpy(d, s, n);
	while (n--)
		dp[n] = sp[n];
	return d;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

size_t strlen(const char *s)
{
	size_t n = 0;

	while (s[n])
		n++;
	return n;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

int strcmp(const char *a, const char *b)
{
	return strncmp(a, b, (size_t)-1);
}
