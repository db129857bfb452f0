// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/vcpu_state.c - a vCPU's state machine with the guest's count of
 * vCPUs still able to run (the last one out stops the guest), and its
 * reset for HC_VCPU_START. */
#include "arch/errno.h"
#include "hv/features.h"
#include "hv/guest/guest.h"
#include "lib/string.h"

/* Called with g->lock held, after live dropped: nobody left to run. */
static void check_live(struct guest *g, const char *why)
{
	if (!g->live && !g->stopping) {
		spin_unlock(&g->lock);
		guest_stop(g, 0, false, "%s", why);
		spin_lock(&g->lock);
	}
}

void vcpu_set_done(struct vcpu *v)
{
	struct guest *g = v->guest;

	spin_lock(&g->lock);
	if (v->state == VCPU_RUNNING)
		g->live--;
	v->state = VCPU_DONE;
	check_live(g, "every vCPU has halted");
	spin_unlock(&g->lock);
}

void vcpu_set_halted(struct vcpu *v)
{
	struct guest *g = v->guest;

	spin_lock(&g->lock);
	if (v->state == VCPU_RUNNING) {
		v->state = VCPU_HALTED;
		g->live--;
		check_live(g, "every vCPU is offline or halted");
	}
	spin_unlock(&g->lock);
}

int vcpu_claim_start(struct vcpu *v)
{
	struct guest *g = v->guest;
	int r = -EBUSY;

	spin_lock(&g->lock);
	/* DONE: only once it left its CPU's queue too (SE_NONE). */
	if (v->state == VCPU_IDLE ||
	    (v->state == VCPU_DONE &&
	     !__atomic_load_n(&v->in_loop, __ATOMIC_ACQUIRE) &&
	     __atomic_load_n(&v->se.state, __ATOMIC_ACQUIRE) == SE_NONE)) {
		v->state = VCPU_STARTING;
		r = 0;
	}
	spin_unlock(&g->lock);
	return r;
}

void vcpu_reset(struct vcpu *v, u64 rip, u64 rsp, u64 arg)
{
	struct guest *g = v->guest;
	struct vmcb_guest vg = {
		.asid = g->asid,
		.iopm = g->iopm,
		.msrpm = g->msrpm,
		.ncr3 = g->npt.root,
		.cr3 = g->cr3,
		.rip = { rip },
		.rsp = { rsp },
	};

	memset(v->vmcb, 0, sizeof(*v->vmcb));
	vmcb_build(v->vmcb, &g_features, &g->pause, &vg);
	memset(&v->gprs, 0, sizeof(v->gprs));
	v->gprs.rdi = arg;
	v->queued_event = 0; /* nothing pending after RESET/INIT */
	v->pkrs = 0; /* its RESET/INIT value (vcpu_pkrs.c) */
	v->misc_enable = MISC_ENABLE_FAST_STRING;
}

int vcpu_set_offline(struct vcpu *v)
{
	struct guest *g = v->guest;
	int r = 0;

	spin_lock(&g->lock);
	if (v->state == VCPU_RUNNING) {
		v->state = VCPU_OFFLINE;
		v->stats.offlines++;
		g->live--;
		check_live(g, "every vCPU is offline or halted");
	} else if (v->state != VCPU_OFFLINE && v->state != VCPU_HALTED) {
		r = -ENOENT;
	}
	spin_unlock(&g->lock);
	return r;
}

int vcpu_set_online(struct vcpu *v)
{
	struct guest *g = v->guest;
	int r = 0;

	spin_lock(&g->lock);
	if (v->state == VCPU_OFFLINE || v->state == VCPU_HALTED) {
		v->state = VCPU_RUNNING;
		g->live++;
	} else if (v->state == VCPU_RUNNING) {
		r = -EBUSY;
	} else {
		r = -ENOENT;
	}
	spin_unlock(&g->lock);
	return r;
}
