/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/string.h - the few string/memory routines minhv uses (no libc).
 * Same prototypes as ISO C so host unit tests can use libc's instead. */
#ifndef MINHV_LIB_STRING_H
#define MINHV_LIB_STRING_H

#include <stddef.h>

void *memset(void *d, int c, size_t n);
void *memcpy(void *d, const void *s, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);

#endif
