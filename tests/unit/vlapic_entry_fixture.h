/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/vlapic_entry_fixture.h - the rig of the vLAPIC entry suites
 * (test_vlapic_entry.c, test_vlapic_entry_timer.c): a multiboot guest whose
 * vCPU 0 has its vLAPIC software-enabled, run by the run loop over the
 * world-switch double (run_fixture.h), on a fake clock, with every start of
 * the host LAPIC timer counted and checked (interrupts off, host_at
 * stored first). */
#ifndef MINHV_TESTS_UNIT_VLAPIC_ENTRY_FIXTURE_H
#define MINHV_TESTS_UNIT_VLAPIC_ENTRY_FIXTURE_H

#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "tests/doubles/fake_vmrun.h"

#define VEC 0x41 /* a fixed interrupt from another CPU */
/* What an offer sets in V_INTR: V_IRQ, the class, the vector, the CPU
 * applying V_TPR (V_IGN_TPR clear). */
#define OFFER_MASK (V_IRQ | V_IGN_TPR | V_INTR_PRIO(0xf) | V_INTR_VECTOR(0xff))
#define OFFER(vec) (V_IRQ | V_INTR_PRIO((vec) >> 4) | V_INTR_VECTOR(vec))

/* The watchdog's tick: FALLBACK_TICKS, as nothing calibrates here. */
#define WD_TICKS 10000000u

extern struct guest *ve_g;
extern struct vcpu *ve_v;
extern u64 ve_now; /* the fake TSC */
extern unsigned ve_arms; /* host LAPIC timer starts */
extern u64 ve_wait_step; /* TSC that passes at each start */
extern u64 ve_last_init; /* the last start's count */
extern bool ve_post_at_start; /* post VEC at the next start */
extern bool ve_tick_at_start; /* each start's timer fires (after it) */

/* cmocka set-up and tear-down of the guest above. */
int ve_setup(void **s);
int ve_teardown(void **s);

/* Scripted exits' guest actions: RFLAGS.IF set / clear; `sti; hlt` (the
 * HLT exit in STI's shadow, IF=1). */
void ve_set_if(struct vmcb *vm, struct svm_gprs *r, u64 arg);
void ve_clear_if(struct vmcb *vm, struct svm_gprs *r, u64 arg);
void ve_sti_hlt(struct vmcb *vm, struct svm_gprs *r, u64 arg);
/* Another CPU sends VEC to vCPU 0 while it is out of the guest. */
void ve_post(void);
/* vCPU 0's x2APIC on, as the guest's WRMSR IA32_APIC_BASE would. */
void ve_x2apic_on(void);

/* The i-th VMRUN the double saw. */
const struct fake_entry *ve_entry(unsigned i);
/* isa-debug-exit, value 0: the guest passed and stopped after vmruns. */
void ve_check_passed(unsigned vmruns);
/* Run the guest over the n exits of script (fake_vmrun_script()); it
 * passes, after vmruns VMRUNs (ve_check_passed()). */
void ve_run_passed(const struct fake_exit *script, unsigned n, unsigned vmruns);
/* vec in vCPU 0's ISR. */
bool ve_in_service(u8 vec);
/* What the i-th VMRUN offered through V_INTR (OFFER_MASK's bits). */
u64 ve_offer_of(unsigned i);

#endif
