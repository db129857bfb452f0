/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/ras/ras.h - machine checks and unexpected NMIs (reliability,
 * availability, serviceability): CR4.MCE and the MCA banks on every CPU, a
 * host #MC handler, the #MC and SHUTDOWN exits of a guest that took one,
 * NMIs nobody announced, and the run's account of all of them. */
#ifndef MINHV_HV_RAS_RAS_H
#define MINHV_HV_RAS_RAS_H

#include "arch/idt.h"
#include "arch/types.h"
#include "hv/trap.h"

/* Boot CPU, once, after its IDT is loaded: the host #MC handler, an NMI
 * handler until hv/smp takes NMIs over, the bank count (MCG_CAP), then
 * ras_cpu_init() for itself. */
void ras_boot_init(void);
/* Every CPU (APs from smp_ap_entry): CR4.MCE on, every MCA bank enabled
 * (MCG_CTL, MCi_CTL all ones, as Linux does), errors the banks held from
 * before the hand-over logged and cleared (not counted against the run). */
void ras_cpu_init(void);
/* An NMI nobody announced (hv/smp/ipi.c): counted and logged with the
 * port 61h reason bits (boot CPU), never fatal. */
void ras_nmi_unknown(const struct trap_frame *f);
/* The #MC intercept: a machine check while vCPU vcpu ran. Logs and
 * clears the banks and MCG_STATUS.MCIP, and writes the reason the guest
 * is stopped with into why[n]. A corrupt processor context (PCC) stops
 * the whole run. */
void ras_mce_guest(u32 vcpu, char *why, size_t n);
/* The SHUTDOWN intercept: true, with the reason in why[n] and the banks
 * logged and cleared as above, when MCG_STATUS.MCIP says a machine check
 * the guest could not take (CR4.MCE clear, no IDT entry) caused it. */
bool ras_mce_shutdown(u32 vcpu, char *why, size_t n);
/* ras_emit(), a log line from any context, is declared in hv/trap.h: the
 * core's trap_dispatch() uses it too. */
/* End of the run, boot CPU: lines the handlers could not print at once,
 * one summary line, and the KTAP result ras.machine_check (not ok after
 * any machine check: docs/HARDWARE.md says why). */
void ras_report(void);
/* On the boot CPU's periodic tick: print the lines an NMI or #MC handler
 * had to queue (its CPU held the console lock) now, not at the end of
 * the run. Elsewhere, nothing. */
void ras_tick(void);

#endif
