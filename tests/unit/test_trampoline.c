// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_trampoline.c - the AP trampoline (arch/trampoline.asm,
 * arch/trampoline_copy.c): parameter block layout matches struct tramp_params,
 * the code fits its page, and installation relocates the addresses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/trampoline.h"

#define FIELD(label, field)                                               \
	assert_int_equal(TRAMP_OFF(label) - TRAMP_OFF(trampoline_params), \
			 offsetof(struct tramp_params, field))

static void test_layout_matches_asm(void **s)
{
	(void)s;
	FIELD(tp_cr3, cr3);
	FIELD(tp_efer, efer);
	FIELD(tp_entry64, entry64);
	FIELD(tp_percpus, percpus);
	FIELD(tp_ncpus, ncpus);
	FIELD(tp_alive, alive);
	FIELD(tp_off_apic_id, off_apic_id);
	FIELD(tp_off_stack, off_stack);
	FIELD(tp_off_stage, off_stage);
	FIELD(tp_far32, far32);
	FIELD(tp_far64, far64);
	FIELD(tp_gdtr, gdt_limit);
	FIELD(tp_cr4, cr4);
	assert_int_equal(TRAMP_OFF(trampoline_params) % 8, 0);
	/* code, parameters and GDT in one page; the code starts at IP 0 */
	assert_true(TRAMP_OFF(trampoline_end) <= 4096);
	assert_int_equal(trampoline_start[0], 0xfa); /* cli */
}

static void test_install_relocates(void **s)
{
	static u8 page[4096] __attribute__((aligned(4096)));
	struct tramp_params *p;
	u32 base = (u32)(uintptr_t)page;

	(void)s;
	memset(page, 0xcc, sizeof(page));
	p = trampoline_install(ptr_to_hpa(page));
	assert_ptr_equal(p, page + TRAMP_OFF(trampoline_params));
	assert_memory_equal(page, trampoline_start, TRAMP_OFF(tp_cr3));
	assert_int_equal(p->far32_sel, 0x08);
	assert_int_equal(p->far64_sel, 0x18);
	assert_int_equal(p->gdt_limit, 4 * 8 - 1);
	assert_int_equal(p->gdt_base, base + TRAMP_OFF(tp_gdt));
	/* the far jumps land inside the copy, after the real-mode part */
	assert_true(p->far32 > base && p->far32 < base + TRAMP_OFF(tp_cr3));
	assert_true(p->far64 > p->far32 && p->far64 < base + TRAMP_OFF(tp_cr3));
	/* 64-bit code descriptor: L=1, D=0 */
	assert_int_equal(((const u64 *)(page + TRAMP_OFF(tp_gdt)))[3] &
				 (3ULL << 53),
			 1ULL << 53);
	assert_int_equal(p->alive, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_matches_asm),
		cmocka_unit_test(test_install_relocates),
	};

	return cmocka_run_group_tests_name("trampoline", tests, NULL, NULL);
}
