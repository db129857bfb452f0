// SPDX-License-Identifier: GPL-2.0-only
/* hv/acpi/spcr.c - the firmware's serial console from the SPCR table
 * (Microsoft "Serial Port Console Redirection Table" specification). */
#include "hv/acpi/internal.h"
#include "lib/string.h"
#include "hv/log.h"

/* SPCR offset 58, "Baud Rate": 0 means the OS keeps what firmware set. */
static bool baud_from_code(u8 code, u32 *baud)
{
	switch (code) {
	case 0:
		*baud = 0;
		return true;
	case 3:
		*baud = 9600;
		return true;
	case 4:
		*baud = 19200;
		return true;
	case 6:
		*baud = 57600;
		return true;
	case 7:
		*baud = 115200;
		return true;
	default:
		return false;
	}
}

void acpi_spcr_parse(const struct acpi_spcr *s, struct spcr_info *out)
{
	unsigned long long pa = ptr_to_hpa(s).v;

	memset(out, 0, sizeof(*out));
	if (s->h.length < ACPI_SPCR_LEN) {
		pr_warn("acpi: SPCR at %#llx: length %u is below %u; ignoring it\n",
			pa, s->h.length, ACPI_SPCR_LEN);
		return;
	}
	/* A 16550 is reached through memory or port I/O; other address
	 * spaces (PCI configuration, ...) cannot hold its registers. */
	if (s->base.space_id != ACPI_GAS_MEMORY &&
	    s->base.space_id != ACPI_GAS_IO) {
		pr_warn("acpi: SPCR at %#llx: address space %u is neither memory nor I/O; ignoring it\n",
			pa, s->base.space_id);
		return;
	}
	if (!s->base.address) {
		pr_warn("acpi: SPCR at %#llx: base address is 0; ignoring it\n",
			pa);
		return;
	}
	if (!baud_from_code(s->baud, &out->baud)) {
		/* Still a usable port: keep the rate firmware programmed. */
		pr_warn("acpi: SPCR at %#llx: unknown baud rate code %u; keeping the firmware's rate\n",
			pa, s->baud);
		out->baud = 0;
	}
	out->interface_type = s->interface_type;
	out->space_id = s->base.space_id;
	out->bit_width = s->base.bit_width;
	out->access_size = s->base.access_size;
	out->address = s->base.address;
	out->present = true;
}
