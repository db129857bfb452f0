// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/kbc.c - what a guest needs of the 8042 keyboard controller
 * at 0x60/0x64: its reset line (command 0xFE pulses it, the reset Linux's
 * "reboot=k" and many other kernels use) and a status register that says
 * the controller is idle, so a kernel waiting for it to take a command
 * does not wait in vain. There is no keyboard (the FADT says there is no
 * 8042, so Linux does not probe one); other commands are ignored. */
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

/* Status: input and output buffers empty, system flag (self-test
 * passed), last write a command, keyboard not inhibited (as QEMU's
 * i8042 after reset). */
#define KBC_STATUS_IDLE 0x1c

u32 kbc_in(struct vcpu *v, u16 port, unsigned size)
{
	(void)v;
	(void)size;
	return port == KBC_CMD_PORT - KBC_DATA_PORT ? KBC_STATUS_IDLE : 0;
}

void kbc_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	(void)size;
	if (port == KBC_CMD_PORT - KBC_DATA_PORT && (u8)val == KBC_CMD_RESET)
		vcpu_end_guest(
			v, GUEST_END_RESET,
			"vCPU %u: reset by the keyboard controller (0xfe to port 0x64)",
			vcpu_id(v));
}
