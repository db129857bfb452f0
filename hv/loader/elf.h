/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/loader/elf.h - ELF64 executable loader for guest images (System V gABI,
 * x86-64 psABI). Validates every header field, then copies PT_LOAD segments
 * into guest memory at their p_paddr. */
#ifndef MINHV_HV_LOADER_ELF_H
#define MINHV_HV_LOADER_ELF_H

#include "arch/types.h"

struct elf_load_info {
	gpa_t entry; /* e_entry */
	gpa_t lowest; /* lowest p_paddr of a PT_LOAD segment */
	gpa_t end; /* highest byte loaded + 1 */
};

/* Does img start like an ELF64 file ("\x7fELF", ELFCLASS64)? Says
 * nothing of validity. */
bool elf_detect(const void *img, size_t size);

/* Validate every header field of img[0..size) and copy its PT_LOAD
 * segments into guest memory (guest-physical [0, mem_size) backed by
 * mem_host). Segments must lie in [GUEST_IMAGE_MIN_GPA,
 * mem_size - GUEST_STACK_AREA). Returns 0, or after one pr_err line saying
 * what is wrong: -EFAULT for a segment outside that range, -EINVAL
 * for anything else wrong with the image. On error nothing is written. */
int elf_load(const void *img, size_t size, void *mem_host, u64 mem_size,
	     struct elf_load_info *out);

/* As elf_load(), but segments must end at or below image_limit (a GPA
 * <= mem_size): for callers that know how many vCPU stacks they reserve. */
int elf_load_limit(const void *img, size_t size, void *mem_host, u64 mem_size,
		   u64 image_limit, struct elf_load_info *out);

#endif
