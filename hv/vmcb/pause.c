// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/pause.c - choose PAUSE intercept, filter count and threshold.
 * APM vol 2, 15.14.4: VMRUN loads the count, each PAUSE decrements it,
 * with PauseFilterThreshold a gap > threshold cycles reloads it. */
#include "hv/vmcb/pause.h"
#include "include/minhv/guest_layout.h"
#include "lib/fmt.h"

/* auto on shared CPUs: the intercept follows the CPU's queue. */
#define FOLLOW_NOTE " (while another vCPU waits for the CPU)"

static u16 clamp16(s32 v)
{
	return v > 0xffff ? 0xffff : (u16)v;
}

/* The filter values as options or defaults ask, described into buf. */
static void filter_values(const struct features *f, const struct pause_opts *o,
			  struct pause_policy *p, char *buf, size_t n)
{
	p->count = o->count >= 0 ? clamp16(o->count) : PAUSE_COUNT_DEFAULT;
	if (f->pause_filter_threshold)
		p->threshold = o->threshold >= 0 ? clamp16(o->threshold) :
						   PAUSE_THRESHOLD_DEFAULT;
	fmt_snprintf(buf, n, "PauseFilter: count %u (%s)%s threshold %u (%s)",
		     p->count, o->count >= 0 ? "option" : "default",
		     f->pause_filter_threshold ? "," : ", no", p->threshold,
		     !f->pause_filter_threshold ?
			     "no PauseFilterThreshold, EDX[12]=0" :
		     o->threshold >= 0 ? "option" :
					 "default");
}

void pause_policy_decide(const struct features *f, const struct pause_opts *o,
			 bool shared, struct pause_policy *p)
{
	char filter[128];

	p->intercept = p->follow = false;
	p->count = p->threshold = 0;
	p->mode = HV_PAUSE_NONE;
	if (f->pause_filter)
		filter_values(f, o, p, filter, sizeof(filter));

	if (o->intercept == PAUSE_REQ_OFF) {
		fmt_snprintf(p->why, sizeof(p->why),
			     "PAUSE not intercepted (pause_intercept=off)");
		return;
	}
	if (o->intercept == PAUSE_REQ_AUTO && !shared) {
		/* Nobody else to run on the CPU: an exit is pure cost (KVM
		 * and ACRN turn it off for pinned vCPUs). */
		if (f->pause_filter)
			fmt_snprintf(
				p->why, sizeof(p->why),
				"one vCPU per CPU: PAUSE not intercepted (%s in the VMCB)",
				filter);
		else
			fmt_snprintf(
				p->why, sizeof(p->why),
				"no PauseFilter (CPUID 0x8000000A:EDX[10]=0): PAUSE not intercepted");
		return;
	}
	p->intercept = true;
	p->follow = o->intercept == PAUSE_REQ_AUTO;
	if (!f->pause_filter) {
		p->mode = HV_PAUSE_EVERY;
		fmt_snprintf(
			p->why, sizeof(p->why),
			"no PauseFilter (CPUID 0x8000000A:EDX[10]=0), %s: every PAUSE exits%s",
			o->intercept == PAUSE_REQ_ON ?
				"pause_intercept=on" :
				"vCPUs share CPUs, intercepted",
			p->follow ? FOLLOW_NOTE : "");
		return;
	}
	p->mode = p->count ? HV_PAUSE_FILTER : HV_PAUSE_EVERY;
	fmt_snprintf(p->why, sizeof(p->why), "%s%s%s", filter,
		     o->intercept == PAUSE_REQ_ON ? "" : "; vCPUs share CPUs",
		     p->follow ? FOLLOW_NOTE : "");
}

u16 pause_window_grow(u16 cur, u16 base)
{
	u32 w;

	if (!base)
		return 0;
	/* KVM: multiply while the modifier is below the base, else add. */
	w = PAUSE_WINDOW_GROW < base ? (u32)cur * PAUSE_WINDOW_GROW :
				       (u32)cur + PAUSE_WINDOW_GROW;
	return w > PAUSE_WINDOW_MAX ? PAUSE_WINDOW_MAX : (u16)w;
}
