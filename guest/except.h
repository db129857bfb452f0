/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/except.h - the guest's IDT and the exception-expect helpers
 * (after kvm-unit-tests' test_for_exception): run a function, learn which
 * exception it raised, carry on. */
#ifndef MINHV_GUEST_EXCEPT_H
#define MINHV_GUEST_EXCEPT_H

#include "lib/types.h"

#define DE_VECTOR 0
#define DB_VECTOR 1
#define BP_VECTOR 3
#define UD_VECTOR 6
#define DF_VECTOR 8
#define GP_VECTOR 13
#define PF_VECTOR 14
#define NO_EXCEPTION (-1)

/* What isr.asm pushes, lowest address first. */
struct exc_frame {
	u64 r15, r14, r13, r12, r11, r10, r9, r8, rbp, rdi, rsi, rdx, rcx, rbx,
		rax;
	u64 vector, error_code;
	u64 rip, cs, rflags, rsp, ss; /* pushed by the CPU */
};

struct jmpbuf {
	u64 rbx, rbp, r12, r13, r14, r15, rsp, rip;
};

int guest_setjmp(struct jmpbuf *jb) __attribute__((returns_twice));
_Noreturn void guest_longjmp(struct jmpbuf *jb, int val);

/* Load the IDT on this vCPU (entry.asm does it on every vCPU). */
void idt_load(void);
void exception_handler(struct exc_frame *f);

/* Run fn(arg) on this vCPU. Returns the vector of the first exception it
 * raised (*error_code gets the error code, when not NULL) or NO_EXCEPTION. */
int catch_exception(void (*fn)(void *), void *arg, u64 *error_code);

static inline bool test_for_exception(int vector, void (*fn)(void *), void *arg)
{
	return catch_exception(fn, arg, NULL) == vector;
}

/* RDMSR/WRMSR that survive a #GP: return NO_EXCEPTION or the vector. */
int rdmsr_checked(u32 msr, u64 *val);
int wrmsr_checked(u32 msr, u64 val);

const char *exception_name(unsigned int vector);

#endif
