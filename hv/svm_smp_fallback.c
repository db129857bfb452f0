/* hv/svm_smp_fallback.c - weak one-CPU stand-ins for the cross-CPU call
 * API (hv/ipi.h) so the SVM engine links and runs vCPU 0 before the SMP
 * layer is in the tree; its real (strong) definitions replace these. */
#include "hv/ipi.h"

__attribute__((weak)) int smp_call_on(u32 cpu, smp_fn fn, void *arg, bool wait)
{
	(void)cpu;
	(void)fn;
	(void)arg;
	(void)wait;
	return -1; /* no other CPU is online */
}

__attribute__((weak)) int smp_call_all(smp_fn fn, void *arg, bool wait,
				       bool include_self)
{
	(void)wait;
	if (!include_self)
		return 0;
	fn(arg);
	return 1;
}

__attribute__((weak)) u32 smp_online_count(void)
{
	return 1;
}

__attribute__((weak)) u32 smp_this_cpu(void)
{
	return 0;
}
