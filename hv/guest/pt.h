/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/guest/pt.h - the page tables a guest starts with: minhv builds them in
 * guest memory so the guest's first instruction already runs in long mode. */
#ifndef MINHV_HV_GUEST_PT_H
#define MINHV_HV_GUEST_PT_H

#include "arch/types.h"

/* Build 4-level identity page tables for guest-physical [0, mem_size)
 * inside guest memory at GUEST_PT_GPA (at most GUEST_PT_MAX bytes): 2 MiB
 * pages, 4 KiB pages for the first 2 MiB (page 0 left unmapped to catch NULL
 * dereferences) and for a tail that is not 2 MiB aligned; writable,
 * executable, write-back. mem_size must be a multiple of 4 KiB and large
 * enough to hold the tables. Returns 0 and *cr3, or -EINVAL for a bad
 * mem_size, -E2BIG when the tables do not fit in GUEST_PT_MAX. */
int guest_pt_build(void *mem_host, u64 mem_size, gpa_t *cr3);

/* Map guest page 0 too in tables guest_pt_build() made (for a foreign
 * guest that reads the BIOS data area), found by walking them. 0, or
 * -EINVAL when the tables at cr3 do not lead to a 4 KiB table for the
 * first 2 MiB inside guest memory [0, mem_size). */
int guest_pt_map_page0(void *mem_host, u64 mem_size, gpa_t cr3);

/* Bytes of page tables guest_pt_build() needs for mem_size. */
u64 guest_pt_size(u64 mem_size);

#endif
