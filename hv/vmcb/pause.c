// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/pause.c - choose PAUSE intercept, filter count and threshold.
 * APM vol 2, 15.14.4: VMRUN loads the count, each PAUSE decrements it,
 * with PauseFilterThreshold a gap > threshold cycles reloads it. */
#include "hv/vmcb/pause.h"
#include "include/minhv/guest_layout.h"
#include "lib/fmt.h"

static u16 clamp16(s32 v)
{
	return v > 0xffff ? 0xffff : (u16)v;
}

void pause_policy_decide(const struct features *f, const struct pause_opts *o,
			 struct pause_policy *p)
{
	p->intercept = false;
	p->count = p->threshold = 0;
	p->mode = HV_PAUSE_NONE;

	if (o->intercept == PAUSE_REQ_OFF) {
		fmt_snprintf(p->why, sizeof(p->why),
			     "PAUSE not intercepted (pause_intercept=off)");
		return;
	}
	if (!f->pause_filter) {
		if (o->intercept == PAUSE_REQ_ON) {
			p->intercept = true;
			p->mode = HV_PAUSE_EVERY;
			fmt_snprintf(
				p->why, sizeof(p->why),
				"no PauseFilter (CPUID 0x8000000A:EDX[10]=0), pause_intercept=on: every PAUSE exits");
		} else {
			fmt_snprintf(
				p->why, sizeof(p->why),
				"no PauseFilter (CPUID 0x8000000A:EDX[10]=0): PAUSE not intercepted");
		}
		return;
	}
	p->intercept = true;
	p->count = o->count >= 0 ? clamp16(o->count) : PAUSE_COUNT_DEFAULT;
	if (f->pause_filter_threshold)
		p->threshold = o->threshold >= 0 ? clamp16(o->threshold) :
						   PAUSE_THRESHOLD_DEFAULT;
	p->mode = p->count ? HV_PAUSE_FILTER : HV_PAUSE_EVERY;
	fmt_snprintf(p->why, sizeof(p->why),
		     "PauseFilter: count %u (%s)%s threshold %u (%s)", p->count,
		     o->count >= 0 ? "option" : "default",
		     f->pause_filter_threshold ? "," : ", no", p->threshold,
		     !f->pause_filter_threshold ?
			     "no PauseFilterThreshold, EDX[12]=0" :
		     o->threshold >= 0 ? "option" :
					 "default");
}
