// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hello.c - the first guest's proof of life: text through
 * HC_CONSOLE_WRITE and through COM1, one KTAP result. */
#include "guest/console.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "lib/string.h"

static void hello(void)
{
	static const char msg[] =
		"hello from the minhv test guest (hypercall)\n";
	int n = printf("%s", msg);

	report(n == (int)strlen(msg), "HC_CONSOLE_WRITE wrote %d of %zu bytes",
	       n, strlen(msg));
	com1_printf("hello from the minhv test guest (COM1)\n");
	report(true, "COM1 output written (the console log shows it)");
	report(boot_info->nr_vcpus == smp_nr(),
	       "boot info says %u vCPUs, HC_VCPU_INFO says %u",
	       boot_info->nr_vcpus, smp_nr());
	report(smp_id() == 0, "the guest starts on vCPU 0 (got %u)", smp_id());
}

const struct scenario scn_hello = { "hello", "basic", NULL, hello, 0 };
