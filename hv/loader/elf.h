/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/loader/elf.h - the ELF executable loader for guest images, ELF64 and
 * ELF32 (System V gABI, x86-64 and i386 psABIs). Validates every header
 * field, then copies PT_LOAD segments into guest memory at their p_paddr. */
#ifndef MINHV_HV_LOADER_ELF_H
#define MINHV_HV_LOADER_ELF_H

#include "arch/types.h"

struct elf_load_info {
	gpa_t entry; /* e_entry */
	gpa_t lowest; /* lowest p_paddr of a PT_LOAD segment */
	gpa_t end; /* highest byte loaded + 1 */
};

/* What a caller takes: the classes, where segments may go, and whether
 * they must be identity-mapped. */
struct elf_policy {
	bool elf32; /* ELF32 (EM_386) as well as ELF64 (EM_X86_64) */
	bool identity; /* p_vaddr == p_paddr: minhv's page tables map 1:1 */
	u64 min, limit; /* segments in [min, limit), or, when low_end is not
			 * 0, in [low_min, low_end) */
	u64 low_min, low_end;
	/* Called with each segment's range as it is copied (NULL: none). */
	void (*placed)(void *ctx, u64 paddr, u64 memsz);
	void *ctx;
};

/* Does img start like an ELF64 file ("\x7fELF", ELFCLASS64)? Says
 * nothing of validity. */
bool elf_detect(const void *img, size_t size);

/* The one loader, for both classes: validate every header field of
 * img[0..size) under pol (the same checks for both: the file header,
 * each PT_LOAD's file bytes and memory range without overflow, no two
 * overlapping, the entry inside an executable one) and copy the PT_LOAD
 * segments to their p_paddr in guest memory (guest-physical [0, mem_size)
 * backed by mem_host; pol's windows must lie inside it) through the
 * loaders' one range check (hv/loader/place.h). Returns 0, or
 * after one pr_err line saying what is wrong: -EFAULT for a segment
 * outside the windows, -EINVAL for anything else wrong with the image. On
 * error nothing is written. */
int elf_load_policy(const void *img, size_t size, void *mem_host, u64 mem_size,
		    const struct elf_policy *pol, struct elf_load_info *out);

/* The ELF64 test guest: elf_load_policy() for ELF64 only, identity-mapped
 * segments in [GUEST_IMAGE_MIN_GPA, mem_size - GUEST_STACK_AREA). */
int elf_load(const void *img, size_t size, void *mem_host, u64 mem_size,
	     struct elf_load_info *out);

/* As elf_load(), but segments must end at or below image_limit (a GPA
 * <= mem_size): for callers that know how many vCPU stacks they reserve. */
int elf_load_limit(const void *img, size_t size, void *mem_host, u64 mem_size,
		   u64 image_limit, struct elf_load_info *out);

#endif
