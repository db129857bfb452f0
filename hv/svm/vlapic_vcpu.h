/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/svm/vlapic_vcpu.h - the vLAPIC (hv/vlapic, a pure model) wired to the
 * vCPUs of a foreign guest: the APIC bus, event injection into the VMCB
 * and the waits of the run loop (vlapic_vcpu.c, vlapic_exit.c). Each is a
 * no-op for other guests. The model never touches the VMCB itself, as
 * KVM's lapic.c leaves EVENTINJ and V_IRQ to svm.c. */
#ifndef MINHV_HV_SVM_VLAPIC_VCPU_H
#define MINHV_HV_SVM_VLAPIC_VCPU_H

#include "arch/types.h"
#include "arch/vmcb.h"
#include "hv/vlapic/vlapic.h"

struct guest;
struct vcpu;

/* Before vCPU 0 runs: the APIC bus, the host timer, and every AP started
 * in wait-for-SIPI on its CPU. */
void vlapic_guest_start(struct guest *g);
/* The host LAPIC timer fired on v's CPU (called from the one timer
 * handler, hv/svm/vcpu_watchdog.c): wake v, re-arm before its next run. */
void vlapic_host_timer_fired(struct vcpu *v);
/* Arm the host timer for v's guest timer or host TSC until (0: none),
 * whichever is sooner, at most HOST_TIMER_MAX_MS ahead; nothing when
 * neither is set (vcpu_wait_turn()). */
void vlapic_host_timer_arm(struct vcpu *v, u64 until);
/* Run loop, top of each turn (interrupts on, may wait): INIT puts the vCPU
 * into wait-for-SIPI and it waits here; a SIPI starts it in real mode.
 * false when the guest is stopping. */
bool vlapic_before_run(struct vcpu *v);
/* Run loop, right before VMRUN (interrupts off; vlapic_inject.c): timers,
 * then an NMI into EVENTINJ, or its window when the guest cannot take it
 * now (a single step, or an exit right after the injected event); the
 * highest deliverable interrupt offered through V_IRQ; V_TPR
 * and the CR8-write intercept; the host timer. */
void vlapic_inject_pending(struct vcpu *v);
/* V_INTR as an offer of vector sets it, V_IRQ aside: V_INTR_VECTOR,
 * V_INTR_PRIO its class, V_IGN_TPR clear (the CPU holds the vector back
 * while V_TPR is not below its class, APM vol 2 15.21.4). */
static inline u64 vlapic_offer_bits(u64 v_intr, u8 vec)
{
	return (v_intr &
		~(V_IGN_TPR | V_INTR_PRIO(0xf) | V_INTR_VECTOR(0xff))) |
	       V_INTR_PRIO(vec >> 4) | V_INTR_VECTOR(vec);
}
/* Run loop, right after a #VMEXIT with V_IRQ still set (a vector offered
 * and not taken), before EXITINTINFO is re-injected and before any
 * handler: the vector out of service, back into IRR, V_IRQ withdrawn
 * (vlapic_exit.c). A taken one stays in service. */
void vlapic_exit_offer(struct vcpu *v);
/* vlapic_vcpu.c: arm the host timer for the guest timer's next expiry,
 * or on vCPU 0 the platform's poll when that is sooner; now is the host
 * TSC. */
void vlapic_host_timer_rearm(struct vcpu *v, u64 now);
/* Exit handlers: before an APIC register access (CR8 -> TPR, the time),
 * the next entry asked to look at everything. */
void vlapic_sync(struct vcpu *v);
/* The same before a register read: nothing for the next entry to do
 * (a timer it finds expired posts its vector, which asks for it). */
void vlapic_sync_read(struct vcpu *v);
/* Before a write of the register at xAPIC offset off: vlapic_sync()
 * without the time unless the register needs it
 * (vlapic_write_needs_time()). */
void vlapic_sync_write(struct vcpu *v, u32 off);
/* Its first half: the guest's CR8 writes (V_TPR) into TPR. */
void vlapic_sync_tpr(struct vcpu *v);
/* A foreign guest's vCPU, with the host TSC now: a THRE interrupt its
 * last UART write owes (platform_thre_tick(); idle: from HLT); on vCPU 0,
 * when the platform's poll time has come, the poll (hv/platform/irq.c:
 * the PIT, the RTC's interrupt, host console input). From the host
 * timer's tick and HLT. */
void vlapic_platform_tick(struct vcpu *v, u64 now, bool idle);
/* HLT (RIP already past it): wait until an event wakes the vCPU. false
 * when the guest is stopping, or when another vCPU is queued on this CPU
 * (v->se.why SCHED_BLOCK, v->hlt_wait: the wait goes on with
 * vlapic_hlt_resume() when the vCPU runs again). */
bool vlapic_hlt(struct vcpu *v);
bool vlapic_hlt_resume(struct vcpu *v);
/* #DB exit: true when it was minhv's own single step for an NMI window
 * (consumed); false to reflect it. */
bool vlapic_db_step(struct vcpu *v);
/* #NP, #SS, #GP or #PF exit while minhv's NMI-window step is armed
 * (intercepted only then): the stepped instruction faulted. The step ends
 * (TF and RF as the guest had them) and the fault is reflected with its
 * error code (and CR2). false when no step was armed. */
bool vlapic_step_fault(struct vcpu *v);
/* IA32_TSC_DEADLINE for the exit handler: 0, or E_NOT_MINE when not a
 * foreign guest. */
int vlapic_tsc_deadline_msr(struct vcpu *v, bool wr, u64 *val);
/* The exit handler's IA32_TSC_DEADLINE write with a deadline already
 * passed and the guest able to take the interrupt right after the WRMSR
 * (IF=1, no TF, no event injected or queued): the WRMSR completed and
 * the timer's vector offered through V_IRQ, no entry work (the two-step way costs a
 * vLAPIC evaluation at entry). false: nothing done, the caller goes on
 * with vlapic_tsc_deadline_msr(). */
bool vlapic_tsc_deadline_now(struct vcpu *v, u64 val);

#endif
