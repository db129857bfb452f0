/* hv/guest/vcpu_watchdog.h - the per-vCPU no-progress watchdog used by the run
 * loop (hv/guest/vcpu.c); watchdog_ms=0 turns it off. */
#ifndef MINHV_HV_VCPU_WATCHDOG_H
#define MINHV_HV_VCPU_WATCHDOG_H

#include "hv/guest/vcpu.h"

/* Boot CPU, once, after TSC calibration. */
void vcpu_watchdog_init(u32 ms);
/* On the vCPU's CPU: start ticking, progress = now (also after a wait in
 * the host: parked time is not a hang). */
void vcpu_watchdog_arm(struct vcpu *v);
void vcpu_watchdog_disarm(void);
/* After an INTR exit (the timer's tick, or any other interrupt), once
 * exit_dispatch() counted it: re-arm the one-shot; false when the guest
 * was stopped for no progress. The only watchdog work in the run loop. */
bool vcpu_watchdog_tick(struct vcpu *v);

#endif
