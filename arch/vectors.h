/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/vectors.h - exception vector numbers (AMD APM vol 2 8.2, table 8-1;
 * Intel SDM vol 3A 6.3.1), for the host IDT (arch/idt.h) and for events a
 * guest is given through EVENTINJ (arch/vmcb.h), which both include this. */
#ifndef MINHV_ARCH_VECTORS_H
#define MINHV_ARCH_VECTORS_H

#define VEC_DE 0 /* divide error */
#define VEC_DB 1 /* debug */
#define VEC_NMI 2
#define VEC_BP 3 /* INT3 */
#define VEC_OF 4 /* INTO */
#define VEC_UD 6 /* invalid opcode */
#define VEC_NM 7 /* device not available */
#define VEC_DF 8 /* double fault */
#define VEC_TS 10 /* invalid TSS */
#define VEC_NP 11 /* segment not present */
#define VEC_SS 12 /* stack fault */
#define VEC_GP 13 /* general protection */
#define VEC_PF 14 /* page fault */
#define VEC_MF 16 /* x87 floating point */
#define VEC_AC 17 /* alignment check */
#define VEC_MC 18 /* machine check */
#define VEC_XM 19 /* SIMD floating point */
#define VEC_NR_EXCEPTIONS 32 /* 0..31 are reserved for exceptions */

#endif
