// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/wait.c - what every wait of a vCPU in the host shares with the
 * run loop: the run-time limit (guest_time_ms), and the guest's count of
 * vCPUs that wait for an event only another vCPU can send (HLT with
 * interrupts off, wait-for-SIPI, ACPI S3 without a wake-up). When that is
 * every vCPU and none has such an event pending, nothing can ever wake the
 * guest: it is stopped with that reason instead of hanging minhv. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/smp/time.h"
#include "lib/fmt.h"

bool guest_time_check(struct vcpu *v, u64 now, const char *waiting)
{
	struct guest *g = v->guest;
	char flood[64] = "";

	if (!g->deadline_tsc || now < g->deadline_tsc)
		return true;
	if (g->con_dropped)
		fmt_snprintf(flood, sizeof(flood),
			     "; console flood: %llu bytes dropped",
			     (unsigned long long)g->con_dropped);
	guest_stop(
		g, -1, true,
		"vCPU %u: run-time limit of %u ms reached at RIP %#llx%s%s%s",
		v->id, g->time_ms, (unsigned long long)v->vmcb->save.rip,
		waiting ? " in " : "", waiting ? waiting : "", flood);
	return false;
}

/* An event that ends t's wait, whatever it waits in: an NMI or INIT (they
 * wake a HLT with interrupts off, SDM vol 2 HLT), or a SIPI while it waits
 * for one. */
static bool wake_pending(const struct vcpu *t)
{
	const struct vlapic *l = &t->lapic;

	return vlapic_wakeup(l, false) ||
	       (l->wait_sipi && (__atomic_load_n(&l->sipi, __ATOMIC_ACQUIRE) &
				 VLAPIC_SIPI_PENDING));
}

bool vcpu_wait_stuck(struct vcpu *v, const char *what)
{
	struct guest *g = v->guest;
	u32 n;

	if (v->stuck_on) {
		v->stuck_on = what;
		return !__atomic_load_n(&g->stopping, __ATOMIC_ACQUIRE);
	}
	v->stuck_on = what;
	/* SEQ_CST: the look at every vCPU's pending events below comes
	 * after the count, so an event posted before its sender got stuck
	 * is seen (the sender counted later, and looks too). */
	n = __atomic_add_fetch(&g->stuck, 1, __ATOMIC_SEQ_CST);
	if (n < g->nr_vcpus)
		return true;
	for (u32 i = 0; i < g->nr_vcpus; i++)
		if (wake_pending(g->vcpus[i]))
			return true;
	guest_stop(
		g, -1, true,
		"every vCPU waits for what no vCPU can send, the last vCPU %u in %s at RIP %#llx",
		v->id, what, (unsigned long long)v->vmcb->save.rip);
	return false;
}

void vcpu_wait_unstuck(struct vcpu *v)
{
	if (!v->stuck_on)
		return;
	v->stuck_on = NULL;
	__atomic_sub_fetch(&v->guest->stuck, 1, __ATOMIC_SEQ_CST);
}
