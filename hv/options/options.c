// SPDX-License-Identifier: GPL-2.0-only
/* hv/options/options.c - split option text into key=value tokens, apply each
 * through the option table, report every problem; print and help. */
#include "arch/errno.h"
#include "hv/options/internal.h"
#include "lib/fmt.h"
#include "lib/string.h"
#include "hv/log.h"

#define SHOW 64
#define SHOWN(n) ((int)((n) > SHOW ? SHOW : (n)))
#define PRINT_WIDTH 72

void options_defaults(struct options *o)
{
	char why[8];

	memset(o, 0, sizeof(*o));
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_desc *d = &opt_table[i];
		char v[24];

		/* Through the parser, so a default is always a legal value. */
		if (d->type == OPT_STR || d->type == OPT_CPULIST)
			continue;
		if (d->type == OPT_ENUM)
			fmt_snprintf(v, sizeof(v), "%s", d->words[d->def]);
		else if (d->type == OPT_CONSOLE ||
			 (d->type == OPT_SIZE_MB && d->auto_word && !d->def))
			fmt_snprintf(v, sizeof(v), "auto");
		else if (d->def < 0)
			fmt_snprintf(v, sizeof(v), "-%llu",
				     (unsigned long long)-d->def);
		else
			fmt_snprintf(v, sizeof(v), "%lld", (long long)d->def);
		CHECK(!opt_parse_value(d, o, v, strlen(v), why, sizeof(why)));
	}
}

static const struct opt_desc *lookup(const char *k, size_t n)
{
	for (size_t i = 0; i < opt_count; i++)
		if (strlen(opt_table[i].name) == n &&
		    !memcmp(opt_table[i].name, k, n))
			return &opt_table[i];
	return NULL;
}

/* One key=value token: 0, or -EINVAL after reporting what is wrong. */
static int apply(struct options *o, const char *t, size_t n, const char *source)
{
	size_t klen = 0;
	const struct opt_desc *d;
	bool eq;
	const char *v;
	size_t vlen;
	char why[160];

	while (klen < n && t[klen] != '=')
		klen++;
	eq = klen < n;
	d = lookup(t, klen);
	v = t + klen + eq;
	vlen = n - klen - eq;

	if (!klen) {
		pr_err("minhv: %s: '%.*s' has no option name before '='\n",
		       source, SHOWN(n), t);
		return -EINVAL;
	}
	if (!d) {
		pr_err("minhv: %s: unknown option '%.*s'\n", source,
		       SHOWN(klen), t);
		return -EINVAL;
	}
	if (!eq) {
		pr_err("minhv: %s: option '%s': missing '=' and a value\n",
		       source, d->name);
		return -EINVAL;
	}
	if (vlen >= 2 && v[0] == '"' && v[vlen - 1] == '"') {
		v++; /* key="value with spaces" */
		vlen -= 2;
		if (!vlen && (d->type == OPT_STR || d->type == OPT_CPULIST)) {
			/* key="" clears it */
			memset((char *)o + d->off, 0, d->size);
			return 0;
		}
	}
	if (!vlen) {
		pr_err("minhv: %s: option '%s': empty value\n", source,
		       d->name);
		return -EINVAL;
	}
	if (opt_parse_value(d, o, v, vlen, why, sizeof(why))) {
		pr_err("minhv: %s: option '%s': %s\n", source, d->name, why);
		return -EINVAL;
	}
	return 0;
}

/* UEFI load options may carry a trailing NUL; treat it as a space. */
static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
	       c == '\f' || c == '\0';
}

/* Move *i past one token; "..." may hold whitespace. False when a quote
 * is not closed before the end of its line. */
static bool token_end(const char *text, size_t len, size_t *i)
{
	while (*i < len && !is_space(text[*i])) {
		if (text[(*i)++] != '"')
			continue;
		while (*i < len && text[*i] != '"' && text[*i] != '\n')
			(*i)++;
		if (*i >= len || text[*i] != '"')
			return false;
		(*i)++;
	}
	return true;
}

int options_parse(struct options *o, const char *text, size_t len,
		  const char *source)
{
	size_t i = 0, start;
	int errors = 0;

	while (i < len) {
		if (is_space(text[i])) {
			i++;
			continue;
		}
		if (text[i] == '#') {
			while (i < len && text[i] != '\n')
				i++;
			continue;
		}
		start = i;
		if (!token_end(text, len, &i)) {
			pr_err("minhv: %s: '%.*s' has no closing '\"'\n",
			       source, SHOWN(i - start), text + start);
			errors++;
			continue;
		}
		if (apply(o, text + start, i - start, source))
			errors++;
	}
	return errors;
}

struct line {
	char buf[PRINT_WIDTH + 256 + 32];
	int n;
};

static void line_flush(struct line *l)
{
	if (l->n)
		pr_info("options:%s\n", l->buf);
	l->n = 0;
	l->buf[0] = 0;
}

void options_print(const struct options *o)
{
	struct options def;
	struct line l = { .n = 0 };
	bool any = false;

	options_defaults(&def);
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_desc *d = &opt_table[i];
		char cur[256], was[256];

		opt_format(d, o, cur, sizeof(cur));
		opt_format(d, &def, was, sizeof(was));
		if (!strcmp(cur, was))
			continue;
		any = true;
		if (l.n &&
		    l.n + strlen(d->name) + strlen(cur) + 2 > PRINT_WIDTH)
			line_flush(&l);
		l.n += fmt_snprintf(l.buf + l.n, sizeof(l.buf) - (size_t)l.n,
				    " %s=%s", d->name, cur);
	}
	line_flush(&l);
	if (!any)
		pr_info("options: all defaults\n");
}

void options_help(void)
{
	struct options def;

	options_defaults(&def);
	pr_info("options (key=value, in the load options or \\minhv\\minhv.cfg, '#' comments):\n");
	for (size_t i = 0; i < opt_count; i++) {
		const struct opt_desc *d = &opt_table[i];
		char syntax[128], dv[64];

		opt_syntax(d, syntax, sizeof(syntax));
		opt_format(d, &def, dv, sizeof(dv));
		pr_info("  %s=%s\n      %s; default %s\n", d->name, syntax,
			d->help, dv[0] ? dv : "unset");
	}
}
