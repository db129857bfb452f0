/* tests/unit/snp_env.h - shared set-up for the SNP/RMP/RMPOPT unit tests:
 * N fake CPUs (fake ipi_call_all), a page pool at 1 GiB, fake RMP
 * instructions with scripted results, and the model or hardware back end. */
#ifndef MINHV_TEST_SNP_ENV_H
#define MINHV_TEST_SNP_ENV_H

#include "arch/rmp.h"
#include "tests/doubles/fake_cpu.h"

#define ENV_POOL_BASE 0x40000000ULL /* region 1: 1 GiB */
#define ENV_POOL_PAGES 16384ULL /* 64 MiB */

/* ncpus fake CPUs with APIC IDs 0..n-1, threads per core as given; pool
 * reset; features for the chosen back end (hardware: SNP_EN + RMPOPT). */
void env_setup(unsigned ncpus, unsigned threads_per_core, bool hardware);
/* Fake ipi_call_all order: "seq" runs CPUs 0..n-1 (caller last). */
extern unsigned env_ncpus;

/* Fake RMP instructions (hardware back end under test). */
void fake_rmpupdate_script(const u32 *codes, unsigned n);
extern unsigned fake_rmpupdate_calls, fake_psmash_calls, fake_rmpopt_calls;
extern bool fake_rmpopt_cf;
extern unsigned fake_wbnoinvd[FAKE_NCPUS];

#endif
