/* hv/guest/console.c - guest console output (HC_CONSOLE_WRITE and COM1
 * writes): line-buffered per vCPU, each line prefixed with the guest's
 * name so lines from different guests and CPUs never interleave. */
#include "hv/guest/guest.h"
#include "hv/log.h"

char guest_text_char(char c, bool ktap)
{
	unsigned char u = (unsigned char)c;

	if (ktap && (c == '\n' || c == '\r' || c == '#'))
		return ' ';
	if ((u < 0x20 && c != '\t') || u >= 0x7f)
		return '?'; /* no escape sequences onto the console */
	return c;
}

static void line_out(struct vcpu *v)
{
	kprintf("[%s] %.*s\n", v->guest->name, (int)v->con_len, v->con);
	v->con_len = 0;
}

void guest_console_flush(struct vcpu *v)
{
	if (v->con_len)
		line_out(v);
}

void guest_console_put(struct vcpu *v, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (c == '\n') {
			line_out(v); /* an empty line still shows up */
			continue;
		}
		if (c == '\r')
			continue;
		v->con[v->con_len++] = guest_text_char(c, false);
		if (v->con_len == VCPU_CON_LINE)
			guest_console_flush(v);
	}
}
