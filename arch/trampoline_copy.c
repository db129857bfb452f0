// SPDX-License-Identifier: GPL-2.0-only
/* arch/trampoline_copy.c - copy the AP start-up code into its page below 1 MiB
 * and relocate the parameter block's addresses to that page. */
#include "arch/trampoline.h"
#include "lib/string.h"

extern const u8 tp_pm32[], tp_lm64[];

struct tramp_params *trampoline_install(hpa_t page)
{
	u8 *dst = hpa_to_ptr(page);
	struct tramp_params *p;

	memcpy(dst, trampoline_start,
	       (size_t)(trampoline_end - trampoline_start));
	p = (struct tramp_params *)(dst + TRAMP_OFF(trampoline_params));
	p->far32 = (u32)(page.v + TRAMP_OFF(tp_pm32));
	p->far64 = (u32)(page.v + TRAMP_OFF(tp_lm64));
	p->gdt_base = (u32)(page.v + TRAMP_OFF(tp_gdt));
	p->alive = 0;
	return p;
}
