/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/run/run.h - the default run (run.c): hv_main, once SVM is enabled,
 * creates the guest boot/ handed over, runs it, reports its results as
 * KTAP and tears it down; the self-tests run guests of their own through
 * run_guest_once(). */
#ifndef MINHV_HV_RUN_RUN_H
#define MINHV_HV_RUN_RUN_H

#include "arch/types.h"

struct boot_info;
struct guest;
struct guest_params;

/* Run the image of bi (an ELF64 test guest, a multiboot kernel or a
 * bzImage, with bi's initrd) and report KTAP, tests being the guest's
 * scenario filter. After svm_init() succeeded. Returns 0 when everything
 * passed or was skipped, else negative. When the guest could be created,
 * *ran (if not NULL) receives its parameters; otherwise ran->image is
 * NULL. */
int run_guest_image(const struct boot_info *bi, const char *tests,
		    struct guest_params *ran);
/* Run a created guest to its stop (vCPU 0 on this CPU) and wait until no
 * vCPU runs; the caller reads the result and calls guest_destroy(). */
void run_guest(struct guest *g);
/* The same for gs[0..n) at once: they share the CPUs their cpus= name. */
void run_guests(struct guest *const *gs, u32 n);
/* guest_create() + run_guest(): 0, or guest_create()'s error. */
int run_guest_once(const struct guest_params *p, struct guest **out);

/* The memory of the guest in image, MiB: guest_mem=, or when it is auto
 * RUN_MEM_MINHV_MB for minhv's own guest and RUN_MEM_FOREIGN_MB for a
 * multiboot kernel or Linux (QEMU's default). boot/ sizes the pool from
 * it: pool=auto is RUN_POOL_BASE_MB more. */
#define RUN_MEM_MINHV_MB 16
#define RUN_MEM_FOREIGN_MB 128
#define RUN_POOL_BASE_MB 64
u32 run_guest_mem_mb(const void *image, size_t size);

/* watchdog_ms=auto: RUN_WATCHDOG_MINHV_MS for minhv's own guest, whose
 * scenarios never compute that long without an exit; off for a foreign
 * one, which may, as on a PC (Linux's decompressor under TCG runs for
 * seconds without one): guest_time_ms= is its limit. */
#define RUN_WATCHDOG_MINHV_MS 2000
u32 run_watchdog_ms(bool minhv_guest);

/* A foreign guest's end as a verdict (verdict.c): minhv stopped it, it
 * wrote isa-debug-exit's pass value (status 1), kvm-unit-tests' skip
 * (77, or 77 written), or Linux powered off (ACPI S5) or reset itself
 * with reboot=stop: a clean end, as on QEMU. */
enum run_verdict { RUN_FAIL, RUN_PASS, RUN_SKIP };
enum run_verdict run_foreign_verdict(bool linux, bool failed, int end,
				     s64 status);

#endif
