/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/idt.h - the interrupt descriptor table and trap frame.
 * Every vector enters one assembly stub (arch/isr.asm) that builds a
 * struct trap_frame and calls trap_dispatch(), a fixed symbol the layer
 * above arch provides together with idt_register() and trap_fatal(). */
#ifndef MINHV_ARCH_IDT_H
#define MINHV_ARCH_IDT_H

#include "arch/types.h"
#include "arch/vectors.h"

struct trap_frame {
	u64 r15, r14, r13, r12, r11, r10, r9, r8;
	u64 rbp, rdi, rsi, rdx, rcx, rbx, rax;
	u64 vector, error_code;
	u64 rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

typedef void (*trap_handler_t)(struct trap_frame *f);

/* Exception vectors (VEC_NMI, VEC_DF, VEC_MC, ...): arch/vectors.h. Vectors minhv uses for its own interrupts (0x20..0xff are free). */
#define VEC_TIMER 0xf0 /* LAPIC timer (watchdog) */
#define VEC_IPI_CALL 0xf1 /* cross-CPU function call */
#define VEC_IPI_WAKE 0xf2 /* wake a parked CPU */
#define VEC_IPI_TEST 0xf3 /* IPI tests and benchmarks */
#define VEC_SPURIOUS 0xff

/* Build the IDT once (boot CPU); load it on each CPU. */
void idt_init(void);
void idt_load(void);
/* Handler for a vector >= 32 (or NMI). Replaces any previous one. */
void idt_register(u8 vector, trap_handler_t h);
/* Called (directly) by arch/isr.asm for every vector. It must make no
 * indirect call before the CPU's speculation controls are back in force:
 * a direct call is the only way in. */
void trap_dispatch(struct trap_frame *f);
/* Print CPU, vector, error code, registers and a frame-pointer stack
 * trace of a fatal trap, then stop the machine with the fail status. */
_Noreturn void trap_fatal(struct trap_frame *f, const char *why);

#endif
