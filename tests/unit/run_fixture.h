/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/run_fixture.h - the machine the run-loop suites run guests
 * on: a page pool, fake CPUs with SVM enabled (struct svm_cpu each) and an
 * x2APIC, the cross-CPU call on threads (a vCPU started on CPU n runs
 * there), guest images (minhv's ELF64 test guest, an ELF32 multiboot
 * kernel), and the self-test hook that hands the test each new guest.
 * The world switch is tests/doubles/fake_vmrun.h's script. */
#ifndef MINHV_TESTS_UNIT_RUN_FIXTURE_H
#define MINHV_TESTS_UNIT_RUN_FIXTURE_H

#include "hv/guest/guest.h"
#include "hv/selftest_hook.h"
#include "tests/doubles/fake_vmrun.h"

#define RF_NCPUS 4
#define RF_POOL (32ULL << 20)
#define RF_MEM (8ULL << 20) /* guest memory */
#define RF_TSC_KHZ 1000000ULL /* the fake TSC's rate: 1 GHz */
#define RF_ENTRY 0x100000ULL /* every image's entry point */

/* Fresh machine: pool, CPUs 0..ncpus-1 online with SVM, the features of
 * an EPYC without the optional extras, options at their defaults, no
 * script, the TSC at 0 counting step cycles a read (step 0: frozen). */
void rf_setup(u32 ncpus, u64 step);
/* vcpu_watchdog_init(ms) (watchdog_ms=ms) with the TSC running, whatever
 * fake_rdtsc_hook says. */
void rf_watchdog_init(u32 ms);
/* Join every vCPU thread still running, free the pool. */
void rf_teardown(void);
/* Wait for the threads of vCPUs started on other CPUs. */
void rf_join(void);

/* Wait (up to 5 s) until a vCPU runs its loop on another CPU: false if
 * none came. */
bool rf_wait_vcpu_on(u32 cpu);
/* Parameters of a guest of `kind` with nr vCPUs over a built image. */
struct guest_params rf_params(enum guest_kind kind, u32 nr);

/* The guest a stage handed the self-test hook last (ST_GUEST_CREATED,
 * ST_GUEST_STOPPED), every stage seen in order, and a hook of the test's
 * own that runs at each stage (NULL: none). */
extern struct guest *rf_guest;
extern enum selftest_stage rf_stages[16];
extern unsigned rf_nstages;
extern void (*rf_stage_hook)(enum selftest_stage st, struct selftest_ctx *c);

/* ipi_self_kick() calls (an exit right after the next entry) and cross
 * calls sent to other CPUs. */
extern unsigned rf_self_kicks, rf_calls;

/* Scripted exits, for struct fake_exit initialisers. */
/* VMMCALL of hypercall nr: RAX = nr, RDI = a0 (below 2^48), RSI = a1. */
#define RF_HC(nr, a0, a1)                                               \
	{                                                               \
		.code = VMEXIT_VMMCALL, .guest = rf_guest_hc,           \
		.arg = (u64)(nr) | ((u64)(a1) << 8) | ((u64)(a0) << 16) \
	}
void rf_guest_hc(struct vmcb *vm, struct svm_gprs *r, u64 arg);
/* OUT of the byte val (AL) to port, a 1-byte instruction (EXITINFO2 is
 * the RIP after it, APM 15.10.2). */
#define RF_IOIO_SZ8 (1ULL << 4)
#define RF_OUTB(port, val)                                  \
	{                                                   \
		.code = VMEXIT_IOIO,                        \
		.info1 = ((u64)(port) << 16) | RF_IOIO_SZ8, \
		.guest = rf_guest_outb, .arg = (val)        \
	}
void rf_guest_outb(struct vmcb *vm, struct svm_gprs *r, u64 arg);
/* RDMSR of MSR arg (RCX). */
void rf_guest_rdmsr(struct vmcb *vm, struct svm_gprs *r, u64 arg);
/* Where the images keep a result name ("run.one") for HC_REPORT. */
#define RF_NAME_GPA (RF_ENTRY + 0x100)

#endif
