// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/vcpu_api.c - the vCPU services that the device models and the
 * vCPU's own ops call from below (hv/emul/vcpu_api.h): they see struct
 * vcpu only as a pointer, this file knows its guest. */
#include "hv/emul/vcpu_api.h"
#include "hv/guest/guest.h"

struct platform *vcpu_platform(struct vcpu *v)
{
	return guest_has_platform(v->guest) ? &v->guest->plat : NULL;
}

u32 vcpu_id(const struct vcpu *v)
{
	return v->id;
}

void vcpu_stop_guest(struct vcpu *v, s64 status, bool failed, const char *fmt,
		     ...)
{
	va_list ap;

	va_start(ap, fmt);
	guest_vstop(v->guest, status, failed, fmt, ap);
	va_end(ap);
}

void vcpu_end_guest(struct vcpu *v, enum guest_end how, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	guest_vstop_end(v->guest, 0, false, how, fmt, ap);
	va_end(ap);
}
