/* hv/svm/run_linux.c - running a Linux bzImage guest (hv/guest/linux_boot.c):
 * one vCPU, cmdline= and initrd= from the options, no KTAP of its own. It
 * ends through isa-debug-exit (a write of v: exit status (v << 1) | 1, as
 * under QEMU); the initramfs `make linux` builds writes 0 when its checks
 * passed, so status 1 is a pass, as for kvm-unit-tests. */
#include "hv/guest/guest.h"
#include "hv/ktap.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/options/options.h"
#include "hv/svm/svm.h"

#define LINUX_PASS_STATUS 1 /* isa-debug-exit value 0 */

const void *g_boot_initrd;
u64 g_boot_initrd_size;

int svm_run_linux(struct guest_params *p)
{
	struct guest *g;
	u64 before = mm_free_pages();
	bool ok;
	int r;

	p->cmdline = g_options.cmdline;
	p->initrd = g_boot_initrd;
	p->initrd_size = g_boot_initrd_size;
	/* No APs and no interrupts yet: one vCPU. */
	p->nr_vcpus = 1;
	r = svm_guest_run_once(p, &g);
	if (!ktap_ok("svm.guest_create", r == 0, "guest_create(%s): %d",
		     p->name, r))
		return -1;
	pr_info("svm: guest %s: exit status %lld%s\n", g->name,
		(long long)g->exit_status,
		g->failed ? " (stopped by minhv)" : "");
	ok = ktap_ok("svm.guest_run", !g->failed, "guest %s: %s", g->name,
		     g->stop_reason);
	ok &= ktap_ok("linux.exit_status",
		      !g->failed && g->exit_status == LINUX_PASS_STATUS,
		      "guest %s: exit status %lld, %d means /init passed",
		      g->name, (long long)g->exit_status, LINUX_PASS_STATUS);
	guest_destroy(g);
	ok &= ktap_ok("svm.pool_restored", mm_free_pages() == before,
		      "pool has %llu free pages after teardown, %llu before",
		      (unsigned long long)mm_free_pages(),
		      (unsigned long long)before);
	return ok ? 0 : -1;
}
