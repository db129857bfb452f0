/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/trampoline.h - the AP start-up code (arch/trampoline.asm) and the
 * parameter block inside it that the BSP fills after copying it below 1 MiB.
 * The layout is checked against the assembly labels by a unit test. */
#ifndef MINHV_ARCH_TRAMPOLINE_H
#define MINHV_ARCH_TRAMPOLINE_H

#include "arch/types.h"

/* boot_stage values an AP moves through (a word in its struct percpu). */
#define AP_STAGE_NONE 0 /* not seen yet */
#define AP_STAGE_TRAMPOLINE 1 /* the trampoline claimed its percpu */
#define AP_STAGE_ONLINE 2 /* C entry done: checked in */
#define AP_STAGE_ABANDONED 3 /* the BSP gave up; the AP must stop */

struct tramp_params {
	u32 cr3; /* +0 PML4 (PML5), below 4 GiB (loaded in 32-bit mode) */
	u32 efer; /* +4 EFER bits to set: LME, plus NXE/SCE as the BSP */
	u64 entry64; /* +8 void entry(struct percpu *pc), never returns */
	u64 percpus; /* +16 struct percpu ** (g_percpu) */
	u32 ncpus; /* +24 entries in percpus */
	u32 alive; /* +28 APs that reached long mode (diagnostics) */
	u32 off_apic_id; /* +32 offsetof(struct percpu, apic_id) */
	u32 off_stack; /* +36 offsetof(struct percpu, stack_top) */
	u32 off_stage; /* +40 offsetof(struct percpu, boot_stage) */
	u32 far32; /* +44 linear address of the 32-bit code */
	u16 far32_sel; /* +48 preset */
	u32 far64 __attribute__((packed)); /* +50 linear address, 64-bit code */
	u16 far64_sel; /* +54 preset */
	u16 gdt_limit; /* +56 preset */
	u32 gdt_base __attribute__((packed)); /* +58 linear address of tp_gdt */
	u16 pad; /* +62 */
	u32 cr4; /* +64 CR4 bits set with PAE before paging: MCE, and LA57
		  * when the BSP runs 5-level paging (then cr3 is a PML5) */
	u32 pad2; /* +68 */
};

_Static_assert(sizeof(struct tramp_params) == 72, "tramp_params layout");
_Static_assert(offsetof(struct tramp_params, cr4) == 64, "tramp cr4");

extern const u8 trampoline_start[], trampoline_end[], trampoline_params[];
extern const u8 tp_cr3[], tp_efer[], tp_entry64[], tp_percpus[], tp_ncpus[],
	tp_alive[], tp_off_apic_id[], tp_off_stack[], tp_off_stage[],
	tp_far32[], tp_far64[], tp_gdtr[], tp_cr4[], tp_gdt[];

/* Byte offset of an assembly label from the start of the code. */
#define TRAMP_OFF(sym) ((u64)((sym)-trampoline_start))

/* Copy the code to page (below 1 MiB, identity mapped) and return the
 * parameter block inside the copy, with the address fields relocated. */
struct tramp_params *trampoline_install(hpa_t page);

#endif
