/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/boot_prof.h - the boot profile: where the time from efi_main to the
 * first VMRUN goes, phase by phase. Each mark is one RDTSC and an add into
 * a small table (no log line); the table is printed once, as one line,
 * after the default run (`make bench` reads it). Under QEMU's -icount the
 * TSC counts instructions (<< shift), so the figures are exact. */
#ifndef MINHV_HV_BOOT_PROF_H
#define MINHV_HV_BOOT_PROF_H

#include "arch/types.h"

/* In boot order; a phase may be entered more than once (its time adds
 * up). PROF_PHASE_NAMES below names them in the same order. */
enum prof_phase {
	PROF_EFI, /* efi_main: options, ACPI, console */
	PROF_EFI_FILES, /* guest image and initrd read from the ESP */
	PROF_EFI_ALLOC, /* trampoline, page pool, boot stack */
	PROF_EXIT_BOOT, /* ExitBootServices */
	PROF_HV_INIT, /* hv_main: page tables, GDT/IDT, inventory */
	PROF_TSC_CAL, /* TSC calibration against the PIT */
	PROF_SMP, /* AP bring-up */
	PROF_SELFTEST, /* boot self-tests (hv/selftest/) */
	PROF_MTRR, /* MTRR rendezvous */
	PROF_PARK, /* parking set-up, APs into the park loop */
	PROF_SVM, /* SVM enabled on every CPU */
	PROF_APIC_CAL, /* watchdog: the LAPIC timer calibration */
	PROF_GUEST, /* guest_create's own work */
	PROF_GUEST_MEM, /* guest memory: allocation and zeroing */
	PROF_IMAGE, /* image (and initrd) load and copy */
	PROF_GUEST_PT, /* the guest's page tables */
	PROF_PLATFORM, /* guest ACPI tables and platform devices */
	PROF_NPT, /* nested page tables */
	PROF_VCPUS, /* permission maps, vCPUs, VMCBs */
	PROF_VCPU_START, /* run_guest() -> vCPU 0's first VMRUN */
	PROF_NR
};

#define PROF_PHASE_NAMES                                                      \
	"efi", "efi_files", "efi_alloc", "exit_boot", "hv_init", "tsc_cal",   \
		"smp", "selftests", "mtrr", "park", "svm_init", "apic_cal",   \
		"guest", "guest_mem", "image", "guest_pt", "platform", "npt", \
		"vcpus", "vcpu_start"

/* efi_main, with its first TSC: the profile starts in PROF_EFI. */
void prof_start(u64 tsc);
/* Close the current phase and enter p; returns the phase left, for a
 * caller that nests one (self-tests) and goes back. No-op once ended. */
enum prof_phase prof_mark(enum prof_phase p);
/* The first VMRUN of any vCPU is next: the profile ends (once). */
void prof_first_vmrun(void);
/* One line "boot: profile total=T <phase>=T ... tsc" (phases with time
 * only), once the profile has ended; nothing otherwise. */
void prof_print(void);

#endif
