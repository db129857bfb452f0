// SPDX-License-Identifier: GPL-2.0-only
/* lib/fmt.c - printf-style formatting into a bounded buffer.
 * Never writes past n bytes and always NUL-terminates when n > 0. */
#include "lib/fmt.h"
#include <stdint.h>

struct out {
	char *buf;
	size_t n, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->n)
		o->buf[o->len] = c;
	o->len++;
}

static void pad(struct out *o, char c, int count)
{
	while (count-- > 0)
		put(o, c);
}

struct spec {
	int left, zero, plus, space, alt, width, prec;
};

static void emit_str(struct out *o, const struct spec *s, const char *str)
{
	int len = 0;

	if (!str)
		str = "(null)";
	while (str[len] && (s->prec < 0 || len < s->prec))
		len++;
	if (!s->left)
		pad(o, ' ', s->width - len);
	for (int i = 0; i < len; i++)
		put(o, str[i]);
	if (s->left)
		pad(o, ' ', s->width - len);
}

static void emit_num(struct out *o, const struct spec *s, uintmax_t v, int neg,
		     unsigned base, int upper, const char *prefix)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[64];
	int nd = 0, len, plen = 0, zeros = 0;
	char sign = neg ? '-' : s->plus ? '+' : s->space ? ' ' : 0;

	do {
		tmp[nd++] = digits[v % base];
		v /= base;
	} while (v);
	if (s->prec == 0 && nd == 1 && tmp[0] == '0')
		nd = 0;
	if (s->prec > nd)
		zeros = s->prec - nd;
	while (prefix && prefix[plen])
		plen++;
	len = nd + zeros + plen + (sign ? 1 : 0);
	if (s->zero && !s->left && s->prec < 0 && s->width > len) {
		zeros += s->width - len;
		len = s->width;
	}
	if (!s->left)
		pad(o, ' ', s->width - len);
	if (sign)
		put(o, sign);
	for (int i = 0; i < plen; i++)
		put(o, prefix[i]);
	pad(o, '0', zeros);
	while (nd)
		put(o, tmp[--nd]);
	if (s->left)
		pad(o, ' ', s->width - len);
}

static int parse_int(const char **p)
{
	int v = 0;

	while (**p >= '0' && **p <= '9')
		v = v * 10 + (*(*p)++ - '0');
	return v;
}

int fmt_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
	struct out o = { buf, n, 0 };

	for (const char *p = fmt; *p; p++) {
		struct spec s = { 0, 0, 0, 0, 0, 0, -1 };
		int lng = 0; /* 0 int, 1 long, 2 long long, -1 short, -2 char */
		uintmax_t u;
		intmax_t d;

		if (*p != '%') {
			put(&o, *p);
			continue;
		}
		for (p++;; p++) {
			if (*p == '-')
				s.left = 1;
			else if (*p == '0')
				s.zero = 1;
			else if (*p == '+')
				s.plus = 1;
			else if (*p == ' ')
				s.space = 1;
			else if (*p == '#')
				s.alt = 1;
			else
				break;
		}
		if (*p == '*') {
			s.width = va_arg(ap, int);
			if (s.width < 0) {
				s.left = 1;
				s.width = -s.width;
			}
			p++;
		} else {
			s.width = parse_int(&p);
		}
		if (*p == '.') {
			p++;
			if (*p == '*') {
				s.prec = va_arg(ap, int);
				p++;
			} else {
				s.prec = parse_int(&p);
			}
		}
		for (;; p++) {
			if (*p == 'l')
				lng++;
			else if (*p == 'h')
				lng--;
			else if (*p == 'z' || *p == 'j' || *p == 't')
				lng = 2;
			else
				break;
		}
		switch (*p) {
		case 'd':
		case 'i':
			if (lng >= 2)
				d = va_arg(ap, long long);
			else if (lng == 1)
				d = va_arg(ap, long);
			else
				d = va_arg(ap, int);
			if (lng == -1)
				d = (short)d;
			else if (lng <= -2)
				d = (signed char)d;
			u = d < 0 ? (uintmax_t)0 - (uintmax_t)d : (uintmax_t)d;
			emit_num(&o, &s, u, d < 0, 10, 0, 0);
			break;
		case 'u':
		case 'x':
		case 'X':
		case 'o':
			if (lng >= 2)
				u = va_arg(ap, unsigned long long);
			else if (lng == 1)
				u = va_arg(ap, unsigned long);
			else
				u = va_arg(ap, unsigned int);
			if (lng == -1)
				u = (unsigned short)u;
			else if (lng <= -2)
				u = (unsigned char)u;
			emit_num(&o, &s, u, 0,
				 *p == 'u' ? 10 :
				 *p == 'o' ? 8 :
					     16,
				 *p == 'X',
				 s.alt && u && *p == 'x' ? "0x" :
				 s.alt && u && *p == 'X' ? "0X" :
				 s.alt && u && *p == 'o' ? "0" :
							   0);
			break;
		case 'p':
			emit_num(&o, &s, (uintptr_t)va_arg(ap, void *), 0, 16,
				 0, "0x");
			break;
		case 's':
			emit_str(&o, &s, va_arg(ap, const char *));
			break;
		case 'c': {
			char c[2] = { (char)va_arg(ap, int), 0 };

			s.prec = 1;
			emit_str(&o, &s, c);
			break;
		}
		case '%':
			put(&o, '%');
			break;
		case 0:
			p--; /* lone '%' at the end: stop */
			break;
		default: /* unknown conversion: print it verbatim */
			put(&o, '%');
			put(&o, *p);
			break;
		}
	}
	if (n)
		buf[o.len < n ? o.len : n - 1] = 0;
	return (int)o.len;
}

int fmt_snprintf(char *buf, size_t n, const char *fmt, ...)
{
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = fmt_vsnprintf(buf, n, fmt, ap);
	va_end(ap);
	return r;
}
