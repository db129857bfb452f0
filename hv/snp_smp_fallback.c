/* hv/snp_smp_fallback.c - uniprocessor stand-ins for the hv/ipi.h calls the
 * SNP code uses, weak so that the SMP module's real ones replace them at
 * link time. Only meaningful while the boot CPU is the only one running. */
#include "hv/ipi.h"

__attribute__((weak)) int smp_call_all(smp_fn fn, void *arg, bool wait,
				       bool include_self)
{
	(void)wait;
	if (!include_self)
		return 0;
	fn(arg);
	return 1;
}

__attribute__((weak)) u32 smp_this_cpu(void)
{
	return 0;
}
