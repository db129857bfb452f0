// SPDX-License-Identifier: GPL-2.0-only
/* hv/options/value.c - parse and format one option value by its type:
 * numbers (decimal or 0x hex, overflow-checked), sizes, booleans, words,
 * strings and the console= address syntax. */
#include "arch/uart_regs.h"
#include "hv/options/internal.h"
#include "arch/errno.h"
#include "lib/fmt.h"
#include "lib/string.h"

/* Longest piece of a user's value quoted back in a message. */
#define SHOW 64
#define SHOWN(n) ((int)((n) > SHOW ? SHOW : (n)))

static bool word_is(const char *v, size_t n, const char *w)
{
	return strlen(w) == n && !memcmp(v, w, n);
}

static void *field(struct options *o, const struct opt_desc *d)
{
	return (char *)o + d->off;
}

/* Integer fields of any width; the bits are the same signed or not. */
static void store(void *f, size_t size, s64 v)
{
	u8 b = (u8)v;
	u16 h = (u16)v;
	u32 w = (u32)v;
	u64 q = (u64)v;

	switch (size) {
	case 1:
		memcpy(f, &b, 1);
		break;
	case 2:
		memcpy(f, &h, 2);
		break;
	case 4:
		memcpy(f, &w, 4);
		break;
	default:
		memcpy(f, &q, 8);
		break;
	}
}

static s64 load(const void *f, size_t size, bool is_signed)
{
	u8 b;
	u16 h;
	u32 w;
	u64 q;

	switch (size) {
	case 1:
		memcpy(&b, f, 1);
		return is_signed ? (s64)(s8)b : (s64)b;
	case 2:
		memcpy(&h, f, 2);
		return is_signed ? (s64)(s16)h : (s64)h;
	case 4:
		memcpy(&w, f, 4);
		return is_signed ? (s64)(s32)w : (s64)w;
	default:
		memcpy(&q, f, 8);
		return (s64)q;
	}
}

static int digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return 99;
}

/* s[0..n): decimal or 0x hex digits, nothing else. *ovf when the value
 * does not fit 64 bits (the result is then meaningless). */
static bool parse_u64(const char *s, size_t n, u64 *out, bool *ovf)
{
	unsigned base = 10;
	u64 v = 0;

	*ovf = false;
	if (n > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
		base = 16;
		s += 2;
		n -= 2;
	}
	if (!n)
		return false;
	for (size_t i = 0; i < n; i++) {
		unsigned d = (unsigned)digit(s[i]);

		if (d >= base)
			return false;
		if (v > (~0ULL - d) / base)
			*ovf = true;
		v = v * base + d;
	}
	*out = v;
	return true;
}

static int not_a_number(const char *v, size_t n, char *why, size_t whyn)
{
	fmt_snprintf(why, whyn, "'%.*s' is not a number", SHOWN(n), v);
	return -EINVAL;
}

static int out_of_range(const struct opt_desc *d, const char *v, size_t n,
			const char *unit, char *why, size_t whyn)
{
	fmt_snprintf(why, whyn, "%.*s is out of range (%lld%s..%lld%s)",
		     SHOWN(n), v, (long long)d->min, unit, (long long)d->max,
		     unit);
	return -ERANGE;
}

/* A signed number in [d->min, d->max]; '-' only where min < 0. */
static int parse_number(const struct opt_desc *d, const char *v, size_t n,
			s64 *out, char *why, size_t whyn)
{
	bool neg = n && v[0] == '-' && d->min < 0, ovf;
	u64 mag;

	if (d->auto_word && word_is(v, n, "auto")) {
		*out = -1;
		return 0;
	}
	if (!parse_u64(v + neg, n - neg, &mag, &ovf))
		return not_a_number(v, n, why, whyn);
	/* min and max are s64, so each bound's magnitude fits a u64. */
	if (ovf || (neg && mag > (u64)0 - (u64)d->min) ||
	    (!neg && mag > (u64)d->max))
		return out_of_range(d, v, n, "", why, whyn);
	*out = neg ? (s64)((u64)0 - mag) : (s64)mag;
	if (*out < d->min)
		return out_of_range(d, v, n, "", why, whyn);
	return 0;
}

/* N[K|M|G] (plain N = MiB), a whole number of MiB, stored in MiB. */
static int parse_size(const struct opt_desc *d, const char *v, size_t n,
		      s64 *out, char *why, size_t whyn)
{
	unsigned shift = 20;
	size_t dn = n;
	u64 x;
	bool ovf;

	if (d->auto_word && word_is(v, n, "auto")) {
		*out = 0;
		return 0;
	}
	switch (n ? v[n - 1] : 0) {
	case 'k':
	case 'K':
		shift = 10;
		dn--;
		break;
	case 'm':
	case 'M':
		dn--;
		break;
	case 'g':
	case 'G':
		shift = 30;
		dn--;
		break;
	}
	if (!parse_u64(v, dn, &x, &ovf)) {
		fmt_snprintf(why, whyn, "'%.*s' is not a size (N, NK, NM, NG)",
			     SHOWN(n), v);
		return -EINVAL;
	}
	if (ovf || x > (~0ULL >> shift))
		return out_of_range(d, v, n, "M", why, whyn);
	x <<= shift;
	if (x & ((1ULL << 20) - 1)) {
		fmt_snprintf(why, whyn, "'%.*s' is not a whole number of MiB",
			     SHOWN(n), v);
		return -EINVAL;
	}
	x >>= 20;
	if (x < (u64)d->min || x > (u64)d->max)
		return out_of_range(d, v, n, "M", why, whyn);
	*out = (s64)x;
	return 0;
}

static int parse_bool(const char *v, size_t n, s64 *out, char *why, size_t whyn)
{
	static const char *const t[] = { "1", "on", "yes", "true" };
	static const char *const f[] = { "0", "off", "no", "false" };

	for (size_t i = 0; i < ARRAY_SIZE(t); i++) {
		if (word_is(v, n, t[i]) || word_is(v, n, f[i])) {
			*out = word_is(v, n, t[i]);
			return 0;
		}
	}
	fmt_snprintf(why, whyn,
		     "'%.*s' is not a boolean (0|1|on|off|yes|no|true|false)",
		     SHOWN(n), v);
	return -EINVAL;
}

static int parse_enum(const struct opt_desc *d, const char *v, size_t n,
		      s64 *out, char *why, size_t whyn)
{
	char syntax[96];
	s64 i;

	for (i = 0; d->words[i]; i++) {
		if (word_is(v, n, d->words[i])) {
			*out = i;
			return 0;
		}
	}
	if (d->numeric && n == 1 && v[0] >= '0' && v[0] - '0' < i) {
		*out = v[0] - '0';
		return 0;
	}
	opt_syntax(d, syntax, sizeof(syntax));
	fmt_snprintf(why, whyn, "'%.*s' is not one of %s", SHOWN(n), v, syntax);
	return -EINVAL;
}

static int parse_str(const struct opt_desc *d, struct options *o, const char *v,
		     size_t n, char *why, size_t whyn)
{
	char *s = field(o, d);
	size_t max = (size_t)d->size - 1;

	if (n > max) {
		fmt_snprintf(why, whyn,
			     "value is too long (%zu characters, at most %zu)",
			     n, max);
		return -EINVAL;
	}
	memcpy(s, v, n);
	s[n] = 0;
	return 0;
}

/* com1..com4 are the legacy PC port bases. */
static const struct {
	const char *name;
	u16 port;
} com_ports[] = {
	{ "com1", UART_COM1_PORT },
	{ "com2", UART_COM2_PORT },
	{ "com3", UART_COM3_PORT },
	{ "com4", UART_COM4_PORT },
};

static int parse_console(struct options *o, const char *v, size_t n, char *why,
			 size_t whyn)
{
	bool io = n >= 3 && !memcmp(v, "io:", 3);
	bool mmio = n >= 5 && !memcmp(v, "mmio:", 5);
	size_t skip = io ? 3 : 5;
	u64 addr;
	bool ovf;

	if (word_is(v, n, "auto")) {
		o->console = CONSOLE_AUTO;
		o->console_addr = 0;
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(com_ports); i++) {
		if (word_is(v, n, com_ports[i].name)) {
			o->console = CONSOLE_IO;
			o->console_addr = com_ports[i].port;
			return 0;
		}
	}
	if (!io && !mmio) {
		fmt_snprintf(
			why, whyn,
			"'%.*s' is not one of auto|com1|com2|com3|com4|io:PORT|mmio:ADDR",
			SHOWN(n), v);
		return -EINVAL;
	}
	if (!parse_u64(v + skip, n - skip, &addr, &ovf))
		return not_a_number(v + skip, n - skip, why, whyn);
	if (ovf || !addr || (io && addr > 0xffff)) {
		fmt_snprintf(why, whyn, "%s address %.*s is out of range (%s)",
			     io ? "I/O" : "MMIO", SHOWN(n - skip), v + skip,
			     io ? "1..0xffff" : "not 0");
		return -EINVAL;
	}
	o->console = io ? CONSOLE_IO : CONSOLE_MMIO;
	o->console_addr = addr;
	return 0;
}

/* Stored as written once cpulist_next() walked all of it. */
static int parse_cpulist(const struct opt_desc *d, struct options *o,
			 const char *v, size_t n, char *why, size_t whyn)
{
	char buf[128];
	const char *p = buf;
	u32 lo, hi;
	int r;

	if (n >= sizeof(buf) || n + 1 > d->size)
		return parse_str(d, o, v, n, why, whyn); /* too long: says so */
	memcpy(buf, v, n);
	buf[n] = 0;
	while ((r = cpulist_next(&p, &lo, &hi)) > 0)
		;
	if (r < 0) {
		fmt_snprintf(why, whyn,
			     "'%.*s' is not a CPU list (all|N[-M][,N[-M]...])",
			     SHOWN(n), v);
		return -EINVAL;
	}
	return parse_str(d, o, v, n, why, whyn);
}

int opt_parse_value(const struct opt_desc *d, struct options *o, const char *v,
		    size_t n, char *why, size_t whyn)
{
	s64 x = 0;
	int rc;

	switch (d->type) {
	case OPT_STR:
		return parse_str(d, o, v, n, why, whyn);
	case OPT_CPULIST:
		return parse_cpulist(d, o, v, n, why, whyn);
	case OPT_CONSOLE:
		return parse_console(o, v, n, why, whyn);
	case OPT_BOOL:
		rc = parse_bool(v, n, &x, why, whyn);
		break;
	case OPT_ENUM:
		rc = parse_enum(d, v, n, &x, why, whyn);
		break;
	case OPT_SIZE_MB:
		rc = parse_size(d, v, n, &x, why, whyn);
		break;
	default:
		rc = parse_number(d, v, n, &x, why, whyn);
		break;
	}
	if (!rc)
		store(field(o, d), d->size, x);
	return rc;
}

void opt_format(const struct opt_desc *d, const struct options *o, char *buf,
		size_t n)
{
	const void *f = (const char *)o + d->off;
	s64 x = d->type == OPT_STR || d->type == OPT_CPULIST ?
			0 :
			load(f, d->size, d->min < 0);

	switch (d->type) {
	case OPT_STR:
		fmt_snprintf(buf, n, "%s", (const char *)f);
		return;
	case OPT_CPULIST:
		fmt_snprintf(buf, n, "%s",
			     cpulist_all(f) ? "all" : (const char *)f);
		return;
	case OPT_CONSOLE:
		for (size_t i = 0; i < ARRAY_SIZE(com_ports); i++)
			if (o->console == CONSOLE_IO &&
			    o->console_addr == com_ports[i].port) {
				fmt_snprintf(buf, n, "%s", com_ports[i].name);
				return;
			}
		if (o->console == CONSOLE_AUTO)
			fmt_snprintf(buf, n, "auto");
		else
			fmt_snprintf(buf, n, "%s:%#llx",
				     o->console == CONSOLE_IO ? "io" : "mmio",
				     (unsigned long long)o->console_addr);
		return;
	case OPT_ENUM:
		fmt_snprintf(buf, n, "%s", d->words[x]);
		return;
	case OPT_SIZE_MB:
		if (d->auto_word && !x)
			fmt_snprintf(buf, n, "auto");
		else
			fmt_snprintf(buf, n, "%lldM", (long long)x);
		return;
	default:
		if (d->auto_word && x == -1)
			fmt_snprintf(buf, n, "auto");
		else
			fmt_snprintf(buf, n, "%lld", (long long)x);
		return;
	}
}

void opt_syntax(const struct opt_desc *d, char *buf, size_t n)
{
	size_t len = 0, i;

	switch (d->type) {
	case OPT_ENUM:
		for (i = 0; d->words[i] && len < n; i++)
			len += (size_t)fmt_snprintf(buf + len, n - len, "%s%s",
						    i ? "|" : "", d->words[i]);
		if (d->numeric && len < n)
			fmt_snprintf(buf + len, n - len, " or 0..%zu", i - 1);
		return;
	case OPT_BOOL:
		fmt_snprintf(buf, n, "0|1");
		return;
	case OPT_STR:
	case OPT_CPULIST:
		fmt_snprintf(buf, n, "%s", d->arg);
		return;
	case OPT_CONSOLE:
		fmt_snprintf(buf, n, "auto|com1..com4|io:PORT|mmio:ADDR");
		return;
	case OPT_SIZE_MB:
		fmt_snprintf(buf, n, "%sSIZE[K|M|G] (%lldM..%lldM)",
			     d->auto_word ? "auto|" : "", (long long)d->min,
			     (long long)d->max);
		return;
	default:
		fmt_snprintf(buf, n, "%sN (%lld..%lld)",
			     d->auto_word ? "auto|" : "", (long long)d->min,
			     (long long)d->max);
		return;
	}
}
