/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/select.h - the one reader of tests= lists, shared by the hypervisor
 * (hv/selftest/svm_suite.c) and the guest (guest/select.c): words split at
 * ',', ' ' or '\t', matched exactly or as globs. Freestanding. */
#ifndef MINHV_LIB_SELECT_H
#define MINHV_LIB_SELECT_H

#include <stdbool.h>
#include <stddef.h>

/* The next word of list at or after p: returns its start and sets *n to its
 * length, or returns NULL (and *n = 0) when no word is left. The word after
 * it starts at return value + *n. */
const char *select_next(const char *p, size_t *n);
/* Glob: '*' any run, '?' any one character, else itself; only the first
 * n bytes of pat count, so a word can be matched in place. */
bool select_glob(const char *pat, size_t n, const char *s);
/* Is w, exactly, one of list's words? */
bool select_has_word(const char *list, const char *w);

#endif
