/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/doubles/fake_console.h - captures console output and turns hv_stop()
 * into a longjmp the test can catch, so stop paths are testable. */
#ifndef MINHV_TESTS_DOUBLES_FAKE_CONSOLE_H
#define MINHV_TESTS_DOUBLES_FAKE_CONSOLE_H

#include <setjmp.h>
#include <stdbool.h>

const char *fake_console_text(void);
void fake_console_clear(void);
/* True when the captured console contains needle. */
bool fake_console_has(const char *needle);
/* Bytes console_getc() returns next, as if typed (cleared with the
 * output by fake_console_clear()). */
void fake_console_input(const char *s);

/* console_trylock() fails while this is set (an NMI or #MC handler that
 * interrupted the lock's holder). */
extern bool fake_console_busy;

/* hv_stop(): if a catcher is armed, longjmp to it with status + 1;
 * otherwise the test fails. */
extern jmp_buf *fake_stop_catcher;
extern int fake_stop_status;
/* Runs stmt; evaluates to the stop status (0 pass, 1 fail) or -1 if the
 * statement returned without stopping. */
#define FAKE_CATCH_STOP(stmt)                  \
	({                                     \
		jmp_buf jb_;                   \
		int r_;                        \
		fake_stop_catcher = &jb_;      \
		if ((r_ = setjmp(jb_)) == 0) { \
			stmt;                  \
			r_ = -1;               \
		} else {                       \
			r_ = r_ - 1;           \
		}                              \
		fake_stop_catcher = NULL;      \
		r_;                            \
	})

#endif
