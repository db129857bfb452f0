/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/guest/guest.h - guest lifecycle: create from an ELF image (memory from the
 * pool, nested page tables, vCPUs), stop with a reason, tear down. */
#ifndef MINHV_HV_GUEST_H
#define MINHV_HV_GUEST_H

#include "arch/types.h"
#include "include/minhv/hypercall_abi.h"
#include "arch/spinlock.h"
#include "hv/vmcb/npt.h"
#include "hv/vmcb/pause.h"
#include "hv/vcpu/vcpu.h"
#include "hv/platform/platform.h"

struct guest_params {
	const char *name; /* up to 15 characters shown on the console */
	const void *image; /* ELF64 test guest, a multiboot kernel or a bzImage */
	size_t image_size;
	const char *cmdline; /* multiboot: the kernel's command line */
	const void *initrd; /* multiboot: module 0, or NULL */
	size_t initrd_size;
	u64 mem_size; /* bytes, rounded up to 2 MiB */
	u32 nr_vcpus; /* vCPU n runs on CPU n */
	bool bench;
	const char *tests; /* scenario filter handed to the guest */
	struct pause_opts pause;
	u32 time_ms; /* run-time limit, 0 = none */
	u32 console_rate; /* console bytes per second, 0 = unlimited */
};

struct guest {
	char name[16];
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
	u64 vcpus_pages; /* pages behind the vcpus[] array */
	bool bench;
	spinlock_t lock;
	volatile u32 live; /* vCPUs RUNNING or HALTED */
	volatile u32 stopping; /* set once; every vCPU leaves */
	volatile u32 active; /* vCPUs started, not yet out of their loop */
	s64 exit_status;
	bool failed; /* stopped by the hypervisor (fault, bad state) */
	bool multiboot; /* a foreign kernel entered in 32-bit mode */
	bool linux; /* a Linux bzImage (hv/loader/linux_boot.c) */
	struct platform plat; /* its devices (hv/platform/) */
	char stop_reason[160];
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

/* 0 or -E*; on error nothing stays allocated. */
/* minhv runs nested under a hypervisor with a PAUSE filter (HV_BI_NESTED). */
bool nested_pause_filter(void);
int guest_create(const struct guest_params *p, struct guest **out);
/* Return every page; only after guest_stop() and guest_wait_idle(). */
void guest_destroy(struct guest *g);
/* First caller wins: records why, prints it, kicks every vCPU out. */
void guest_stop(struct guest *g, s64 status, bool failed, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
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
/* console.c: the one filter for guest text reaching the console or KTAP.
 * Control characters (C0, DEL, and bytes >= 0x80, which include the C1
 * controls such as the 8-bit CSI) become '?', tab stays; for KTAP also
 * newline, CR and '#' become spaces so no line or directive is forged. */
char guest_text_char(char c, bool ktap);
/* Refill g's console budget for the time since the last refill (tick). */
void guest_console_refill(struct guest *g, u64 now, u64 tsc_khz);

/* A foreign guest (multiboot or Linux) on the small PC of hv/platform/:
 * port devices, a vLAPIC per vCPU, ACPI tables, APs started by INIT-SIPI.
 * minhv's own ELF64 test guest has none of it. */
static inline bool guest_has_platform(const struct guest *g)
{
	return g->plat.on;
}

/* Whether img is a multiboot kernel rather than the ELF64 test guest. */
bool guest_image_is_multiboot(const void *img, size_t size);

/* mem.c: validate a guest pointer+length. On success *host points
 * at the bytes. 0, or -EFAULT (null page, outside, wraps) or
 * -EINVAL (misaligned). len 0 is valid and yields *host = NULL. */
int guest_mem_range(const struct guest *g, u64 gpa, u64 len, u64 align,
		    void **host);
/* Copy a NUL-terminated string of at most max-1 characters. 0,
 * -EFAULT, or -E2BIG when no NUL within max bytes. */
int guest_copy_str(const struct guest *g, u64 gpa, char *buf, size_t max);

/* hypercall.c */
enum exit_action hypercall_handle(struct vcpu *v);
/* Sum of every vCPU's exit counters (HC_GET_COUNTERS). */
void guest_counters(const struct guest *g, struct hc_counters *c);

#endif
