// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/fake_console.c - console and stop doubles for unit tests. */
#include "tests/doubles/fake_console.h"
#include "arch/errno.h"
#include "hv/console.h"
#include "hv/stop.h"

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static char text[1 << 18];
static size_t len;
jmp_buf *fake_stop_catcher;
int fake_stop_status = -1;

void console_write(const char *s, size_t n)
{
	if (len + n >= sizeof(text))
		n = sizeof(text) - 1 - len;
	memcpy(text + len, s, n);
	len += n;
	text[len] = 0;
}

static char input[256];
static size_t in_head, in_len;

void fake_console_input(const char *s)
{
	size_t n = strlen(s);

	memcpy(input + in_len, s, n);
	in_len += n;
}

int console_getc(void)
{
	if (in_head == in_len)
		return -ENOENT;
	return (unsigned char)input[in_head++];
}

void console_break_lock(void)
{
}
void console_lock(void)
{
}
void console_unlock(void)
{
}
bool fake_console_busy;
bool console_trylock(u32 spins)
{
	(void)spins;
	return !fake_console_busy;
}

const char *fake_console_text(void)
{
	return text;
}

void fake_console_clear(void)
{
	len = 0;
	text[0] = 0;
	in_head = in_len = 0;
}

bool fake_console_has(const char *needle)
{
	return strstr(text, needle) != NULL;
}

void stop_configure(enum exit_method m, bool under_qemu)
{
	(void)m;
	(void)under_qemu;
}

_Noreturn void hv_stop(enum stop_status s)
{
	fake_stop_status = (int)s;
	if (fake_stop_catcher)
		longjmp(*fake_stop_catcher, (int)s + 1);
	fail_msg("hv_stop(%d) with no catcher; console:\n%s", (int)s, text);
	abort();
}
