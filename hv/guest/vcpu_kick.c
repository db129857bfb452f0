// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/vcpu_kick.c - making a vCPU on another CPU leave guest mode: the
 * kick (a cross-call IPI forces an INTR exit, APM 15.21.1; a parked CPU is
 * woken) and the bounded wait until it is out (hv/smp/ipi.h, hv/park). */
#include "arch/cpu.h"
#include "arch/errno.h"
#include "hv/guest/guest.h"
#include "hv/park/park.h"
#include "hv/smp/ipi.h"
#include "hv/smp/time.h"

static void kick_fn(void *arg)
{
	(void)arg; /* the IPI itself did the work: an INTR exit */
}

void vcpu_kick(struct vcpu *v)
{
	__atomic_store_n(&v->kick, 1, __ATOMIC_RELEASE);
	__atomic_store_n(&v->wake, 1, __ATOMIC_SEQ_CST);
	if (!v->in_loop || v->id == ipi_this_cpu())
		return;
	if (park_ready())
		park_wake(v->id); /* parked in vcpu_wait_wakeup() */
	ipi_call_on(v->id, kick_fn, NULL, false); /* in guest mode: INTR */
}

int vcpu_wait_out(struct vcpu *v)
{
	u64 t0 = rdtsc(), limit = (u64)VCPU_WAIT_OUT_MS * g_tsc_khz;

	while (__atomic_load_n(&v->in_guest, __ATOMIC_SEQ_CST) &&
	       !__atomic_load_n(&v->guest->stopping, __ATOMIC_ACQUIRE)) {
		/* Onlined again by a third vCPU, or never leaving: do not
		 * hold this CPU hostage. */
		if (__atomic_load_n(&v->state, __ATOMIC_SEQ_CST) !=
			    VCPU_OFFLINE ||
		    rdtsc() - t0 > limit)
			return -EBUSY;
		cpu_relax();
	}
	return 0;
}
