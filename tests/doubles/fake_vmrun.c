// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/fake_vmrun.c - see fake_vmrun.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cr.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_trap.h"
#include "tests/doubles/fake_vmrun.h"

static struct fake_exit script[FAKE_VMRUN_MAX];
static unsigned script_n, runs;
static struct fake_entry entries[FAKE_VMRUN_MAX];
unsigned fake_vmsave_count, fake_vmload_count;
bool fake_vmrun_gif = true;
unsigned fake_virq_taken;
u8 fake_virq_last;

void fake_vmrun_reset(void)
{
	script_n = runs = 0;
	fake_virq_taken = fake_virq_last = 0;
	fake_vmsave_count = fake_vmload_count = 0;
	fake_vmrun_gif = true;
}

void fake_vmrun_script(const struct fake_exit *steps, unsigned n)
{
	assert_true(n <= FAKE_VMRUN_MAX);
	memcpy(script, steps, n * sizeof(*steps));
	script_n = n;
	runs = 0;
	fake_virq_taken = fake_virq_last = 0;
}

unsigned fake_vmrun_count(void)
{
	return runs;
}

const struct fake_entry *fake_vmrun_entry(unsigned i)
{
	assert_true(i < runs);
	return &entries[i];
}

/* The host timer's interrupt, taken at the stub's STGI on host state. */
static void take_tick(void)
{
	struct trap_frame f = { .vector = VEC_TIMER };

	if (!fake_idt[VEC_TIMER])
		fail_msg("svm_vmrun: a scripted tick, but no timer handler");
	fake_idt[VEC_TIMER](&f);
}

/* A virtual interrupt is taken at the first instruction boundary where
 * IF=1, no interrupt shadow, and V_IGN_TPR or V_INTR_PRIO above V_TPR
 * (APM vol 2 15.21.4): the CPU clears V_IRQ, which #VMEXIT writes back.
 * The guest's RFLAGS are left alone (the scripts set what they need). */
static void take_virq(struct vmcb *vm)
{
	u64 vi = vm->control.v_intr;

	if (!(vi & V_IRQ) || !(vm->save.rflags & RFLAGS_IF) ||
	    (vm->control.int_shadow & INT_SHADOW))
		return;
	if (!(vi & V_IGN_TPR) && ((vi >> 16) & 0xf) <= (vi & V_TPR_MASK))
		return;
	vm->control.v_intr &= ~V_IRQ;
	fake_virq_taken++;
	fake_virq_last = (u8)(vi >> 32);
}

/* CLGI ... VMRUN ... #VMEXIT ... STGI, as arch/svm.asm does it: entered
 * with IF=0, returns with IF=1 and GIF=1. */
void svm_vmrun(hpa_t vmcb_hpa, struct svm_gprs *gprs,
	       const struct svm_host *host)
{
	struct vmcb *vm = hpa_to_ptr(vmcb_hpa);
	unsigned cpu = fake_cpu_current();
	const struct fake_exit *s;
	struct fake_entry *e;

	if (runs >= script_n)
		fail_msg(
			"svm_vmrun: VMRUN %u beyond the script of %u exits (RIP %#llx)",
			runs + 1, script_n, (unsigned long long)vm->save.rip);
	s = &script[runs];
	e = &entries[runs++];
	memcpy(&e->vmcb, vm, sizeof(*vm));
	e->gprs = *gprs;
	e->vmcb_hpa = vmcb_hpa;
	e->host_flags = host->flags;
	e->irq_enabled = fake_cpus[cpu].irq_enabled;
	e->cpu = cpu;
	fake_trace_note("vmrun %u", runs);
	/* The event of EVENTINJ is taken (APM 15.20); an exit during its
	 * delivery hands it back in EXITINTINFO. */
	vm->control.event_inj &= ~(u64)EVENTINJ_VALID;
	if (!s->hold_virq)
		take_virq(vm);
	if (s->rip)
		vm->save.rip = s->rip;
	vm->control.exit_code = s->code;
	vm->control.exit_info1 = s->info1;
	vm->control.exit_info2 = s->info2;
	vm->control.exit_int_info = s->int_info;
	vm->control.next_rip = s->next_rip;
	if (s->guest)
		s->guest(vm, gprs, s->arg);
	/* STGI: interrupts back on, a pending one taken now. */
	fake_vmrun_gif = true;
	fake_cpus[cpu].irq_enabled = true;
	if (s->tick)
		take_tick();
	if (s->then)
		s->then();
}

void svm_vmload(hpa_t vmcb)
{
	(void)vmcb;
	fake_vmload_count++;
}

void svm_vmsave(hpa_t vmcb)
{
	(void)vmcb;
	fake_vmsave_count++;
}

void svm_stgi(void)
{
	fake_vmrun_gif = true;
}

void svm_clgi(void)
{
	fake_vmrun_gif = false;
}

void svm_invlpga(u64 va, u32 asid)
{
	fake_trace_note("invlpga %#llx %u", (unsigned long long)va, asid);
}
