// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vlapic_inject.c - a foreign guest's vLAPIC events into
 * the VMCB at each entry (hv/svm/vlapic_inject.c) together with the exits
 * that answer them, in the run loop's order (exit, handler, entry): NMI
 * windows by single step, never V_IRQ (audit B1, B4), and the CR8-write
 * intercept while TPR holds an interrupt back (C1). TCG delivers NMIs and
 * TPR as fast as the host runs, so only this shows the waits. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/svm/exit.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

#define NMI_EVENT (VEC_NMI | EVENTINJ_TYPE_NMI | EVENTINJ_VALID)
#define IRET_RIP 0x200000ULL /* the NMI handler's IRET */
#define BACK_RIP 0x300000ULL /* where it returns */
#define CODE 0x8000ULL /* guest code inside the fixture's memory */

static struct vcpu *v;

static int setup(void **s)
{
	fx_cmocka_setup(s);
	v = fx_v[0];
	fx_platform(v);
	v->lapic.svr = APIC_SVR_ENABLE | 0xff;
	return 0;
}

/* An exit at rip, dispatched as the run loop does. */
static enum exit_action exit_at(u64 code, u64 rip, u64 info1)
{
	fx_exit(v, code, info1, 0);
	v->vmcb->save.rip = rip;
	return exit_dispatch(v);
}

static u64 rflags(void)
{
	return v->vmcb->save.rflags;
}

/* An NMI in service (injected earlier, IRET intercept on). */
static void nmi_in_service(void)
{
	v->lapic.c.nmi_masked = true;
	vmcb_set_intercept(v->vmcb, INTERCEPT_IRET);
	v->vmcb->save.rflags = RFLAGS_FIXED; /* IF=0 in the handler */
}

static void post_nmi(void)
{
	vlapic_deliver(&v->lapic, APIC_DM_NMI, 0, false);
}

/* B1: the NMI is posted after the IRET exit (its kick is an INTR exit
 * that comes before the IRET retired). Every entry while it waits
 * single-steps (TF|RF), so it goes at the first entry after the IRET,
 * not at some unrelated exit. */
static void test_nmi_after_iret_exit(void **s)
{
	(void)s;
	nmi_in_service();
	assert_int_equal(exit_at(VMEXIT_IRET, IRET_RIP, 0), EXIT_RESUME);
	vlapic_inject_pending(v);
	assert_false(rflags() & RFLAGS_TF); /* nothing waits: no step */
	assert_int_equal(v->vmcb->control.event_inj, 0);
	/* The NMI arrives; its kick exits before the IRET ran. */
	post_nmi();
	assert_int_equal(exit_at(VMEXIT_INTR, IRET_RIP, 0), EXIT_RESUME);
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj, 0); /* still masked */
	assert_true(rflags() & RFLAGS_TF);
	assert_true(rflags() & RFLAGS_RF);
	assert_false(v->vmcb->control.v_intr & V_IRQ); /* IF=0: useless */
	/* Another exit before the IRET (the host timer): stepping still. */
	assert_int_equal(exit_at(VMEXIT_INTR, IRET_RIP, 0), EXIT_RESUME);
	vlapic_inject_pending(v);
	assert_true(rflags() & RFLAGS_TF);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	/* The IRET ran (RFLAGS from the handler's frame, no TF) and the
	 * step's #DB exits: minhv's own, consumed. */
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	v->vmcb->save.rip = BACK_RIP;
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_IF;
	v->vmcb->save.dr6 = DR6_ACTIVE_LOW | DR6_BS;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_int_equal(v->vmcb->save.dr6, DR6_ACTIVE_LOW);
	assert_int_equal(rflags(), RFLAGS_FIXED | RFLAGS_IF);
	/* The next entry delivers it, and watches its IRET. */
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj, NMI_EVENT);
	assert_true(vmcb_has_intercept(v->vmcb, INTERCEPT_IRET));
	assert_false(rflags() & RFLAGS_TF);
}

static bool fault_intercepts(bool on)
{
	for (u8 vec = VEC_NP; vec <= VEC_PF; vec++)
		if (vmcb_has_intercept(v->vmcb, INTERCEPT_EXCEPTION(vec)) != on)
			return false;
	return true;
}

/* B2: the stepped IRET faults (a bad CS in its frame). While the step is
 * armed an IRET's faults exit, and the fault goes to the guest with the
 * guest's TF and RF in its frame, not minhv's: a leaked TF survived the
 * guest's #GP handler and gave it a spurious #DB (issue 24). */
static void test_nmi_step_iret_faults(void **s)
{
	(void)s;
	nmi_in_service();
	post_nmi();
	assert_int_equal(exit_at(VMEXIT_IRET, IRET_RIP, 0), EXIT_RESUME);
	vlapic_inject_pending(v);
	assert_true(rflags() & RFLAGS_TF);
	assert_true(fault_intercepts(true));
	/* The IRET #GPs, error code the bad selector. */
	assert_int_equal(exit_at(VMEXIT_EXCP_GP, IRET_RIP, 0x28), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj,
			 VEC_GP | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID |
				 EVENTINJ_EV | (0x28ULL << 32));
	assert_int_equal(rflags() & (RFLAGS_TF | RFLAGS_RF), 0);
	assert_false(v->lapic.c.nmi_step);
	assert_true(fault_intercepts(false));
	/* Its entry: the #GP goes in with no step over it. */
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj & 0xff, VEC_GP);
	assert_false(rflags() & RFLAGS_TF);
	/* Back at the IRET, the step again; now a #PF on its stack. */
	assert_int_equal(exit_at(VMEXIT_INTR, IRET_RIP, 0), EXIT_RESUME);
	vlapic_inject_pending(v);
	assert_true(rflags() & RFLAGS_TF);
	fx_exit(v, VMEXIT_EXCP_PF, 0x2, 0xdead000);
	v->vmcb->save.rip = IRET_RIP;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.cr2, 0xdead000);
	assert_int_equal(v->vmcb->control.event_inj & 0xff, VEC_PF);
	assert_int_equal(v->vmcb->control.event_inj >> 32, 2);
	assert_false(rflags() & RFLAGS_TF);
	assert_true(fault_intercepts(false));
	/* With no step armed these exceptions are not intercepted: an exit
	 * for one is a bug, and stops the guest. */
	assert_int_equal(exit_at(VMEXIT_EXCP_GP, IRET_RIP, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "unexpected exit 0x4d"));
}

/* B4: an NMI held only by a MOV-SS shadow with IF=0 gets its window: a
 * single step, not V_IRQ (which needs IF=1 and would never open). After
 * the stepped instruction, TF and RF go (the guest had neither) and the
 * NMI is injected. */
static void test_nmi_in_movss_shadow_if0(void **s)
{
	(void)s;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->save.rflags = RFLAGS_FIXED; /* IF=0 */
	v->vmcb->control.int_shadow = INT_SHADOW;
	post_nmi();
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_false(v->vmcb->control.v_intr & V_IRQ);
	assert_false(vmcb_has_intercept(v->vmcb, INTERCEPT_VINTR));
	assert_int_equal(rflags(), RFLAGS_FIXED | RFLAGS_TF | RFLAGS_RF);
	/* One instruction later: the step's #DB, shadow over. */
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	v->vmcb->save.rip = FX_RIP + 3;
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_TF; /* RF cleared by CPU */
	v->vmcb->control.int_shadow = 0;
	v->vmcb->save.dr6 = DR6_ACTIVE_LOW | DR6_BS;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(rflags(), RFLAGS_FIXED);
	assert_int_equal(v->vmcb->control.event_inj, 0); /* no guest #DB */
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj, NMI_EVENT);
}

/* The stepped instruction was itself intercepted (sti; hlt in the NMI's
 * way: HLT exits): it completed, the window is open, and the TF was
 * minhv's: no single-step #DB for the guest. */
static void test_nmi_step_ends_at_insn_exit(void **s)
{
	(void)s;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_IF;
	v->vmcb->control.int_shadow = INT_SHADOW; /* after STI */
	post_nmi();
	vlapic_inject_pending(v);
	assert_true(rflags() & RFLAGS_TF);
	/* CPUID (an instruction minhv completes) at the stepped RIP. */
	assert_int_equal(exit_at(VMEXIT_CPUID, FX_RIP, 0), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, FX_RIP + 2);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_int_equal(rflags(), RFLAGS_FIXED | RFLAGS_IF);
	assert_false(v->lapic.c.nmi_step);
	v->vmcb->control.int_shadow = 0;
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj, NMI_EVENT);
}

/* An event injected at this entry (EXITINTINFO's) holds the NMI: no TF
 * (it would be pushed into that event's frame), but an exit right after
 * its delivery (a self IPI); and a step armed earlier is taken back. */
static void test_nmi_behind_injected_event(void **s)
{
	const u64 irq = 0x30 | EVENTINJ_VALID;

	(void)s;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_IF;
	v->vmcb->control.event_inj = irq;
	post_nmi();
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj, irq);
	assert_false(rflags() & RFLAGS_TF);
	assert_int_equal(fx_self_kicks, 1);
	/* Delivered; the next entry injects the NMI. */
	fx_exit(v, VMEXIT_INTR, 0, 0);
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj, NMI_EVENT);
	/* A step armed in a shadow, then an exit before the instruction
	 * ran whose EXITINTINFO (an exception being delivered) is
	 * re-injected: the TF is taken back. */
	v->lapic.c.nmi_masked = false;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->save.rflags = RFLAGS_FIXED;
	v->vmcb->control.int_shadow = INT_SHADOW;
	post_nmi();
	vlapic_inject_pending(v);
	assert_true(rflags() & RFLAGS_TF);
	fx_exit(v, VMEXIT_NPF, 0, 0);
	v->vmcb->control.exit_int_info = VEC_GP | EVENTINJ_TYPE_EXCEPTION |
					 EVENTINJ_VALID;
	vcpu_reinject_event(v);
	vlapic_inject_pending(v);
	assert_int_equal(rflags(), RFLAGS_FIXED);
	assert_false(v->lapic.c.nmi_step);
	assert_int_equal(fx_self_kicks, 2);
}

/* The NMI window's step armed (STI's shadow) with an interrupt pending:
 * no offer beside the step, which a guest with IF=1 could take before the
 * stepped instruction, with minhv's TF in its frame; the interrupt stays
 * requested, out of service. The entry after the step's #DB injects the
 * NMI and offers the interrupt. */
static void test_nmi_step_holds_offer(void **s)
{
	(void)s;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_IF;
	v->vmcb->control.int_shadow = INT_SHADOW;
	post_nmi();
	vlapic_set_irr(&v->lapic, 0x41, false);
	vlapic_inject_pending(v);
	assert_true(rflags() & RFLAGS_TF);
	assert_false(v->vmcb->control.v_intr & V_IRQ);
	assert_int_equal(v->lapic.isr[2], 0);
	assert_int_equal(vlapic_pending_vector(&v->lapic), 0x41);
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	v->vmcb->save.rip = FX_RIP + 1;
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_IF | RFLAGS_TF;
	v->vmcb->control.int_shadow = 0;
	v->vmcb->save.dr6 = DR6_ACTIVE_LOW | DR6_BS;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.event_inj, NMI_EVENT);
	assert_int_equal(v->vmcb->control.v_intr &
				 (V_IRQ | V_IGN_TPR | V_INTR_VECTOR(0xff)),
			 V_IRQ | V_INTR_VECTOR(0x41));
	assert_int_equal(v->lapic.isr[2], 1u << (0x41 & 31)); /* acked */
}

/* A passed TSC deadline written with IF=1: the WRMSR exit itself offers
 * the timer's vector (V_IRQ, in service, no EVENTINJ). A higher vector
 * posted before the entry replaces it there: the timer's goes back into
 * IRR, not left in service undelivered. */
static void test_deadline_offer_replaced_at_entry(void **s)
{
	(void)s;
	v->lapic.cfg.tsc_deadline = true;
	fake_tsc_set(1000, 1); /* the guest TSC past the deadline of 1 */
	assert_int_equal(vlapic_reg_write(&v->lapic, APIC_REG_LVT_TIMER,
					  (APIC_TIMER_TSC_DEADLINE << 17) |
						  0x50),
			 0);
	v->lapic.pending = 0;
	/* The VCPU_SELF_TICK-th such fire also takes the watchdog's tick
	 * (a host timer interrupt QEMU lost would never come). */
	v->lapic.fired = VCPU_SELF_TICK - 1;
	v->tick = 0;
	fx_msr(MSR_TSC_DEADLINE, true, 1);
	assert_int_equal(v->tick, 1);
	assert_int_equal(v->vmcb->save.rip, FX_RIP + 2);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_int_equal(v->vmcb->control.v_intr &
				 (V_IRQ | V_IGN_TPR | V_INTR_PRIO(0xf) |
				  V_INTR_VECTOR(0xff)),
			 V_IRQ | V_INTR_PRIO(5) | V_INTR_VECTOR(0x50));
	assert_int_equal(v->lapic.isr[2], 1u << (0x50 & 31));
	vlapic_set_irr(&v->lapic, 0x61, false);
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.v_intr & V_INTR_VECTOR(0xff),
			 V_INTR_VECTOR(0x61));
	assert_int_equal(v->lapic.isr[2], 0); /* 0x50 out of service */
	assert_true(v->lapic.irr[2] & (1u << (0x50 & 31)));
	/* Taken (the CPU cleared V_IRQ); 0x50 waits for the EOI of 0x61. */
	v->vmcb->control.v_intr &= ~V_IRQ;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	assert_true(v->lapic.isr[3] & (1u << (0x61 & 31)));
	vlapic_eoi(&v->lapic);
	vlapic_inject_pending(v);
	assert_int_equal(v->vmcb->control.v_intr &
				 (V_IRQ | V_INTR_VECTOR(0xff)),
			 V_IRQ | V_INTR_VECTOR(0x50));
}

/* The guest single-steps itself: its own #DB comes anyway; minhv adds no
 * TF of its own and reflects that #DB. */
static void test_nmi_guest_tf(void **s)
{
	(void)s;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_TF;
	v->vmcb->control.int_shadow = INT_SHADOW;
	post_nmi();
	vlapic_inject_pending(v);
	assert_false(v->lapic.c.nmi_step);
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_TF;
	v->vmcb->save.dr6 = DR6_ACTIVE_LOW | DR6_BS;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj,
			 VEC_DB | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID);
	assert_true(rflags() & RFLAGS_TF);
}

/* C1: TPR (written through CR8, V_TPR) holds vector 0x51 back: the entry
 * sets the CR8-write intercept, and the guest lowering CR8 exits, so the
 * next entry offers it (V_IRQ, its class as the priority). Without the intercept the write would not exit
 * and 0x51 would wait for an unrelated exit. */
static void test_cr8_lowered_delivers(void **s)
{
	struct vmcb *vm;

	(void)s;
	vm = v->vmcb;
	g_features.decode_assists = g_features.nrips = true;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	vm->control.v_intr = V_INTR_MASKING | 5; /* the guest wrote CR8 = 5 */
	vm->save.rflags = RFLAGS_FIXED | RFLAGS_IF;
	vlapic_set_irr(&v->lapic, 0x51, false);
	vlapic_inject_pending(v);
	assert_int_equal(v->lapic.tpr, 0x50);
	assert_int_equal(vm->control.event_inj, 0);
	assert_true(vmcb_has_intercept(vm, INTERCEPT_CR_WRITE(8)));
	assert_false(vm->control.v_intr & V_IRQ);
	/* mov %rcx,%cr8 with RCX = 4, decode assist: GPR 1. */
	fx_exit(v, VMEXIT_CR8_WRITE, BIT(63) | 1, 0);
	v->gprs.rcx = 4;
	vm->control.next_rip = FX_RIP + 4;
	vm->control.clean = VMCB_CLEAN_ALL;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(vm->save.rip, FX_RIP + 4);
	assert_int_equal(v->lapic.tpr, 0x40);
	assert_int_equal(vm->control.v_intr & V_TPR_MASK, 4);
	assert_false(vm->control.clean & VMCB_CLEAN_TPR);
	vlapic_inject_pending(v);
	assert_int_equal(vm->control.event_inj, 0);
	assert_int_equal(vm->control.v_intr &
				 (V_IRQ | V_IGN_TPR | V_INTR_PRIO(0xf) |
				  V_INTR_VECTOR(0xff)),
			 V_IRQ | V_INTR_PRIO(5) | V_INTR_VECTOR(0x51));
	assert_false(vmcb_has_intercept(vm, INTERCEPT_CR_WRITE(8)));
}

/* Without decode assists (TCG, nested KVM): the bytes at RIP, 64-bit
 * MOV CR8 and 32-bit LOCK MOV CR0 (AltMovCr8); bits 63:4 set are #GP. */
static void test_cr8_write_decoded(void **s)
{
	struct vmcb *vm;

	(void)s;
	vm = v->vmcb;
	fx_long_mode_pt(v);
	fx_put(CODE, "\x44\x0f\x22\xc3", 4); /* mov %rbx,%cr8 */
	v->gprs.rbx = 7;
	assert_int_equal(exit_at(VMEXIT_CR8_WRITE, CODE, 0), EXIT_RESUME);
	assert_int_equal(vm->save.rip, CODE + 4);
	assert_int_equal(v->lapic.tpr, 0x70);
	assert_int_equal(vm->control.v_intr & V_TPR_MASK, 7);
	v->gprs.rbx = 0x10;
	assert_int_equal(exit_at(VMEXIT_CR8_WRITE, CODE, 0), EXIT_RESUME);
	assert_int_equal(vm->control.event_inj,
			 VEC_GP | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID |
				 EVENTINJ_EV);
	assert_int_equal(vm->save.rip, CODE);
	assert_int_equal(v->lapic.tpr, 0x70);
	/* 32-bit protected mode, paging off. */
	vm->save.efer &= ~(EFER_LMA | EFER_LME);
	vm->save.cr0 = CR0_PE | CR0_ET;
	vm->save.cs.attrib = 0xc9b;
	fx_put(CODE, "\xf0\x0f\x22\xc3", 4); /* lock mov %ebx,%cr0 */
	v->gprs.rbx = 2;
	assert_int_equal(exit_at(VMEXIT_CR8_WRITE, CODE, 0), EXIT_RESUME);
	assert_int_equal(vm->save.rip, CODE + 4);
	assert_int_equal(v->lapic.tpr, 0x20);
	/* Anything else at RIP: the guest stops, saying so. */
	fx_put(CODE, "\x90\x90\x90\x90", 4);
	assert_int_equal(exit_at(VMEXIT_CR8_WRITE, CODE, 0), EXIT_LEAVE);
	assert_non_null(strstr(fx_g->stop_reason, "CR8 write"));
}

int main(void)
{
#define T(f) cmocka_unit_test_setup_teardown(f, setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_nmi_after_iret_exit),
		T(test_nmi_step_iret_faults),
		T(test_nmi_in_movss_shadow_if0),
		T(test_nmi_step_ends_at_insn_exit),
		T(test_nmi_behind_injected_event),
		T(test_nmi_step_holds_offer),
		T(test_deadline_offer_replaced_at_entry),
		T(test_nmi_guest_tf),
		T(test_cr8_lowered_delivers),
		T(test_cr8_write_decoded),
	};
	return cmocka_run_group_tests_name("vlapic_inject", tests, NULL, NULL);
}
