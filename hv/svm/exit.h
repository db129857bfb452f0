/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/svm/exit.h - the #VMEXIT handlers that exit_dispatch_fast() calls through
 * the exit table (hv/svm/exit_table.c); each says whether the vCPU
 * re-enters. */
#ifndef MINHV_HV_SVM_EXIT_H
#define MINHV_HV_SVM_EXIT_H

#include "hv/svm/vlapic_vcpu.h"
#include "hv/vcpu/vcpu.h"

typedef enum exit_action (*exit_handler_t)(struct vcpu *v);

/* One row of the exit table. */
struct exit_entry {
	u64 code; /* VMEXIT_* */
	const char *name; /* printed: "CPUID", "NPF", ... */
	exit_handler_t handler;
	u8 kind; /* enum exit_kind: the counter it bumps */
};

/* exit_table.c: codes below EXIT_DIRECT find their row through
 * exit_row_of[] (a byte each); every direct code has one (row 0, with
 * exit_unexpected(), for the codes minhv does not handle). */
#define EXIT_DIRECT 0x100
extern const struct exit_entry exit_rows[];
extern const u8 exit_row_of[EXIT_DIRECT];
/* Count the exit and call its handler: every code, through exit_lookup(). */
enum exit_action exit_dispatch_slow(struct vcpu *v, u64 code);

/* The same for every exit, inline in the run loop: one bounds check
 * reaches the direct slot; the few larger codes go the slow way. */
static inline enum exit_action exit_dispatch_fast(struct vcpu *v, u64 code)
{
	const struct exit_entry *e;

	if (__builtin_expect(code >= EXIT_DIRECT, 0))
		return exit_dispatch_slow(v, code);
	e = &exit_rows[exit_row_of[code]];
	v->stats.exits++;
	v->stats.count[e->kind]++;
	return e->handler(v);
}

/* The bucket of an exit code, from its row. */
enum exit_kind exit_kind_of(u64 code);
/* Printable name of an exit code ("CPUID", "NPF", ..., "?" for codes
 * minhv does not handle), from its row. */
const char *exit_name(u64 code);
/* The row for code; codes without one get {"?", EK_OTHER,
 * exit_unexpected}. VMEXIT_INVALID matches in both widths. */
const struct exit_entry *exit_lookup(u64 code);

enum exit_action exit_cpuid(struct vcpu *v); /* exit_cpuid.c */
struct cpuid_regs;
/* What CPUID leaf/sub returns inside the guest. */
void exit_cpuid_leaf(struct vcpu *v, u32 leaf, u32 sub, struct cpuid_regs *r);
/* Fill v's table of the leaves that ignore ECX (v->cpuid_tab), on the
 * vCPU's own CPU; until then every CPUID exit computes its leaf. */
void exit_cpuid_fill(struct vcpu *v);
/* Leaf 1 again after a change it reflects (IA32_APIC_BASE.EN). */
void exit_cpuid_refresh_leaf1(struct vcpu *v);
enum exit_action exit_msr(struct vcpu *v); /* exit_msr.c */
/* The MSR allow-list: 0, or -EINVAL when the guest gets #GP (the one
 * spelling of #GP, as in the vLAPIC's MSR and register handlers). */
int exit_msr_read(struct vcpu *v, u32 msr, u64 *val);
int exit_msr_write(struct vcpu *v, u32 msr, u64 val);
enum exit_action exit_ioio(struct vcpu *v); /* exit_io.c */
enum exit_action exit_hlt(struct vcpu *v); /* exit_misc.c ... */
enum exit_action exit_pause(struct vcpu *v);
enum exit_action exit_npf(struct vcpu *v);
enum exit_action exit_shutdown(struct vcpu *v);
enum exit_action exit_svm_insn(struct vcpu *v);
enum exit_action exit_intr(struct vcpu *v);
enum exit_action exit_invalid(struct vcpu *v); /* exit_invalid.c */
enum exit_action exit_cache_insn(struct vcpu *v); /* exit_cache.c */
enum exit_action exit_exception(struct vcpu *v); /* exit_excp.c */
enum exit_action exit_xsetbv(struct vcpu *v); /* exit_xsetbv.c */
enum exit_action exit_unexpected(struct vcpu *v);
/* vlapic_exit.c: IRET with an NMI in service. (No VINTR exit: minhv
 * never sets that intercept; fixed interrupts are V_IRQ offers.) */
enum exit_action vlapic_exit_iret(struct vcpu *v);
/* A CR8 write while TPR holds an interrupt back (the intercept is on only
 * then): TPR and V_TPR take the value, the next entry offers. */
enum exit_action vlapic_exit_cr8(struct vcpu *v);

/* event_inject.c. Right after #VMEXIT, before the handler: inject again
 * the event whose delivery the exit interrupted (EXITINTINFO, APM 15.7.2),
 * with a soft interrupt's return address (NEXT_RIP) set. */
void vcpu_reinject_event(struct vcpu *v);
/* Before VMRUN (interrupts off) when v->queued_event is set: inject it,
 * or, while EVENTINJ is still taken, make the guest exit right after that
 * event is delivered (a self IPI) so that it follows at once. */
void vcpu_inject_queued(struct vcpu *v);

/* Wait in the host (HLT with IF=1, OFFLINE) until kicked; false when the
 * guest is stopping. Lives in vcpu_run.c (needs cpu_relax and the SMP
 * layer); unit tests provide their own. */
bool vcpu_wait_wakeup(struct vcpu *v);

#endif
