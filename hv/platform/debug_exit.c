// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/debug_exit.c - QEMU's isa-debug-exit device at 0xf4
 * (iosize 4): a write of value v ends the guest with exit status
 * (v << 1) | 1, as QEMU exits with that status. */
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

void debug_exit_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	u64 status;

	(void)port;
	if (size < 4)
		val &= (1u << (8 * size)) - 1;
	status = ((u64)val << 1) | 1;
	vcpu_stop_guest(v, (s64)status, false,
			"isa-debug-exit: value %#x, exit status %llu", val,
			(unsigned long long)status);
}
