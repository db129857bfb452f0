// SPDX-License-Identifier: GPL-2.0-only
/* hv/ras/report.c - the run's account of machine checks and unexpected
 * NMIs: one summary line and the KTAP result ras.machine_check. A machine
 * check fails the run (docs/HARDWARE.md, "Machine checks and NMIs"); an
 * unexpected NMI does not. */
#include "hv/ras/internal.h"
#include "hv/ktap.h"
#include "hv/log.h"

void ras_report(void)
{
	u32 host = __atomic_load_n(&g_mce_host, __ATOMIC_RELAXED);
	u32 guest = __atomic_load_n(&g_mce_guest, __ATOMIC_RELAXED);
	u32 nmi = __atomic_load_n(&g_nmi_unknown, __ATOMIC_RELAXED);
	u32 dropped = __atomic_load_n(&g_ras_dropped, __ATOMIC_RELAXED);

	ras_flush();
	pr_info("ras: machine checks: %u in host mode, %u in guests; unexpected NMIs: %u%s\n",
		host, guest, nmi,
		dropped ? " (some handler lines were lost: queue full)" : "");
	ktap_ok("ras.machine_check", !host && !guest,
		"%u machine check%s during the run (%u in host mode, %u in guests): see the mce: lines",
		host + guest, host + guest == 1 ? "" : "s", host, guest);
}
