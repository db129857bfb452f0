/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/options/internal.h - the option table's row type, shared by the
 * table (table.c), the value codecs (value.c) and the
 * token parser (options.c). */
#ifndef MINHV_HV_OPTIONS_INTERNAL_H
#define MINHV_HV_OPTIONS_INTERNAL_H

#include "hv/options/options.h"

enum opt_type {
	OPT_UINT, /* unsigned number, decimal or 0x hex */
	OPT_INT, /* signed number; auto_word allows "auto" for -1 */
	OPT_BOOL, /* 0|1|on|off|yes|no|true|false */
	OPT_ENUM, /* one of words[]; numeric also allows 0..n-1 */
	OPT_STR, /* copied; at most field size - 1 characters */
	OPT_SIZE_MB, /* N[K|M|G], plain N = MiB; stored in MiB */
	OPT_CONSOLE, /* console=: fills console and console_addr */
	OPT_CPULIST, /* a CPU list (cpulist_next()), kept as written */
};

/* A row is 72 bytes (every byte of the table counts against the image's
 * 256 KiB): type, off and size share 8 bytes, the bools come last. The
 * table's rows set name..def by position, the rest by name. */
struct opt_desc {
	const char *name;
	enum opt_type type;
	u16 off, size; /* the field in struct options */
	s64 min, max; /* numbers and sizes (MiB): accepted range */
	s64 def; /* default (not for OPT_STR, which defaults to "") */
	const char *const *words; /* OPT_ENUM: NULL-terminated */
	const char *arg; /* help: value syntax, when not derived */
	const char *help;
	bool numeric; /* OPT_ENUM: also 0..n-1 */
	bool auto_word; /* OPT_INT: "auto" = -1; OPT_SIZE_MB: "auto" = 0 */
};
_Static_assert(sizeof(struct options) <= 0xffff, "opt_desc.off is a u16");
_Static_assert(sizeof(struct opt_desc) == 72, "opt_desc packing");

extern const struct opt_desc opt_table[];
extern const size_t opt_count;

/* Parses v[0..n) into d's field of o: 0, or on failure -EINVAL (malformed)
 * or -ERANGE (out of range) with why (without the option name) written
 * into why[whyn]. */
int opt_parse_value(const struct opt_desc *d, struct options *o, const char *v,
		    size_t n, char *why, size_t whyn);
/* The field's value as it would be written in an option. */
void opt_format(const struct opt_desc *d, const struct options *o, char *buf,
		size_t n);
/* The accepted values, e.g. "parallel|serial" or "N (1..60000)". */
void opt_syntax(const struct opt_desc *d, char *buf, size_t n);

#endif
