// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/io.c - port I/O as minhv emulates it: COM1 writes reach
 * the console (one IOIO exit each), other ports read all-ones and drop
 * writes, and the QEMU exit port is not reachable from a guest. */
#include "guest/console.h"
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/x86.h"
#include "lib/string.h"

#define UNKNOWN_PORT 0x1234
#define PCI_CONFIG_ADDR 0xcf8
#define PCI_CONFIG_DATA 0xcfc
#define QEMU_DEBUG_EXIT 0xf4 /* isa-debug-exit on the host's QEMU */

static void com1(void)
{
	static const char line[] = "io: this line went out through COM1\n";
	struct hc_counters a, b;
	long ra, rb;

	ra = hc_get_counters(&a, sizeof(a));
	com1_write(line, strlen(line));
	rb = hc_get_counters(&b, sizeof(b));
	report(ra == sizeof(a) && rb == sizeof(b), "HC_GET_COUNTERS: %ld, %ld",
	       ra, rb);
	report(b.ioio - a.ioio == strlen(line),
	       "%llu IOIO exits for %zu COM1 bytes", b.ioio - a.ioio,
	       strlen(line));
}

static void unknown_ports(void)
{
	u8 b;
	u16 w;
	u32 l;

	b = inb(UNKNOWN_PORT);
	w = inw(UNKNOWN_PORT);
	l = inl(UNKNOWN_PORT);
	report(b == 0xff && w == 0xffff && l == 0xffffffff,
	       "port %#x reads %#x / %#x / %#x, want all-ones", UNKNOWN_PORT, b,
	       w, l);
	outb(UNKNOWN_PORT, 0);
	outl(UNKNOWN_PORT, 0);
	report(inl(UNKNOWN_PORT) == 0xffffffff,
	       "a write to port %#x is dropped", UNKNOWN_PORT);
	outl(PCI_CONFIG_ADDR, 0x80000000); /* bus 0, device 0, vendor id */
	l = inl(PCI_CONFIG_DATA);
	report(l == 0xffffffff, "PCI config space is not visible: %#x", l);
	/* Were this passed through, QEMU would end the whole run here. */
	outb(QEMU_DEBUG_EXIT, 0);
	report(true, "port %#x write did not end the machine", QEMU_DEBUG_EXIT);
}

static void io_body(void)
{
	com1();
	unknown_ports();
}

const struct scenario scn_io = { "io", "basic", NULL, io_body, 0 };
