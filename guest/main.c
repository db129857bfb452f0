// SPDX-License-Identifier: GPL-2.0-only
/* guest/main.c - guest_main(): check the boot info, run the selected
 * scenarios, and end the guest with HC_EXIT. */
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/smp.h"
#include "guest/test.h"

_Noreturn void guest_main(const struct hv_boot_info *bi, u32 vcpu);

_Noreturn void guest_main(const struct hv_boot_info *bi, u32 vcpu)
{
	char tests[sizeof(bi->tests) + 1];

	if (!bi || bi->magic != HV_BOOT_INFO_MAGIC) {
		printf("guest: bad boot info at %p (magic %#llx), stopping\n",
		       (const void *)bi, bi ? bi->magic : 0ULL);
		hc_exit(2);
	}
	boot_info = bi;
	/* The filter may fill its array: copy it NUL-terminated. */
	for (size_t i = 0; i < sizeof(bi->tests); i++)
		tests[i] = bi->tests[i];
	tests[sizeof(bi->tests)] = 0;
	printf("guest %.16s: vCPU %u of %u, %llu MiB\n", bi->name, vcpu,
	       bi->nr_vcpus, bi->mem_size >> 20);
	run_scenarios(tests);
	hc_exit(0); /* failures travel in the reports, not the exit status */
}
