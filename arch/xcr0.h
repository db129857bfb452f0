/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/xcr0.h - XCR0 bits, the XSAVE state components (SDM vol 1 13.1,
 * table 13-1); bit n is also CPUID leaf 0xD subleaf n. */
#ifndef MINHV_ARCH_XCR0_H
#define MINHV_ARCH_XCR0_H

#include "arch/types.h"

#define XCR0_X87 BIT(0)
#define XCR0_SSE BIT(1)
#define XCR0_AVX BIT(2)
#define XCR0_BNDREGS BIT(3)
#define XCR0_BNDCSR BIT(4)
#define XCR0_OPMASK BIT(5)
#define XCR0_ZMM_HI256 BIT(6)
#define XCR0_HI16_ZMM BIT(7)
#define XCR0_PKRU BIT(9)
#define XCR0_TILECFG BIT(17)
#define XCR0_TILEDATA BIT(18)
#define XCR0_AVX512 (XCR0_OPMASK | XCR0_ZMM_HI256 | XCR0_HI16_ZMM)

/* The legacy region and the XSAVE header: the smallest XSAVE area (SDM
 * vol 1 13.4); components 2 and up follow. */
#define XSAVE_LEGACY_HDR_SIZE 576

#endif
