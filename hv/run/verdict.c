// SPDX-License-Identifier: GPL-2.0-only
/* hv/run/verdict.c - how a foreign guest's end is judged: as QEMU's
 * runners judge the same guest on bare QEMU. kvm-unit-tests pass only
 * with isa-debug-exit's value 0 (QEMU exits 1; a plain QEMU exit is a
 * failure to them, scripts/vmm.bash), skip with 77; Linux passes with
 * that value too (the project's /init) and when it powers off or resets
 * itself and the run stops there (reboot=stop), as QEMU exits 0. */
#include "hv/emul/vcpu_api.h"
#include "hv/run/run.h"

/* isa-debug-exit value 0 ends the guest with (0 << 1) | 1. */
#define PASS_STATUS 1
/* kvm-unit-tests' skip: 77 (scripts/runtime.bash), or value 77 written. */
#define SKIP_STATUS 77
#define SKIP_WRITTEN ((SKIP_STATUS << 1) | 1)

enum run_verdict run_foreign_verdict(bool linux, bool failed, int end,
				     s64 status)
{
	if (failed)
		return RUN_FAIL;
	if (linux)
		return status == PASS_STATUS || end == GUEST_END_POWEROFF ||
				       end == GUEST_END_RESET ?
			       RUN_PASS :
			       RUN_FAIL;
	if (end != GUEST_END_NONE)
		return RUN_FAIL; /* a plain QEMU exit is no pass there */
	if (status == SKIP_STATUS || status == SKIP_WRITTEN)
		return RUN_SKIP;
	return status == PASS_STATUS ? RUN_PASS : RUN_FAIL;
}
