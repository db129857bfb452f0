// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_excp.c - intercepted exceptions (APM vol 2, 15.12): #DB and
 * #AC reflected into the guest, the faults of an IRET minhv steps over
 * (hv/svm/vlapic_exit.c), #MC logged by hv/ras and the guest stopped. */
#include "hv/svm/exit.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "hv/ras/ras.h"

enum exit_action exit_exception(struct vcpu *v)
{
	u64 code = v->vmcb->control.exit_code;

	v->stats.reflected++; /* no progress for the watchdog */
	switch (code) {
	case VMEXIT_EXCP_DB:
		if (vlapic_db_step(v)) /* minhv's step over an NMI's IRET */
			return EXIT_RESUME;
		/* DR6 is already in the VMCB save area (as KVM reads it);
		 * RIP is where the guest's own delivery would start; GD goes
		 * as the delivery clears it (a DR6.BD #DB would repeat). */
		vcpu_inject_db(v);
		return EXIT_RESUME;
	case VMEXIT_EXCP_AC:
		vcpu_inject_exception(v, VEC_AC, true, 0); /* error code 0 */
		return EXIT_RESUME;
	case VMEXIT_EXCP_NP:
	case VMEXIT_EXCP_SS:
	case VMEXIT_EXCP_GP:
	case VMEXIT_EXCP_PF:
		/* Intercepted only while minhv steps over an NMI handler's
		 * IRET: the IRET faulted. */
		return vlapic_step_fault(v) ? EXIT_RESUME : exit_unexpected(v);
	default: {
		/* A machine check in guest mode: the error is the host's
		 * hardware, not the guest's to handle. The host handler does
		 * not run by itself on the intercept: log and clear the banks
		 * and MCIP by hand (KVM's svm_handle_mce()), stop this guest. */
		char why[160];

		ras_mce_guest(v->id, why, sizeof(why));
		guest_stop(v->guest, -1, true, "vCPU %u: %s, at RIP %#llx",
			   v->id, why, (unsigned long long)v->vmcb->save.rip);
		return EXIT_LEAVE;
	}
	}
}
