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

#endif
