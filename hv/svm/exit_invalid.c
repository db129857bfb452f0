// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_invalid.c - VMEXIT_INVALID: VMRUN refused the VMCB (APM vol 2,
 * 15.5.1). Dump it, name the broken rule, stop the guest. QEMU 10.0.2
 * reports the code as 0xffffffff; the save area is then partly host
 * state, so the VMCB is never retried as is. One exception, under QEMU
 * only: its own VMEXIT_INVALID for a guest MOV to CR3/CR4 (below). */
#include "arch/cr.h"
#include "hv/svm/exit.h"
#include "hv/guest/mmio.h"
#include "hv/features.h"
#include "hv/guest/guest.h"

/* QEMU TCG's MOV to CR (helper_write_crN) answers a CR4 value with a bit
 * its CPU model reserves, or a long-mode CR3 with bits above MAXPHYADDR,
 * with SVM_EXIT_ERR when it runs as an SVM guest: VMEXIT_INVALID in the
 * middle of the guest, with the guest's state at that MOV in the save
 * area. The architecture says #GP(0) (SDM vol 3A 2.5; APM vol 2 3.1.3,
 * 3.1.2): give the guest that, from 16-bit code too (real mode or
 * CS.D = 0, decoded at CS.base + IP). Only under QEMU (fw_cfg, decided at boot):
 * on hardware a VMRUN failure that vmcb_check() does not recognise, with
 * RIP at such a MOV, would get the #GP and fail again at once, forever
 * (each exit counting as watchdog progress). And never twice in a row at
 * one RIP: the #GP of the first answer was not delivered then, so this
 * is a real failure, not QEMU's MOV. */
static __attribute__((cold)) bool mov_cr_gp(struct vcpu *v)
{
	struct mmio_bytes b;
	struct insn in;
	u64 rip = v->vmcb->save.rip;

	if (!g_features.qemu ||
	    (v->mov_cr_gp_exit && rip == v->mov_cr_gp_rip &&
	     v->stats.exits == v->mov_cr_gp_exit + 1) ||
	    emul_decode_at_rip(v, &b, &in) || in.kind != INSN_MOV_TO_CR ||
	    (in.cr != 3 && in.cr != 4) || vmcb_check(v->vmcb, &g_features))
		return false;
	v->stats.mov_cr_gp++;
	v->mov_cr_gp_rip = rip;
	v->mov_cr_gp_exit = v->stats.exits;
	/* Real mode pushes no error code (SDM vol 3A 20.1.4); an event
	 * injected with one there fails VMRUN (KVM drops it the same way). */
	vcpu_inject_exception(v, VEC_GP, v->vmcb->save.cr0 & CR0_PE, 0);
	return true;
}

enum exit_action exit_invalid(struct vcpu *v)
{
	const char *why;

	if (mov_cr_gp(v))
		return EXIT_RESUME;

	/* The save area may hold host state now (QEMU): check the guest
	 * CR0 that VMRUN was given, the one field the guest changes
	 * without an exit (CR0.NW without CD: APM vol 2, 15.5.1). */
	vmcb_set_cr0(v->vmcb, v->vmrun_cr0);
	why = vmcb_check(v->vmcb, &g_features);

	vmcb_dump(v->vmcb);
	guest_stop(v->guest, -1, true,
		   "vCPU %u: VMRUN failed (VMEXIT_INVALID %#llx): %s", v->id,
		   (unsigned long long)v->vmcb->control.exit_code,
		   why ? why : "no consistency rule found broken (see dump)");
	return EXIT_LEAVE;
}
