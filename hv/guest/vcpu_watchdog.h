/* hv/guest/vcpu_watchdog.h - the per-vCPU no-progress watchdog used by the run
 * loop (hv/guest/vcpu.c); watchdog_ms=0 turns it off. */
#ifndef MINHV_HV_VCPU_WATCHDOG_H
#define MINHV_HV_VCPU_WATCHDOG_H

#include "hv/guest/vcpu.h"

/* Boot CPU, once, after TSC calibration. */
void vcpu_watchdog_init(u32 ms);
/* On the vCPU's CPU: start ticking, progress = now. */
void vcpu_watchdog_arm(struct vcpu *v);
void vcpu_watchdog_disarm(void);
/* After each exit: false when the guest was stopped for no progress. */
bool vcpu_watchdog_check(struct vcpu *v, u64 exit_code);

#endif
