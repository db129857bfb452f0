/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/exits_fixture.h - what the exit-handler suites (test_exits*.c,
 * and test_s3.c, test_uart.c, test_devices.c for their port I/O) share on
 * top of svm_fixture.h: the RIP of every exit, the events they expect
 * injected, and IOIO's EXITINFO1 (APM vol 2 15.10.2). */
#ifndef MINHV_TESTS_UNIT_EXITS_FIXTURE_H
#define MINHV_TESTS_UNIT_EXITS_FIXTURE_H

#include "tests/unit/svm_fixture.h"

#define RIP0 FX_RIP
#define UD_EVENT (VEC_UD | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID)
#define GP_EVENT FX_GP_EVENT

#define IO(port, sz, in) (((u64)(port) << 16) | BIT(4 + (sz)) | ((in) ? 1 : 0))
/* REP OUTSB to COM1 with address size asz (bits 7-9). */
#define OUTSB(asz) (IO(0x3f8, 0, 0) | BIT(2) | BIT(3) | (asz))

#endif
