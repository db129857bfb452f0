/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/snp/rmpopt_topo.h - which CPUs share a core, for the per-core RMPOPT_BASE
 * MSR and RMPOPT (one thread per core suffices; AMD pub. 69201). */
#ifndef MINHV_HV_SNP_RMPOPT_TOPO_H
#define MINHV_HV_SNP_RMPOPT_TOPO_H

#include "arch/types.h"

/* Number cores densely from the APIC IDs in g_percpu: threads of one core
 * differ only in the low log2(threads_per_core) bits (CPUID 0x8000001E:
 * EBX[15:8] + 1, APM vol 3 appendix E.4.13). Returns 0 or -ENOMEM. */
int rmpopt_topo_init(u32 threads_per_core);
u32 rmpopt_ncores(void);
/* CPUs the tables are sized for: g_ncpus, or 1 (the boot CPU) before the
 * SMP module has filled g_percpu. */
u32 rmpopt_ncpus(void);
u32 rmpopt_core_of(u32 cpu);
/* The CPU that issues RMPOPT for cpu's core: its lowest-numbered online
 * thread. True when cpu is that thread. */
bool rmpopt_is_issuer(u32 cpu);

#endif
