/* SPDX-License-Identifier: GPL-2.0-only */
/* lib/checksum.h - the 8-bit sum of a byte range, as ACPI uses it (ACPI
 * 6.5 5.2.5.3 RSDP, 5.2.6 table headers): a table is valid when all its
 * bytes sum to 0, so a writer stores the negated sum of the others. One
 * copy for the parser (hv/acpi) and the table builder (hv/platform). */
#ifndef MINHV_LIB_CHECKSUM_H
#define MINHV_LIB_CHECKSUM_H

#include <stddef.h>
#include <stdint.h>

static inline uint8_t checksum8(const void *p, size_t n)
{
	const uint8_t *b = p;
	uint8_t sum = 0;

	while (n--)
		sum += *b++;
	return sum;
}

#endif
