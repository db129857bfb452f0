// SPDX-License-Identifier: GPL-2.0-only
/* hv/vmcb/exit_decode.c - EXITINFO decoding and RIP advance (APM vol 2, 15.7.1
 * NRIP, 15.10.2 IOIO, 15.11 MSR, 15.25.6 NPF). No state, no side effects. */
#include "hv/vmcb/exit_decode.h"
#include "lib/fmt.h"

void exit_ioio_decode(u64 e, struct ioio_info *io)
{
	io->in = e & BIT(0);
	io->str = e & BIT(2);
	io->rep = e & BIT(3);
	io->size = (e & BIT(4)) ? 1 : (e & BIT(5)) ? 2 : (e & BIT(6)) ? 4 : 0;
	io->addr_bits = (e & BIT(7)) ? 16 :
			(e & BIT(8)) ? 32 :
			(e & BIT(9)) ? 64 :
				       0;
	io->seg = (e >> 10) & 7;
	io->port = (u16)(e >> 16);
}

void exit_npf_decode(u64 e, struct npf_info *n)
{
	n->present = e & BIT(0);
	n->write = e & BIT(1);
	n->user = e & BIT(2);
	n->rsvd = e & BIT(3);
	n->fetch = e & BIT(4);
	n->final_gpa = e & BIT(32);
	n->guest_walk = e & BIT(33);
}

const char *exit_npf_describe(const struct npf_info *n, char *buf, size_t len)
{
	fmt_snprintf(buf, len, "%s %s%s%s",
		     n->fetch ? "fetch from" :
		     n->write ? "write to" :
				"read of",
		     n->rsvd	? "page with reserved bits set" :
		     n->present ? "protected page" :
				  "unmapped page",
		     n->guest_walk ? " during a guest page-table walk" : "",
		     n->final_gpa ? " (final address)" : "");
	return buf;
}
