/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/unit/test_mtrr_fixture.h - a machine of N fake CPUs with the MTRRs
 * a typical firmware leaves, shared by the test_mtrr_*.c files. */
#ifndef MINHV_TESTS_UNIT_TEST_MTRR_FIXTURE_H
#define MINHV_TESTS_UNIT_TEST_MTRR_FIXTURE_H

#include "hv/features.h"
#include "hv/mtrr/mtrr.h"

#define T_PA_BITS 48
#define T_PA_MASK ((1ULL << T_PA_BITS) - 1)
#define T_VMASK(size) ((~((u64)(size)-1) & T_PA_MASK & ~0xfffULL) | BIT(11))
#define T_DEF_TYPE 0xc06ULL /* E, FE, default WB */
#define T_SYSCFG 0x40000ULL /* MtrrFixDramEn, not ...ModEn */
#define T_CR0 0x80000011ULL
#define T_CR4 0x6a0ULL
#define T_CR3 0x1000ULL

extern const u32 t_fixed_msr[MTRR_NFIXED];
extern const u64 t_fixed_val[MTRR_NFIXED];

/* N CPUs online, all with interrupts on; firmware state: default WB,
 * variable MTRR 0 = 2 GiB..4 GiB UC, 1..7 free, fixed WB/UC(VGA)/WP. */
void t_machine(unsigned ncpus, enum cpu_vendor v, bool self_snoop);
/* A state value built like t_machine()'s, without any fake CPU. */
void t_state(struct mtrr_state *s);
/* The trace lines of one fake CPU, without the "cpuN: " prefix, joined
 * by '\n' into buf. */
void t_cpu_trace(unsigned cpu, char *buf, size_t n);
unsigned t_wbinvd_total(unsigned ncpus);

int t_policy_tests(void);
int t_sync_tests(void);
int t_range_tests(void);

#endif
