// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/fake_trap.c - idt_register(), trap_fatal() and ImageBase
 * for unit tests (tests/doubles/fake_trap.h). */
#include "tests/doubles/fake_trap.h"
#include "hv/stop.h"

#include <string.h>

trap_handler_t fake_idt[256];
const char *fake_trap_fatal_why;
char ImageBase[16]; /* the linker's symbol in minhv.efi */

void idt_register(u8 vector, trap_handler_t h)
{
	fake_idt[vector] = h;
}

_Noreturn void trap_fatal(struct trap_frame *f, const char *why)
{
	(void)f;
	fake_trap_fatal_why = why;
	hv_stop(STOP_FAIL); /* the fake console's: longjmp or test failure */
}

void fake_trap_reset(void)
{
	memset(fake_idt, 0, sizeof(fake_idt));
	fake_trap_fatal_why = NULL;
}
