/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/types.h - the integer and address types of lib/types.h, under the
 * name arch/ and hv/ have always included; the test guest, which shares
 * nothing of arch/, includes lib/types.h itself. */
#ifndef MINHV_ARCH_TYPES_H
#define MINHV_ARCH_TYPES_H

#include "lib/types.h"

#endif
