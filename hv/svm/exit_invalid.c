// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_invalid.c - VMEXIT_INVALID: VMRUN refused the VMCB (APM vol 2,
 * 15.5.1). Dump it, name the broken rule, stop the guest. QEMU 10.0.2
 * reports the code as 0xffffffff; the save area is then partly host
 * state, so the VMCB is never retried as is. */
#include "hv/svm/exit.h"
#include "hv/features.h"
#include "hv/guest/guest.h"

enum exit_action exit_invalid(struct vcpu *v)
{
	const char *why;

	/* The save area may hold host state now (QEMU): check the guest
	 * CR0 that VMRUN was given, the one field the guest changes
	 * without an exit (CR0.NW without CD: APM vol 2, 15.5.1). */
	v->vmcb->save.cr0 = v->vmrun_cr0;
	why = vmcb_check(v->vmcb, &g_features);

	vmcb_dump(v->vmcb);
	guest_stop(v->guest, -1, true,
		   "vCPU %u: VMRUN failed (VMEXIT_INVALID %#llx): %s", v->id,
		   (unsigned long long)v->vmcb->control.exit_code,
		   why ? why : "no consistency rule found broken (see dump)");
	return EXIT_LEAVE;
}
