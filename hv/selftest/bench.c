// SPDX-License-Identifier: GPL-2.0-only
/* hv/selftest/bench.c - boot-time figures for `make bench`: efi_main ->
 * ExitBootServices -> hv_main -> first VMRUN of the first guest, in TSC
 * (the first VMRUN noted at ST_VCPU_START, the line at ST_AFTER_GUEST), and
 * the same two points as absolute TSC values, which a guest's own RDTSC
 * (less its TSC offset) is measured against: Linux /init's "tsc=". */
#include "hv/selftest/selftest.h"
#include "hv/run/boot_info.h"
#include "hv/log.h"

static u64 first_vmrun;

void bench_note_first_vmrun(u64 tsc)
{
	u64 old = __atomic_load_n(&first_vmrun, __ATOMIC_RELAXED);

	while ((!old || tsc < old) &&
	       !__atomic_compare_exchange_n(&first_vmrun, &old, tsc, false,
					    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

void bench_print_boot(const struct boot_info *bi, u64 tsc_hv_main)
{
	u64 fv = __atomic_load_n(&first_vmrun, __ATOMIC_RELAXED);

	kprintf("bench: boot efi_to_ebs=%llu ebs_to_hv_main=%llu ebs_to_first_vmrun=%llu tsc\n",
		(unsigned long long)(bi->tsc_exit_boot - bi->tsc_efi_main),
		(unsigned long long)(tsc_hv_main - bi->tsc_exit_boot),
		(unsigned long long)(fv ? fv - bi->tsc_exit_boot : 0));
	kprintf("bench: boot_tsc efi_main=%llu first_vmrun=%llu tsc\n",
		(unsigned long long)bi->tsc_efi_main, (unsigned long long)fv);
}
