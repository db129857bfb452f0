/* SPDX-License-Identifier: GPL-2.0-only */
/* include/minhv/guest_layout.h - where things sit in a guest's physical memory.
 * Guest-physical [0, mem_size) is one contiguous host block, mapped by the
 * nested page tables; the guest identity-maps it with its own page tables. */
#ifndef MINHV_INCLUDE_MINHV_GUEST_LAYOUT_H
#define MINHV_INCLUDE_MINHV_GUEST_LAYOUT_H

#define GUEST_BOOT_INFO_GPA 0x1000ULL /* struct hv_boot_info */
#define GUEST_PT_GPA 0x10000ULL /* guest page tables built by minhv */
#define GUEST_PT_MAX 0x10000ULL /* at most 64 KiB of them */
#define GUEST_IMAGE_MIN_GPA 0x100000ULL /* ELF PT_LOAD segments from 1 MiB */
#define GUEST_STACK_SIZE 0x4000ULL /* per vCPU, at the top of memory */
#define GUEST_MAX_VCPUS 1024
/* Bytes of stack for nr vCPUs; the image must end below mem_size minus this. */
#define GUEST_STACKS_SIZE(nr) ((unsigned long long)(nr)*GUEST_STACK_SIZE)
/* What elf_load() keeps free for stacks when it is not told nr_vcpus. */
#define GUEST_STACK_AREA GUEST_STACKS_SIZE(GUEST_MAX_VCPUS)

#define HV_BOOT_INFO_MAGIC 0x6f666e69766e686dULL /* "mhnvinfo" */

/* Filled by minhv before the guest's first instruction; RDI points here. */
struct hv_boot_info {
	unsigned long long magic;
	unsigned long long mem_size; /* bytes of guest-physical memory */
	unsigned int nr_vcpus;
	unsigned int flags; /* HV_BI_* */
	unsigned long long
		stack_top; /* vCPU n's stack top = stack_top - n * GUEST_STACK_SIZE */
	char name[16]; /* the guest's name */
	char tests[256]; /* scenario filter from the options ("" = default) */
	unsigned int pause_mode; /* HV_PAUSE_*: what the hypervisor configured */
	unsigned int pause_count, pause_threshold;
	/* The physical CPUs its vCPUs run on (cpus=): fewer than nr_vcpus
	 * when they share them (docs/SCHED.md); vCPU n starts on the
	 * (n mod nr_cpus)-th. */
	unsigned int nr_cpus;
	unsigned int pause_yield; /* HV_YIELD_*: a PAUSE exit's policy */
	unsigned int slice_us; /* a vCPU's turn on a shared CPU */
};

#define HV_BI_BENCH (1u << 0)
#define HV_BI_NRIP (1u << 1)
#define HV_BI_SNP (1u << 2) /* an SNP-type guest (RMP-tracked pages) */
/* minhv itself runs under a hypervisor (CPUID.1:ECX[31]) that offers the
 * PAUSE filter, e.g. nested KVM: the filter values may be L0's, not
 * minhv's (docs/KVM.md). Not set under TCG (no filter there). */
#define HV_BI_NESTED (1u << 3)

#define HV_PAUSE_NONE 0 /* PAUSE not intercepted */
#define HV_PAUSE_FILTER 1 /* intercepted with a filter count (and threshold) */
#define HV_PAUSE_EVERY 2 /* intercepted, every PAUSE exits */

#define HV_YIELD_NONE 0 /* a PAUSE exit only steps over the PAUSE */
#define HV_YIELD_ANY 1 /* it runs the next queued vCPU */
#define HV_YIELD_DIRECTED 2 /* a queued vCPU of the same guest */

#endif
