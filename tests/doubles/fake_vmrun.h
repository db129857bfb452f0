/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/doubles/fake_vmrun.h - a test double for the world switch: C
 * versions of arch/svm.h's svm_vmrun() and the other SVM instructions that
 * replay a scripted sequence of #VMEXITs, so the run loop
 * (hv/svm/vcpu_run.c), guest creation and teardown and the vLAPIC entry
 * path run in a unit test as they run on the CPU. Each VMRUN records what
 * the guest was entered with (VMCB, GPRs, host IF), takes the event in
 * EVENTINJ and the virtual interrupt of V_IRQ when the guest can take it,
 * lets the step's guest change its state, and writes the step's
 * exit into the VMCB. A VMRUN beyond the script fails the test: a loop
 * that should have left did not. (tests/unit/test_svm_stub.c runs the
 * real stub, arch/svm.asm, against tests/doubles/fake_svm.c instead.) */
#ifndef MINHV_TESTS_DOUBLES_FAKE_VMRUN_H
#define MINHV_TESTS_DOUBLES_FAKE_VMRUN_H

#include "arch/svm.h"
#include "arch/vmcb.h"

/* One step of the script: the guest's run from a VMRUN to its #VMEXIT. */
struct fake_exit {
	u64 code; /* EXITCODE, VMEXIT_* */
	u64 info1, info2; /* EXITINFO1, EXITINFO2 */
	/* EXITINTINFO: an event whose delivery this exit interrupted (APM
	 * 15.7.2); with it, the event of EVENTINJ counts as not delivered. */
	u64 int_info;
	u64 next_rip; /* NRIP (0: the CPU wrote none) */
	u64 rip; /* RIP at the exit (0: where the guest was entered) */
	/* The guest's own changes up to the exit (RAX, GPRs, RFLAGS, V_IRQ
	 * as the CPU writes it back, ...), called with the exit already in
	 * the VMCB and the step's arg; NULL: none. */
	void (*guest)(struct vmcb *vmcb, struct svm_gprs *gprs, u64 arg);
	u64 arg;
	/* The guest exits before any instruction boundary where it could
	 * take V_IRQ (else the CPU takes it at entry when it may). */
	bool hold_virq;
	/* The host timer's interrupt is pending at the exit (an INTR exit,
	 * or one that came while the host handled another): its handler
	 * (fake_idt[VEC_TIMER], tests/doubles/fake_trap.h) runs at the
	 * stub's STGI, before svm_vmrun() returns. */
	bool tick;
	/* What happens meanwhile elsewhere (another CPU stops the guest,
	 * onlines a vCPU, ...), after the exit and the tick, before the loop
	 * sees the exit; NULL: nothing. */
	void (*then)(void);
};

/* What one VMRUN was entered with. */
struct fake_entry {
	struct vmcb vmcb; /* as VMRUN read it (EVENTINJ still in it) */
	struct svm_gprs gprs;
	hpa_t vmcb_hpa;
	u64 host_flags; /* svm_host.flags: SPEC_SWAP, RSB_FILL */
	bool irq_enabled; /* host IF at the call (the stub wants 0) */
	unsigned cpu; /* the fake CPU that ran it */
};

#define FAKE_VMRUN_MAX 64

/* Replay steps[0..n-1] (copied) from the next VMRUN on; clears the record
 * of entries. */
void fake_vmrun_script(const struct fake_exit *steps, unsigned n);
/* VMRUNs since fake_vmrun_script(), and what the i-th was entered with. */
unsigned fake_vmrun_count(void);
const struct fake_entry *fake_vmrun_entry(unsigned i);
/* VMSAVEs of the host area, VMLOADs, and whether GIF is set now. */
extern unsigned fake_vmsave_count, fake_vmload_count;
extern bool fake_vmrun_gif;
void fake_vmrun_reset(void);
/* Virtual interrupts taken (V_IRQ cleared at entry) since the reset, and
 * the last one's vector. */
extern unsigned fake_virq_taken;
extern u8 fake_virq_last;

#endif
