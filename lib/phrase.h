/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/phrase.h - whole-phrase matching, for the hostile judge
 * (hv/selftest/svm_suite.c) that compares stop reasons. Freestanding. */
#ifndef MINHV_LIB_PHRASE_H
#define MINHV_LIB_PHRASE_H

#include <stdbool.h>

/* Does phrase occur in s as whole words: not inside a longer word or
 * number, so "exited with status 1" is not in "exited with status 10"?
 * An end of phrase that is no letter or digit matches whatever is next to
 * it ("; console flood: " then the count). "" is in no text. */
bool has_phrase(const char *s, const char *phrase);

#endif
