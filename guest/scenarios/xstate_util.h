/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/scenarios/xstate_util.h - what the xstate/debug-register scenarios
 * share: CR4.OSFXSR/OSXSAVE on where CPUID has them, XGETBV/XSETBV, the 16
 * YMM (or XMM) registers to/from memory, DR0-DR7 (SDM vol 1 ch. 13). */
#ifndef MINHV_GUEST_SCENARIOS_XSTATE_UTIL_H
#define MINHV_GUEST_SCENARIOS_XSTATE_UTIL_H

#include "guest/x86.h"

#define CR4_OSFXSR (1ull << 9)
#define CR4_OSXSAVE (1ull << 18)
#define CPUID1_ECX_XSAVE (1u << 26)
#define CPUID1_ECX_AVX (1u << 28)
#define XCR0_X87 1ull
#define XCR0_SSE 2ull
#define XCR0_AVX 4ull

static inline bool xs_has_xsave(void)
{
	return cpuid(1, 0).ecx & CPUID1_ECX_XSAVE;
}

static inline bool xs_has_avx(void)
{
	return xs_has_xsave() && (cpuid(1, 0).ecx & CPUID1_ECX_AVX);
}

/* SSE needs CR4.OSFXSR; XGETBV/XSETBV need CR4.OSXSAVE, which may be set
 * only where CPUID has XSAVE (else VMRUN/MOV CR4 fail on reserved bits). */
static inline void xs_enable(void)
{
	u64 cr4 = read_cr4() | CR4_OSFXSR;

	if (xs_has_xsave())
		cr4 |= CR4_OSXSAVE;
	__asm__ volatile("mov %0, %%cr4" : : "r"(cr4) : "memory");
}

static inline u64 xs_xgetbv(u32 xcr)
{
	u32 lo, hi;

	__asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(xcr));
	return lo | (u64)hi << 32;
}

static inline void xs_xsetbv(u32 xcr, u64 v)
{
	__asm__ volatile("xsetbv"
			 :
			 : "c"(xcr), "a"((u32)v), "d"((u32)(v >> 32))
			 : "memory");
}

#define XS_REGS(op, p)                                                       \
	__asm__ volatile(                                                    \
		op " %%xmm0, 0x000(%0)\n\t" op " %%xmm1, 0x020(%0)\n\t" op   \
		   " %%xmm2, 0x040(%0)\n\t" op " %%xmm3, 0x060(%0)\n\t" op   \
		   " %%xmm4, 0x080(%0)\n\t" op " %%xmm5, 0x0a0(%0)\n\t" op   \
		   " %%xmm6, 0x0c0(%0)\n\t" op " %%xmm7, 0x0e0(%0)\n\t" op   \
		   " %%xmm8, 0x100(%0)\n\t" op " %%xmm9, 0x120(%0)\n\t" op   \
		   " %%xmm10, 0x140(%0)\n\t" op " %%xmm11, 0x160(%0)\n\t" op \
		   " %%xmm12, 0x180(%0)\n\t" op " %%xmm13, 0x1a0(%0)\n\t" op \
		   " %%xmm14, 0x1c0(%0)\n\t" op " %%xmm15, 0x1e0(%0)"        \
		:                                                            \
		: "r"(p)                                                     \
		: "memory")
#define YS_REGS(op, p)                                                       \
	__asm__ volatile(                                                    \
		op " %%ymm0, 0x000(%0)\n\t" op " %%ymm1, 0x020(%0)\n\t" op   \
		   " %%ymm2, 0x040(%0)\n\t" op " %%ymm3, 0x060(%0)\n\t" op   \
		   " %%ymm4, 0x080(%0)\n\t" op " %%ymm5, 0x0a0(%0)\n\t" op   \
		   " %%ymm6, 0x0c0(%0)\n\t" op " %%ymm7, 0x0e0(%0)\n\t" op   \
		   " %%ymm8, 0x100(%0)\n\t" op " %%ymm9, 0x120(%0)\n\t" op   \
		   " %%ymm10, 0x140(%0)\n\t" op " %%ymm11, 0x160(%0)\n\t" op \
		   " %%ymm12, 0x180(%0)\n\t" op " %%ymm13, 0x1a0(%0)\n\t" op \
		   " %%ymm14, 0x1c0(%0)\n\t" op " %%ymm15, 0x1e0(%0)"        \
		:                                                            \
		: "r"(p)                                                     \
		: "memory")

/* 16 registers of 32 bytes; XMM only fills the low 16 of each. */
static inline void xs_store(u8 *buf, bool ymm)
{
	if (ymm)
		YS_REGS("vmovdqu", buf);
	else
		XS_REGS("movdqu", buf);
}

/* Loads: the same instructions with the operands swapped. */
static inline void xs_load(const u8 *buf, bool ymm)
{
	if (ymm)
		__asm__ volatile(
			"vmovdqu 0x000(%0), %%ymm0\n\tvmovdqu 0x020(%0), %%ymm1\n\t"
			"vmovdqu 0x040(%0), %%ymm2\n\tvmovdqu 0x060(%0), %%ymm3\n\t"
			"vmovdqu 0x080(%0), %%ymm4\n\tvmovdqu 0x0a0(%0), %%ymm5\n\t"
			"vmovdqu 0x0c0(%0), %%ymm6\n\tvmovdqu 0x0e0(%0), %%ymm7\n\t"
			"vmovdqu 0x100(%0), %%ymm8\n\tvmovdqu 0x120(%0), %%ymm9\n\t"
			"vmovdqu 0x140(%0), %%ymm10\n\tvmovdqu 0x160(%0), %%ymm11\n\t"
			"vmovdqu 0x180(%0), %%ymm12\n\tvmovdqu 0x1a0(%0), %%ymm13\n\t"
			"vmovdqu 0x1c0(%0), %%ymm14\n\tvmovdqu 0x1e0(%0), %%ymm15"
			:
			: "r"(buf)
			: "memory");
	else
		__asm__ volatile(
			"movdqu 0x000(%0), %%xmm0\n\tmovdqu 0x020(%0), %%xmm1\n\t"
			"movdqu 0x040(%0), %%xmm2\n\tmovdqu 0x060(%0), %%xmm3\n\t"
			"movdqu 0x080(%0), %%xmm4\n\tmovdqu 0x0a0(%0), %%xmm5\n\t"
			"movdqu 0x0c0(%0), %%xmm6\n\tmovdqu 0x0e0(%0), %%xmm7\n\t"
			"movdqu 0x100(%0), %%xmm8\n\tmovdqu 0x120(%0), %%xmm9\n\t"
			"movdqu 0x140(%0), %%xmm10\n\tmovdqu 0x160(%0), %%xmm11\n\t"
			"movdqu 0x180(%0), %%xmm12\n\tmovdqu 0x1a0(%0), %%xmm13\n\t"
			"movdqu 0x1c0(%0), %%xmm14\n\tmovdqu 0x1e0(%0), %%xmm15"
			:
			: "r"(buf)
			: "memory");
}

static inline u32 xs_mxcsr(void)
{
	u32 m;

	__asm__ volatile("stmxcsr %0" : "=m"(m));
	return m;
}

#define XS_DR_RW(n)                                                        \
	static inline u64 xs_read_dr##n(void)                              \
	{                                                                  \
		u64 v;                                                     \
		__asm__ volatile("mov %%dr" #n ", %0" : "=r"(v));          \
		return v;                                                  \
	}                                                                  \
	static inline void xs_write_dr##n(u64 v)                           \
	{                                                                  \
		__asm__ volatile("mov %0, %%dr" #n : : "r"(v) : "memory"); \
	}
XS_DR_RW(0)
XS_DR_RW(1)
XS_DR_RW(2)
XS_DR_RW(3)
XS_DR_RW(6)
XS_DR_RW(7)

#endif
