// SPDX-License-Identifier: GPL-2.0-only
/* guest/except.c - IDT for vectors 0-31 and the handler: an armed
 * catch_exception() gets the exception; otherwise it is reported and the
 * scenario (or the guest) ends. */
#include "guest/except.h"
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/smp.h"
#include "guest/x86.h"

#define KERNEL_CS 0x08

struct idt_entry {
	u16 off_lo, sel;
	u8 ist, type;
	u16 off_mid;
	u32 off_hi, zero;
} __attribute__((packed));
_Static_assert(sizeof(struct idt_entry) == 16, "64-bit gate");

extern const u64 isr_table[32];
static struct idt_entry idt[32];
static volatile u32 idt_ready;

void idt_load(void)
{
	struct {
		u16 limit;
		u64 base;
	} __attribute__((packed)) d = { sizeof(idt) - 1, (u64)(uintptr_t)idt };

	/* The first vCPU builds it; vCPUs start after that. */
	if (!idt_ready) {
		for (int v = 0; v < 32; v++) {
			u64 a = isr_table[v];

			idt[v] = (struct idt_entry){
				(u16)a,		KERNEL_CS,	0,
				0x8e, /* P, interrupt gate */
				(u16)(a >> 16), (u32)(a >> 32), 0
			};
		}
		idt_ready = 1;
	}
	__asm__ volatile("lidt %0" ::"m"(d));
}

static const char *const names[32] = {
	"#DE", "#DB", "NMI", "#BP", "#OF", "#BR", "#UD", "#NM",
	"#DF", "#09", "#TS", "#NP", "#SS", "#GP", "#PF", "#15",
	"#MF", "#AC", "#MC", "#XM", "#VE", "#CP", "#22", "#23",
	"#24", "#25", "#26", "#27", "#HV", "#VC", "#SX", "#31",
};

const char *exception_name(unsigned int vector)
{
	return vector < 32 ? names[vector] : "#??";
}

void exception_handler(struct exc_frame *f)
{
	struct vcpu_local *v = this_vcpu();
	u64 cr2;

	if (v->catch_armed) {
		v->catch_armed = false;
		v->caught_vector = (int)f->vector;
		v->caught_error = f->error_code;
		guest_longjmp(&v->catch_jb, 1);
	}
	__asm__ volatile("mov %%cr2, %0" : "=r"(cr2));
	printf("vCPU %u: unexpected %s (vector %llu) error %#llx at rip %#llx rsp %#llx cr2 %#llx\n",
	       smp_id(), exception_name((unsigned int)f->vector),
	       (unsigned long long)f->vector, (unsigned long long)f->error_code,
	       (unsigned long long)f->rip, (unsigned long long)f->rsp,
	       (unsigned long long)cr2);
	if (v->test_armed) {
		v->test_armed = false;
		guest_longjmp(&v->test_jb, 1);
	}
	hc_exit(3); /* nothing to return to: the guest ends */
}

int catch_exception(void (*fn)(void *), void *arg, u64 *error_code)
{
	struct vcpu_local *v = this_vcpu();

	v->caught_vector = NO_EXCEPTION;
	v->caught_error = 0;
	if (guest_setjmp(&v->catch_jb) == 0) {
		v->catch_armed = true;
		fn(arg);
		v->catch_armed = false;
	}
	if (error_code)
		*error_code = v->caught_error;
	return v->caught_vector;
}

struct msr_op {
	u32 msr;
	u64 val;
};

static void do_rdmsr(void *p)
{
	struct msr_op *op = p;

	op->val = rdmsr(op->msr);
}

static void do_wrmsr(void *p)
{
	struct msr_op *op = p;

	wrmsr(op->msr, op->val);
}

int rdmsr_checked(u32 msr, u64 *val)
{
	struct msr_op op = { msr, 0 };
	int vec = catch_exception(do_rdmsr, &op, NULL);

	*val = op.val;
	return vec;
}

int wrmsr_checked(u32 msr, u64 val)
{
	struct msr_op op = { msr, val };

	return catch_exception(do_wrmsr, &op, NULL);
}
