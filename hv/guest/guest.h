/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/guest/guest.h - guest lifecycle: create from an ELF image (memory from the
 * pool, nested page tables, vCPUs), stop with a reason, tear down. */
#ifndef MINHV_HV_GUEST_GUEST_H
#define MINHV_HV_GUEST_GUEST_H

#include <stdarg.h>

#include "arch/spinlock.h"
#include "arch/types.h"
#include "hv/emul/vcpu_api.h"
#include "hv/features.h"
#include "hv/platform/platform.h"
#include "hv/sched/cpuset.h"
#include "hv/sched/runq.h"
#include "hv/vcpu/vcpu.h"
#include "hv/vmcb/npt.h"
#include "hv/vmcb/pause.h"
#include "include/minhv/hypercall_abi.h"

/* What a guest image is, decided once by its content (guest_kind_of());
 * the exit handlers and hv/view read it where the kinds differ. */
enum guest_kind {
	/* minhv's own ELF64 test guest: the hypercall ABI, no platform */
	GUEST_MINHV,
	/* a multiboot kernel entered in 32-bit mode (kvm-unit-tests) */
	GUEST_MULTIBOOT,
	/* a Linux bzImage (hv/loader/linux_boot.c) */
	GUEST_LINUX,
};

struct guest_params {
	const char *name; /* up to 15 characters shown on the console */
	const void *image; /* ELF64 test guest, a multiboot kernel or a bzImage */
	size_t image_size;
	const char *cmdline; /* multiboot: the kernel's command line */
	const void *initrd; /* multiboot: module 0, or NULL */
	size_t initrd_size;
	u64 mem_size; /* bytes, rounded up to 2 MiB */
	/* vCPU n starts on the (n mod count)-th CPU of cpus (a cpus= list,
	 * hv/options; NULL or "all": every online CPU); more vCPUs than
	 * CPUs share them (docs/SCHED.md). */
	u32 nr_vcpus;
	const char *cpus;
	bool bench;
	const char *tests; /* scenario filter handed to the guest */
	struct pause_opts pause;
	struct sched_opts sched;
	u32 time_ms; /* run-time limit, 0 = none */
	u32 console_rate; /* console bytes per second, 0 = unlimited */
	/* A foreign guest's virtio disk (hv/platform/virtio.h): the image
	 * in host memory, whole 512-byte sectors, or NULL. */
	void *disk;
	u64 disk_size;
	bool disk_ro;
};

struct guest {
	char name[16];
	/* Unique for the run (never reused, unlike the address): what a
	 * CPU compares to see that it runs another guest than last time
	 * (IBPB, hv/park/spec_ctrl.c). */
	u64 serial;
	u32 asid;
	hpa_t mem; /* host block backing guest-physical [0, mem_size) */
	u64 mem_size;
	void *mem_host;
	struct npt npt;
	hpa_t iopm, msrpm;
	u64 cr3;
	gpa_t entry;
	u64 stack_top;
	struct pause_policy pause;
	u32 nr_vcpus;
	struct vcpu **vcpus;
	/* Its CPUs (cpus=; a bitmap page of its own) and how its vCPUs share
	 * them: slice in TSC, pause_yield=, pause_window=. */
	struct cpuset cpus;
	u32 ncpus;
	u64 slice_tsc;
	enum sched_yield yield;
	bool window_dynamic;
	u64 vcpus_pages; /* pages behind the vcpus[] array */
	bool bench;
	spinlock_t lock;
	volatile u32 live; /* vCPUs RUNNING or HALTED */
	volatile u32 stopping; /* set once; every vCPU leaves */
	volatile u32 active; /* vCPUs started, not yet out of their loop */
	/* Ticks of its vCPUs that found one doing something other than
	 * spinning on PAUSE (hv/svm/vcpu_watchdog.c's spin_wait()). */
	volatile u64 wd_work;
	/* vCPUs waiting for what only another vCPU can send (wait.c). */
	volatile u32 stuck;
	s64 exit_status;
	bool failed; /* stopped by the hypervisor (fault, bad state) */
	enum guest_end end; /* powered off or reset itself (vcpu_api.h) */
	hpa_t testdev_mem; /* pc-testdev's memory (multiboot guests) */
	enum guest_kind kind;
	struct platform plat; /* a foreign guest's devices (hv/platform/) */
	char stop_reason[160];
	u64 stop_tsc; /* when it was stopped (the first guest_stop()) */
	u32 reports, report_fails; /* HC_REPORT calls accepted, failures */
	u64 plan; /* HC_TEST_PLAN n, plus one; 0: no plan announced */
	u32 beyond_plan; /* reports after the plan was used up: dropped */
	u32 over_share; /* reports beyond GUEST_MAX_REPORTS: dropped */
	u32 lost_reports; /* reports the KTAP storage had no room for */
	/* Limits, checked on the watchdog tick (vcpu_watchdog.c), never per
	 * exit: the run-time deadline and the console byte budget, refilled
	 * at con_rate bytes per second up to one second's worth. */
	u32 time_ms;
	u64 deadline_tsc; /* 0: no limit */
	u32 con_rate;
	volatile s64 con_budget;
	u64 con_refill_tsc;
	volatile u64 con_dropped; /* console bytes beyond the budget */
	volatile u32 con_flood_said; /* the drop was reported */
};

/* One guest's share of the KTAP results (hv/ktap.h keeps the hypervisor's
 * own room apart); also the largest plan HC_TEST_PLAN accepts. */
#define GUEST_MAX_REPORTS 128

/* minhv runs nested under a hypervisor with a PAUSE filter (HV_BI_NESTED). */
bool nested_pause_filter(void);
/* 0 or -E*; on error nothing stays allocated. */
int guest_create(const struct guest_params *p, struct guest **out);
/* Return every page; only after guest_stop() and guest_wait_idle(). */
void guest_destroy(struct guest *g);
/* First caller wins: records why, prints it, kicks every vCPU out. */
void guest_stop(struct guest *g, s64 status, bool failed, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void guest_vstop(struct guest *g, s64 status, bool failed, const char *fmt,
		 va_list ap) __attribute__((format(printf, 4, 0)));
/* The same, recording how the guest ended itself (when it wins). */
void guest_vstop_end(struct guest *g, s64 status, bool failed,
		     enum guest_end end, const char *fmt, va_list ap)
	__attribute__((format(printf, 5, 0)));
/* Wait until no vCPU of g is inside vcpu_run (after guest_stop). */
void guest_wait_idle(struct guest *g);
/* HC_REPORT sink (report.c): one KTAP line, named guest.NAME when NAME is
 * in a hypervisor namespace (then always a failure: a forgery); reports
 * beyond the plan or the guest's share are dropped and counted. */
void guest_report(struct guest *g, const char *name, enum hc_result r,
		  const char *diag);
/* Were g's results complete: none dropped or lost and, with a plan, as
 * many as planned? false with the reason in why. */
bool guest_results_ok(const struct guest *g, char *why, size_t n);
/* The one filter for guest text reaching the console or KTAP. Control
 * characters (C0, DEL, and bytes >= 0x80, which include the C1 controls
 * such as the 8-bit CSI) become '?', tab stays; for KTAP also newline, CR
 * and '#' become spaces so no line or directive is forged. Inline: it
 * runs for every byte a console guest writes. */
static inline __attribute__((always_inline)) char guest_text_char(char c,
								  bool ktap)
{
	unsigned char u = (unsigned char)c;

	if (ktap && (c == '\n' || c == '\r' || c == '#'))
		return ' ';
	if ((u < 0x20 && c != '\t') || u >= 0x7f)
		return '?'; /* no escape sequences onto the console */
	return c;
}
/* Refill g's console budget for the time since the last refill (tick). */
void guest_console_refill(struct guest *g, u64 now, u64 tsc_khz);
/* The rest of v's console line (guest_console_put(): hv/emul/vcpu_api.h). */
void guest_console_flush(struct vcpu *v);

/* A foreign guest (multiboot or Linux) on the small PC of hv/platform/:
 * port devices, a vLAPIC per vCPU, ACPI tables, APs started by INIT-SIPI.
 * minhv's own ELF64 test guest has none of it. */
static inline bool guest_has_platform(const struct guest *g)
{
	return g->kind != GUEST_MINHV;
}

/* IA32_TSC_ADJUST, emulated from the vCPU's TSC offset (no host MSR is
 * touched: hv/svm/exit_msr.c), and CPUID 7.0:EBX[1] with it: for a
 * platform guest where the host has it, and for a Linux guest always.
 * Linux keeps the TSC as its clocksource without the watchdog only with
 * an invariant TSC and TSC_ADJUST (its check_system_tsc_reliable()); on
 * a host that lacks them (QEMU's TCG models) it would keep time by the
 * HPET instead, every read an exit (docs/GUESTS.md "Time under 4
 * vCPUs"). Multiboot guests keep the host's view, so kvm-unit-tests see
 * what bare QEMU shows. */
static inline bool guest_tsc_adjust(const struct guest *g)
{
	return guest_has_platform(g) &&
	       (g_features.tsc_adjust || g->kind == GUEST_LINUX);
}

/* By content: a bzImage's setup header, a multiboot header in the first
 * 8 KiB, else minhv's own ELF64 test guest. */
enum guest_kind guest_kind_of(const void *img, size_t size);

/* mem.c: validate a guest pointer+length. On success *host points
 * at the bytes. 0, or -EFAULT (null page, outside, wraps) or
 * -EINVAL (misaligned). len 0 is valid and yields *host = NULL. */
int guest_mem_range(const struct guest *g, u64 gpa, u64 len, u64 align,
		    void **host);
/* Any guest-physical memory, for what the guest addresses physically
 * (string I/O after its page tables): guest RAM, page 0 included (a PC's
 * IVT and BDA), or a device's memory the NPT maps (pc-testdev's). 0 or
 * -EFAULT; no alignment rule. */
int guest_phys_range(const struct guest *g, u64 gpa, u64 len, void **host);
/* Copy a NUL-terminated string of at most max-1 characters. 0,
 * -EFAULT, or -E2BIG when no NUL within max bytes. */
int guest_copy_str(const struct guest *g, u64 gpa, char *buf, size_t max);

/* hypercall.c */
enum exit_action hypercall_handle(struct vcpu *v);
/* Sum of every vCPU's exit counters (HC_GET_COUNTERS). */
void guest_counters(const struct guest *g, struct hc_counters *c);

/* vcpu_state.c: the vCPU state machine, with the guest's count of vCPUs
 * still able to run (the last one out stops the guest). */
/* Leave the guest for good: state DONE, drop it from the live count. */
void vcpu_set_done(struct vcpu *v);
/* RUNNING -> HALTED (HLT with IF=1). */
void vcpu_set_halted(struct vcpu *v);
/* Claim v for one HC_VCPU_START: IDLE, or DONE and out of its loop ->
 * STARTING, atomically, so of racing callers exactly one wins and only the
 * winner writes v's registers. 0 or -EBUSY. */
int vcpu_claim_start(struct vcpu *v);
/* A claimed vCPU's fresh start state: the VMCB rebuilt as at creation,
 * RIP, RSP, RDI = arg, every other GPR 0. */
void vcpu_reset(struct vcpu *v, u64 rip, u64 rsp, u64 arg);
/* RUNNING -> OFFLINE, OFFLINE/HALTED -> RUNNING; 0 or -E*. */
int vcpu_set_offline(struct vcpu *v);
int vcpu_set_online(struct vcpu *v);
/* Make v look at its state and events soon: blocked, it becomes runnable
 * on its CPU's queue (hv/sched); running on another CPU, it leaves guest
 * mode (IPI -> INTR exit) or, waiting there in place, wakes. */
void vcpu_kick(struct vcpu *v);
/* Wake the loops of g's CPUs (and the boot CPU's) so they see g stop. */
void guest_kick_cpus(struct guest *g);
/* The CPU vCPU v starts on: the (id mod ncpus)-th of g's CPUs. */
u32 vcpu_home_cpu(const struct vcpu *v);
/* Wait until v (not running on this CPU) is out of guest mode, or its guest
 * stops. After vcpu_set_offline() + vcpu_kick(): the vCPU runs no more guest
 * instructions once this returns 0. Bounded: -EBUSY when another vCPU
 * brought v back online meanwhile, or after VCPU_WAIT_OUT_MS. */
int vcpu_wait_out(struct vcpu *v);
#define VCPU_WAIT_OUT_MS 250

/* wait.c: what every wait in the host (hv/svm) shares with the run loop.
 * The run-time limit: true while now is before it, else the guest is
 * stopped ("run-time limit of N ms reached", then " in <waiting>"
 * when not NULL) and false. */
bool guest_time_check(struct vcpu *v, u64 now, const char *waiting);
/* v waits for an event only another vCPU can send (an NMI, INIT or
 * SIPI): what says where ("HLT with interrupts off", ...). Counted once
 * until vcpu_wait_unstuck(); when every vCPU of the guest is stuck and
 * none has such an event pending, the guest is stopped ("every vCPU waits
 * for what no vCPU can send, the last vCPU n in <what> ...") and false
 * returned. Foreign guests only
 * (all their vCPUs run their loops from the start). */
bool vcpu_wait_stuck(struct vcpu *v, const char *what);
/* v's wait ended, or it has a wake-up source of its own again. */
void vcpu_wait_unstuck(struct vcpu *v);

/* cpu_reset.c: v starts in real mode at cs:ip (SIPI, S3 resume). */
void vcpu_start_real(struct vcpu *v, u16 cs, u16 ip);

/* s3.c: while a foreign guest sleeps in ACPI S3 (acpi_s3_enter()), vCPU 0
 * polls (hv/svm/vlapic_vcpu.c): ACPI_S3_ASLEEP with *until the host TSC
 * to look again (0: never), ACPI_S3_RESUMED (v starts at the waking
 * vector), or ACPI_S3_STOPPED (the guest was stopped). */
enum acpi_s3 { ACPI_S3_ASLEEP, ACPI_S3_RESUMED, ACPI_S3_STOPPED };
enum acpi_s3 acpi_s3_poll(struct vcpu *v, u64 now, u64 *until);

/* The run loop and the CPUs' queues (hv/svm/sched_cpu.c), declared here
 * for the hypercalls and the default run: they are above hv/guest. */
/* Run guests gs[0..n): each one's vCPU 0 is started (a foreign guest's
 * APs wait for INIT-SIPI), the calling CPU (the boot CPU) runs its queue
 * until every one of them stopped, then waits until none of their vCPUs
 * is on any CPU (guest_wait_idle()). */
void guests_run(struct guest *const *gs, u32 n);
/* v (IDLE) runs on this CPU's queue until nothing is left on it (the unit
 * tests' run loop, one vCPU: v leaves for good). */
void vcpu_run_here(struct vcpu *v);
/* Start v (claimed: STARTING) on its CPU's queue (vcpu_home_cpu())
 * asynchronously. 0 or -E*; on error v is IDLE again. */
int vcpu_launch(struct vcpu *v);

#endif
