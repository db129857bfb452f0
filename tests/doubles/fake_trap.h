/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/doubles/fake_trap.h - a double for what arch/idt.h asks of the
 * layer above (idt_register, trap_fatal) and for the image base symbol:
 * registered handlers are kept for the test to call, and trap_fatal()
 * records its reason and stops through the fake console's hv_stop(). */
#ifndef MINHV_TESTS_DOUBLES_FAKE_TRAP_H
#define MINHV_TESTS_DOUBLES_FAKE_TRAP_H

#include "arch/idt.h"

extern trap_handler_t fake_idt[256];
/* The last trap_fatal() reason, or NULL. */
extern const char *fake_trap_fatal_why;
void fake_trap_reset(void);

#endif
