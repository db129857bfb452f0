/* hv/selftest/bench.h - small hooks that feed "bench:" lines (tools/bench.sh parses
 * them): the TSC of the first VMRUN, and the boot-time summary line. */
#ifndef MINHV_HV_BENCH_H
#define MINHV_HV_BENCH_H

#include "arch/types.h"

struct boot_info;

/* Called before every vCPU's run loop with bench=1; keeps the earliest. */
void bench_note_first_vmrun(u64 tsc);
/* "bench: boot ..." from efi_main, ExitBootServices, hv_main, first VMRUN. */
void bench_print_boot(const struct boot_info *bi, u64 tsc_hv_main);

#endif
