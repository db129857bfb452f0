/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/emul/walk.h - guest-virtual to guest-physical translation in the
 * guest's current paging mode, reading guest page tables through the
 * bounds-checked guest memory block, and instruction fetch at CS:RIP. */
#ifndef MINHV_HV_EMUL_WALK_H
#define MINHV_HV_EMUL_WALK_H

#include "arch/types.h"

struct vmcb;

/* Guest-physical [0, size) backed by host memory at host. */
struct gmem {
	const u8 *host;
	u64 size;
};

/* The pt_reader (arch/ptwalk.h) of guest memory: ctx is the const struct
 * gmem *; -ERANGE for an entry not wholly inside it (never read). */
int gmem_read(const void *ctx, u64 addr, unsigned size, u64 *e);

/* The registers that select the paging mode (APM vol 2 5.1). */
struct gpaging {
	u64 cr0, cr3, cr4, efer;
};

struct gpaging gpaging_of(const struct vmcb *v);

/* Translate linear address la. 0 and *out, -EFAULT when a level is not
 * present (or has reserved bits the walk depends on), -ERANGE when a page
 * table lies outside guest memory (never read). Permissions are not
 * checked: the access being emulated already passed them in hardware. */
int gwalk(const struct gmem *m, const struct gpaging *p, u64 la, gpa_t *out);

/* Copy up to len bytes at linear address la into buf, one translation per
 * page touched. Returns how many bytes were copied (fewer when the next
 * page is unmapped or its GPA is not guest RAM, as when an instruction
 * ends before it), or the error of the first byte's translation. */
int gfetch(const struct gmem *m, const struct gpaging *p, u64 la, u8 *buf,
	   unsigned len);

#endif
