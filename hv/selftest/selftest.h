/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/selftest/selftest.h - the in-hypervisor self-tests and benchmarks: one
 * table (hv/selftest/table.c) of (stage, name, function) that production code
 * runs at fixed points (hv/selftest_hook.h) without naming any test; only
 * hv/selftest includes this header. Built without them (make SELFTEST=0)
 * the table is empty and every stage does nothing. */
#ifndef MINHV_HV_SELFTEST_SELFTEST_H
#define MINHV_HV_SELFTEST_SELFTEST_H

#include "arch/types.h"
#include "hv/selftest_hook.h"

struct boot_info;
struct guest;
struct guest_params;

struct selftest {
	enum selftest_stage stage;
	const char *name;
	void (*fn)(struct selftest_ctx *ctx);
	/* A boot self-test, which selftests=off skips; the others run when
	 * an option asks for them (bench=1, tests=). */
	bool boot_test;
};

/* The table, for tests that check what is registered. */
extern const struct selftest selftest_table[];
extern const unsigned selftest_count;

/* The entries (each in its own hv/selftest/ file). */
void smp_ktap(void); /* smp_ktap.c: SMP/IPI checks */
void ipi_bench(void); /* ipi_bench.c: bench=1 IPI figures */
void mtrr_ktap(int init_rc); /* mtrr_ktap.c: the rendezvous checks */
void park_boot_checks(void); /* park_check.c: APs parked, woken, parked */
void park_mtrr_check(void); /* park_mtrr_check.c: parked CPUs in an MTRR sync */
/* vcpu_park_check.c: park stats before a guest run, checks after it. */
void vcpu_park_snapshot(struct guest *g);
void vcpu_park_checks(const struct guest *g);
/* bench.c: "bench:" lines - first VMRUN, exit paths, boot figures. */
void bench_note_first_vmrun(u64 tsc);
void bench_print_exit_paths(const struct guest *g);
void bench_print_boot(const struct boot_info *bi, u64 tsc_hv_main);
/* svm_suite.c: tests=hostile|lifecycle|all, guests of their own. */
bool svm_suite_wanted(const char *tests);
void svm_suite_run(const struct guest_params *p);
/* sched_suite.c: tests=sched, vCPUs sharing CPUs (docs/SCHED.md). */
bool sched_suite_wanted(const char *tests);
void sched_suite_run(const struct guest_params *p);
/* snp_scenario.c: two SNP-type guests sharing a region (docs/SNP.md). */
void snp_boot_scenario(void);

#endif
