/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/svm_fixture.h - a guest with host-malloc'd memory and vCPUs
 * for exit-handler and hypercall tests, plus recording fakes of the SMP
 * plumbing (vcpu_launch, vcpu_kick, wakeups) and of the KTAP sink. */
#ifndef MINHV_TESTS_UNIT_SVM_FIXTURE_H
#define MINHV_TESTS_UNIT_SVM_FIXTURE_H

#include "hv/guest/guest.h"
#include "hv/svm/exit.h"

#define FX_MEM (1ULL << 20)
#define FX_VCPUS 4
#define FX_RIP 0x100000ULL /* RIP of every fx_exit() */
#define FX_GP_EVENT \
	(VEC_GP | EVENTINJ_TYPE_EXCEPTION | EVENTINJ_VALID | EVENTINJ_EV)

extern struct guest *fx_g;
extern struct vcpu *fx_v[FX_VCPUS];
extern unsigned fx_launches, fx_kicks, fx_reports;
extern unsigned fx_self_kicks; /* ipi_self_kick(): an exit right after entry */
extern unsigned int fx_waits_out; /* vcpu_wait_out() calls */
extern int fx_launch_ret;
extern int fx_wait_out_ret; /* what vcpu_wait_out() returns */
extern u32 fx_launch_state; /* the target's state seen by vcpu_launch() */
extern char fx_report[512]; /* "name|result|diag" of the last report */

void fx_setup(void);
void fx_teardown(void);
/* Put a guest-memory byte string at gpa; returns gpa. */
u64 fx_put(u64 gpa, const void *src, size_t n);
/* Make vCPU v take exit `code` at FX_RIP with info1/info2; a vector
 * offered through V_IRQ (a vCPU with a vLAPIC, fx_platform()) is settled
 * as the run loop does: taken when the test cleared V_IRQ, else given
 * back (EXITINTINFO set before the call). */
void fx_exit(struct vcpu *v, u64 code, u64 info1, u64 info2);
/* Count v's exit (its VMCB's exit code) and call its handler, as the run
 * loop does inline (exit_dispatch_fast(), hv/svm/exit.h). */
enum exit_action exit_dispatch(struct vcpu *v);
/* vCPU 0 takes exit `code` and it is dispatched. */
enum exit_action fx_run(u64 code, u64 info1, u64 info2);
/* RDMSR (wr false) or WRMSR of val by vCPU 0 at FX_RIP; it re-enters. */
void fx_msr(u32 msr, bool wr, u64 val);
/* vCPU 0 got #GP(0) and stayed at the instruction / carried on past its
 * 2 bytes with nothing injected. */
void fx_expect_gp(void);
void fx_expect_ok(void);
/* Give the guest the PC platform, vCPU v a vLAPIC (x2APIC-capable BSP). */
void fx_platform(struct vcpu *v);
/* 64-bit paging for vCPU v: the first 2 MiB identity-mapped (PML4 at
 * 0x1000, tables at 0x2000 and 0x3000), CR4.PAE. */
void fx_long_mode_pt(struct vcpu *v);
/* cmocka set-up/tear-down around fx_setup()/fx_teardown(). */
int fx_cmocka_setup(void **state);
int fx_cmocka_teardown(void **state);

#endif
