/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vcpu/vcpu.h - a virtual CPU: its VMCB, guest GPRs, state machine,
 * statistics (struct vcpu_stats) and its place in a CPU's run queue
 * (struct sched_entity, hv/sched; vCPU n starts on the n-th CPU of its
 * guest's cpus=, docs/SCHED.md). */
#ifndef MINHV_HV_VCPU_VCPU_H
#define MINHV_HV_VCPU_VCPU_H

#include "arch/cpu.h"
#include "arch/cr.h"
#include "arch/svm.h"
#include "arch/types.h"
#include "hv/emul/decode.h"
#include "hv/features.h"
#include "hv/sched/runq.h"
#include "hv/vmcb/exit_decode.h"
#include "hv/vmcb/vmcb.h"
#include "hv/vlapic/vlapic.h"

struct guest;

enum vcpu_state {
	VCPU_IDLE, /* never started */
	VCPU_RUNNING,
	VCPU_OFFLINE, /* parked in the host until HC_VCPU_ONLINE */
	VCPU_HALTED, /* HLT with IF=1: waits for a kick */
	VCPU_DONE, /* left (HLT with IF=0); HC_VCPU_START may start it again */
	VCPU_STARTING, /* claimed by one HC_VCPU_START, not yet launched */
};

enum exit_action { EXIT_RESUME, EXIT_LEAVE };

#define VCPU_CON_LINE 160

/* What a vCPU counted and timed; read by reports, self-tests and the
 * HC_GET_COUNTERS hypercall, never by the run state machine. */
struct vcpu_stats {
	u64 exits; /* all exits */
	u64 count[EK_NR]; /* exits by kind */
	u64 io_dropped; /* IOIO to ports nobody emulates */
	u64 msr_gp; /* #GP injected for MSR accesses */
	u64 mov_cr_gp; /* #GP for QEMU's VMEXIT_INVALID at a MOV to CR3/CR4 */
	u64 offlines; /* RUNNING -> OFFLINE transitions */
	u64 offline_waits; /* times its CPU parked while it was OFFLINE */
	u64 halt_waits; /* times its CPU parked while it was HALTED */
	u64 parks_before; /* its CPU's park count when the guest started */
	u64 wake_spec_bad; /* wakes that found SPEC_CTRL not at the base */
	u64 pause_yields; /* PAUSE exits that gave the CPU away */
	u64 pause_no_target; /* PAUSE exits with nobody to yield to */
	u64 pause_sibling; /* directed yields to any queued sibling (none else) */
	u64 pause_flips; /* PAUSE intercept turned on or off (vcpu_pause_follow) */
	u64 reflected; /* exception exits (#DB/#AC reflected, #MC) */
	/* Bench: TSC from #VMEXIT (stub return) to the next VMRUN. */
	u64 t_exit, path_n, path_sum, path_min, path_max;
};

struct vcpu {
	struct vmcb *vmcb;
	hpa_t vmcb_hpa;
	struct svm_gprs gprs;
	struct guest *guest;
	u32 id;
	volatile u32 state; /* enum vcpu_state */
	volatile u32 kick; /* wake-up request (HLT, OFFLINE) */
	/* Parking (hv/park/park.h): cleared by the vCPU's CPU before it re-checks
	 * its state and parks; set by whoever changes the state, then
	 * park_wake(). */
	volatile u32 wake;
	volatile u32 in_guest; /* between its state check and #VMEXIT */
	bool in_loop; /* inside vcpu_run on a CPU */
	/* Its place on the CPUs (hv/sched/runq.h, hv/svm/sched_cpu.c). */
	struct sched_entity se;
	/* A HLT it left its CPU in (SCHED_BLOCK): the wait goes on when it
	 * runs again, until hlt_until (host TSC) at the latest. */
	bool hlt_wait;
	u64 hlt_until;
	u64 mtrr_def_type;
	u64 tsc_aux; /* in the hardware MSR while the vCPU runs */
	u64 misc_enable; /* IA32_MISC_ENABLE of a platform guest (exit_msr.c) */
	u64 pkrs; /* IA32_PKRS: in the hardware MSR while it runs (vcpu_pkrs.c) */
	u64 tsc_adjust; /* IA32_TSC_ADJUST: follows TSC writes (SDM 17.17.3) */
	struct vlapic lapic; /* multiboot guests (hv/vlapic/vlapic.h) */
#define VCPU_PMU_CTRS 6
	u64 perf_ctl[VCPU_PMU_CTRS], perf_ctr[VCPU_PMU_CTRS]; /* never count */
	/* Watchdog (vcpu_watchdog.c): the progress count at the last tick
	 * that saw it change, and the TSC of that tick; the tick handler
	 * sets tick, the run loop tests it before each VMRUN. */
	u64 progress_seen, progress_tsc;
	volatile u32 tick;
	/* Interrupts the vCPU gave itself, which need no host interrupt
	 * (vcpu_self_event()). */
	u32 self_events;
	/* TSC it had run without progress when it was preempted: carried
	 * over its time in the queue (waiting is not a hang). */
	u64 wd_carry;
	/* On a shared CPU (vcpu_watchdog.c's spin_wait()): its PAUSE exit
	 * count and the TSC at its last tick or turn start, the guest's
	 * wd_work it saw then. */
	u64 wd_pauses, wd_tick, wd_work_seen;
	/* Its last PAUSE exit (stats.exits then) and how many PAUSE exits
	 * in a row it has taken (hv/svm/sched_cpu.c). */
	u64 pause_last;
	u32 pause_streak;
	/* What it waits in while only another vCPU can wake it, or NULL
	 * (hv/guest/wait.c). */
	const char *stuck_on;
	/* CR0 as the last VMRUN was given it: an emulator (QEMU) writes host
	 * state over the save area when VMRUN fails its checks, and the guest
	 * writes CR0 without an exit, so only this copy tells VMEXIT_INVALID
	 * what VMRUN saw (hv/svm/exit_invalid.c). */
	u64 vmrun_cr0;
	/* An exception a handler raised while EXITINTINFO's event was being
	 * re-injected (EVENTINJ taken): injected at the first entry after
	 * that one, 0 when none (hv/svm/event_inject.c). */
	u64 queued_event;
	/* The last MOV to CR3/CR4 answered with #GP for QEMU's
	 * VMEXIT_INVALID: its RIP and stats.exits then, so the same answer
	 * twice in a row is seen as the real VMRUN failure it is. */
	u64 mov_cr_gp_rip, mov_cr_gp_exit;
	/* vcpu_fpu.c: in the hardware while the vCPU runs on its CPU. */
	void *fpu; /* XSAVE/FXSAVE area, page-aligned (vcpu_fpu_pages()) */
	u64 xcr0; /* the guest's XCR0 (XSETBV is intercepted) */
	u64 dr[4]; /* DR0-DR3 (DR6/DR7 are in the VMCB) */
	u32 con_len;
	char con[VCPU_CON_LINE];
	struct vcpu_stats stats;
	/* exit_cpuid.c: the guest's CPUID leaves 0-0x1f (slot n) and
	 * 0x80000000-0x8000001f (slot 32 + n) that ignore ECX, computed on
	 * the vCPU's CPU when its loop starts (OSXSAVE left clear: it follows
	 * CR4); bit n of cpuid_fast says slot n is valid. Stored as the
	 * 64-bit register values (zero-extended, as CPUID writes them) so a
	 * hit copies them without widening. */
	u64 cpuid_fast;
	struct vcpu_cpuid_row {
		u64 rax, rbx, rcx, rdx;
	} cpuid_tab[64];
	/* exit_cpuid.c: the last leaf and subleaf outside the table whose
	 * answer depends on nothing that changes while the loop runs, so a
	 * guest that repeats it (a CPUID loop) gets it without recomputing:
	 * (leaf << 32 | subleaf) + 1, 0 when none; reset with the table. */
	u64 cpuid_last_key;
	struct vcpu_cpuid_row cpuid_last;
	/* hv/guest/mmio.c: the last instruction decoded for an emulated
	 * access without decode-assist bytes (QEMU TCG gives none), keyed by
	 * its linear address, the code mode and the paging registers. It is
	 * used again only when the bytes at that address, fetched again
	 * through the guest's page tables, are the same: a guest that
	 * rewrites or remaps its code gets a fresh decode. len 0: empty. */
	struct vcpu_insn_cache {
		u64 la, cr0, cr3, cr4, efer;
		u8 mode, len;
		u8 bytes[INSN_MAX_LEN];
		struct insn in;
	} insn_cache;
};

/* vcpu_ops.c: pure helpers on a vCPU's VMCB. Its state machine, its
 * start and reset are the guest's (hv/guest/guest.h), the run loop is
 * hv/svm's (hv/svm/vcpu_run.c). */
/* An exception for the next entry. When EVENTINJ holds an event already
 * (EXITINTINFO's, re-injected before the handler ran) that one goes
 * first, and this one is queued behind it (v->queued_event). */
void vcpu_inject_exception(struct vcpu *v, u8 vector, bool has_err, u32 err);
/* #DB into the guest (DR6 as the caller left it), with DR7.GD cleared as
 * the processor's own delivery would. */
void vcpu_inject_db(struct vcpu *v);
/* The single-step #DB trap after an instruction minhv carried out for a
 * guest with RFLAGS.TF set (vcpu_ops.c); vcpu_insn_complete() calls it. */
void vcpu_step_trap(struct vcpu *v);
/* minhv's single step for an NMI window is over (its #DB, an instruction
 * exit after it, or an event injected meanwhile): TF, and RF if minhv set
 * it, out of RFLAGS again, unless a stepped IRET loaded them. */
void vcpu_nmi_step_end(struct vcpu *v);
/* The faults a stepped instruction can raise on its way (#NP, #SS, #GP,
 * #PF: an IRET's, SDM vol 2 IRET), intercepted while minhv's step is
 * armed (on) so their frames never get minhv's TF; vcpu_nmi_step_end()
 * turns them off. */
static inline void vcpu_step_faults_intercept(struct vmcb *vm, bool on)
{
	const u32 faults = BIT(VEC_NP) | BIT(VEC_SS) | BIT(VEC_GP) |
			   BIT(VEC_PF);
	u32 *w = &vm->control.intercepts[INTERCEPT_EXCEPTION(0) / 32];

	*w = on ? *w | faults : *w & ~faults;
	vmcb_mark_dirty(vm, VMCB_CLEAN_I);
}
/* The one "instruction completed" path (KVM's
 * kvm_skip_emulated_instruction()): every handler that carried out the
 * guest's instruction ends here with the RIP after it. The interrupt
 * shadow of a STI or MOV SS before it covers only that instruction, so it
 * is over (APM vol 2 15.21.5; KVM's __svm_skip_emulated_instruction()
 * clears it too); TF set means the single-step trap the CPU would raise.
 * Inline: the CPUID and VMMCALL fast paths take it, and INT_SHADOW sits
 * in the cache line of the exit code. */
static inline void vcpu_insn_complete(struct vcpu *v, u64 next_rip)
{
	struct vmcb *vm = v->vmcb;

	vm->save.rip = next_rip;
	vm->control.int_shadow &= ~INT_SHADOW;
	if (__builtin_expect(vm->save.rflags & RFLAGS_TF, 0))
		vcpu_step_trap(v);
}
/* Complete an intercepted instruction whose length the handler knows
 * (CPUID 2 bytes, VMMCALL 3): the RIP after it is NRIP when the CPU wrote
 * it (15.7.1), else RIP + len, as exit_next_rip() says. */
static inline void vcpu_step_known(struct vcpu *v, unsigned len)
{
	u64 nrip = v->vmcb->control.next_rip;

	vcpu_insn_complete(
		v, g_features.nrips && nrip ? nrip : v->vmcb->save.rip + len);
}
/* vcpu_spec.c, right around VMRUN: the guest's SPEC_CTRL (gprs.spec_ctrl)
 * into the VMCB and back after #VMEXIT with V_SPEC_CTRL (the hardware
 * swaps); the software swap is the VMRUN stub's (arch/svm.asm). */
void vcpu_spec_enter(struct vcpu *v);
void vcpu_spec_exit(struct vcpu *v);
/* Step over the intercepted instruction (exit_next_rip(): IOIO's
 * EXITINFO2, NRIP or the exit's known length) through
 * vcpu_insn_complete(). Returns false (and stops the guest) when its
 * length is unknown. */
bool vcpu_skip_insn(struct vcpu *v);
/* regs.c: a guest GPR by x86 number (0 RAX .. 15 R15): RAX and RSP live
 * in the VMCB, the rest in the vCPU's saved GPRs. */
u64 *vcpu_gpr(struct vcpu *v, unsigned reg);

/* The vCPU gave itself an interrupt (a self IPI, a passed TSC deadline
 * at its write): no host interrupt involved, so nothing else would bring
 * a watchdog tick the host lost. QEMU TCG's helper_vmrun() sets
 * CPU_INTERRUPT_VIRQ with a plain OR outside its big lock (QEMU 10), which
 * can wipe a CPU_INTERRUPT_HARD another thread sets at that moment: the
 * host timer's interrupt is then never taken and, one-shot, never comes
 * again; a guest storming itself with V_IRQ offers ran past its run-time
 * limit forever. Every VCPU_SELF_TICK-th such event takes the watchdog's
 * tick (v->tick), which runs the limits and starts the timer again (its
 * next interrupt re-raises the lost one in QEMU's APIC). Cheap: no TSC
 * read; only a storm reaches the count. */
#define VCPU_SELF_TICK 1024u
static inline void vcpu_self_event(struct vcpu *v)
{
	if (!(++v->self_events % VCPU_SELF_TICK))
		__atomic_store_n(&v->tick, 1, __ATOMIC_RELAXED);
}

#endif
