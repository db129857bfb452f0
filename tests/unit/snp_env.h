/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/snp_env.h - shared set-up for the SNP/RMP/RMPOPT unit tests:
 * N fake CPUs (fake ipi_call_all), a page pool at 1 GiB, fake RMP
 * instructions with scripted results, and the model or hardware back end. */
#ifndef MINHV_TESTS_UNIT_SNP_ENV_H
#define MINHV_TESTS_UNIT_SNP_ENV_H

#include "arch/rmp.h"
#include "tests/doubles/fake_cpu.h"

#define ENV_POOL_BASE 0x40000000ULL /* region 1: 1 GiB */
#define ENV_POOL_PAGES 16384ULL /* 64 MiB */

/* ncpus fake CPUs with APIC IDs 0..n-1, threads per core as given; pool
 * reset; features for the chosen back end (hardware: SNP_EN + RMPOPT). */
void env_setup(unsigned ncpus, unsigned threads_per_core, bool hardware);
/* Fake ipi_call_all order: "seq" runs CPUs 0..n-1 (caller last). */
extern unsigned env_ncpus;

/* Fake host mapping (snp_host_map_hook): every address below
 * env_host_mapped_top starts in a 2 MiB host mapping; the hook records each
 * split 2 MiB (traced "split 0x..." like the RMPUPDATEs) or fails. */
#define ENV_MAX_SPLITS 64
extern u64 env_splits[ENV_MAX_SPLITS];
extern unsigned env_nsplits;
/* 4 KiB RMPUPDATE assignments inside a still 2 MiB host mapping (the
 * hardware back end's fake RMPUPDATE counts them). Must stay 0. */
extern unsigned env_4k_in_host_2m;
extern bool env_split_fails;
bool env_host_2m_mapped(u64 spa);

/* Fake RMP instructions (hardware back end under test). */
void fake_rmpupdate_script(const u32 *codes, unsigned n);
extern unsigned fake_rmpupdate_calls, fake_psmash_calls, fake_rmpopt_calls;
extern bool fake_rmpopt_cf;
extern unsigned fake_wbnoinvd[FAKE_NCPUS];

#endif
