/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/emul/vcpu_api.h - the vCPU as the device models (hv/platform) and
 * the vCPU's own ops (hv/vcpu) reach what lies above them: struct vcpu is
 * an opaque pointer here, and these few services are implemented above,
 * in hv/guest (vcpu_api.c, console.c, stop.c), so that nothing below
 * hv/guest includes hv/guest or hv/svm (KVM's lapic.c never includes
 * svm.h either). docs/ARCHITECTURE.md lists the rooms. */
#ifndef MINHV_HV_EMUL_VCPU_API_H
#define MINHV_HV_EMUL_VCPU_API_H

#include <stddef.h>

#include "arch/types.h"

struct platform;
struct vcpu;

/* The devices of v's guest (hv/platform/platform.h); NULL when it has
 * none (minhv's own test guest). */
struct platform *vcpu_platform(struct vcpu *v);
/* v's number in its guest: vCPU n runs on CPU n. */
u32 vcpu_id(const struct vcpu *v);
/* Stop v's guest (guest_stop(): the first reason wins, every vCPU
 * leaves). failed: minhv stopped it, status is not the guest's own. */
void vcpu_stop_guest(struct vcpu *v, s64 status, bool failed, const char *fmt,
		     ...) __attribute__((format(printf, 4, 5)));
/* How a guest ended itself besides an exit status: powered off (ACPI
 * S5) or reset (the 8042, port 0xCF9, the FADT's reset register). */
enum guest_end { GUEST_END_NONE, GUEST_END_POWEROFF, GUEST_END_RESET };
/* Stop v's guest as it asked, a clean end (hv/run decides whether a reset
 * restarts it); the first reason wins, as for vcpu_stop_guest(). */
void vcpu_end_guest(struct vcpu *v, enum guest_end how, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Guest console bytes, line-buffered and prefixed with the guest's name
 * (hv/guest/console.c). */
void guest_console_put(struct vcpu *v, const char *s, size_t n);
/* One line of a device's own buffer (the UART's), prefixed likewise and
 * printed whole: the device paces itself (guest_console_rate). */
void guest_console_line(struct vcpu *v, const char *s, size_t n);

#endif
