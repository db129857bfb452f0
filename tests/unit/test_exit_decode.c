// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exit_decode.c - EXITINFO decoding (IOIO, MSR, NPF) and
 * the RIP advance with and without NRIP (APM vol 2, 15.7.1, 15.10.2). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/svm/exit.h"
#include "hv/vmcb/exit_decode.h"

static void test_ioio(void **s)
{
	struct ioio_info io;

	(void)s;
	/* OUT DX, AL to 0x3f8: TYPE=0, SZ8, A64. */
	exit_ioio_decode((0x3f8ULL << 16) | BIT(4) | BIT(9), &io);
	assert_int_equal(io.port, 0x3f8);
	assert_int_equal(io.size, 1);
	assert_false(io.in);
	assert_false(io.str);
	assert_false(io.rep);
	assert_int_equal(io.addr_bits, 64);
	/* IN EAX, DX from 0xcfc. */
	exit_ioio_decode((0xcfcULL << 16) | BIT(6) | BIT(0), &io);
	assert_int_equal(io.port, 0xcfc);
	assert_int_equal(io.size, 4);
	assert_true(io.in);
	/* REP OUTSW to 0xffff, segment ES (0), A32 - QEMU omits A/seg. */
	exit_ioio_decode((0xffffULL << 16) | BIT(5) | BIT(2) | BIT(3) | BIT(8) |
				 (3ULL << 10),
			 &io);
	assert_int_equal(io.port, 0xffff);
	assert_int_equal(io.size, 2);
	assert_true(io.str);
	assert_true(io.rep);
	assert_int_equal(io.addr_bits, 32);
	assert_int_equal(io.seg, 3);
	exit_ioio_decode(0, &io);
	assert_int_equal(io.size, 0);
	assert_int_equal(io.addr_bits, 0);
}

static void test_msr(void **s)
{
	(void)s;
	assert_false(msr_exit_is_write(0));
	assert_true(msr_exit_is_write(1));
}

static void test_npf(void **s)
{
	struct npf_info n;
	char b[96];

	(void)s;
	exit_npf_decode(BIT(32) | BIT(1), &n);
	assert_true(n.final_gpa);
	assert_false(n.guest_walk);
	assert_true(n.write);
	assert_false(n.present);
	assert_string_equal(exit_npf_describe(&n, b, sizeof(b)),
			    "write to unmapped page (final address)");
	exit_npf_decode(BIT(33) | BIT(0) | BIT(2), &n);
	assert_true(n.guest_walk);
	assert_false(n.final_gpa);
	assert_true(n.present);
	assert_true(n.user);
	assert_non_null(strstr(
		exit_npf_describe(&n, b, sizeof(b)),
		"read of protected page during a guest page-table walk"));
	exit_npf_decode(BIT(4) | BIT(3) | BIT(32), &n);
	assert_true(n.fetch);
	assert_true(n.rsvd);
	assert_non_null(strstr(exit_npf_describe(&n, b, sizeof(b)),
			       "fetch from page with reserved bits"));
}

static void test_len_fallback(void **s)
{
	(void)s;
	assert_int_equal(exit_insn_len_fallback(VMEXIT_CPUID), 2);
	assert_int_equal(exit_insn_len_fallback(VMEXIT_VMMCALL), 3);
	assert_int_equal(exit_insn_len_fallback(VMEXIT_HLT), 1);
	assert_int_equal(exit_insn_len_fallback(VMEXIT_PAUSE), 2);
	assert_int_equal(exit_insn_len_fallback(VMEXIT_MSR), 2);
	assert_int_equal(exit_insn_len_fallback(VMEXIT_NPF), 0);
	assert_int_equal(exit_insn_len_fallback(VMEXIT_IOIO), 0);
}

static void test_next_rip(void **s)
{
	static struct vmcb v;
	u64 next = 0;

	(void)s;
	v.save.rip = 0x1000;
	v.control.exit_code = VMEXIT_VMMCALL;
	v.control.next_rip = 0;
	/* No NRIP: known length. */
	assert_true(exit_next_rip(&v, false, &next));
	assert_int_equal(next, 0x1003);
	/* NRIP present and written: trust it. */
	v.control.next_rip = 0x1010;
	assert_true(exit_next_rip(&v, true, &next));
	assert_int_equal(next, 0x1010);
	/* NRIP present but never written (QEMU-like): fall back. */
	v.control.next_rip = 0;
	assert_true(exit_next_rip(&v, true, &next));
	assert_int_equal(next, 0x1003);
	/* Without the feature a stale NRIP value is ignored. */
	v.control.next_rip = 0x2000;
	assert_true(exit_next_rip(&v, false, &next));
	assert_int_equal(next, 0x1003);
	/* IOIO: EXITINFO2, whatever NRIP says. */
	v.control.exit_code = VMEXIT_IOIO;
	v.control.exit_info2 = 0x1001;
	assert_true(exit_next_rip(&v, true, &next));
	assert_int_equal(next, 0x1001);
	/* Unknown length without NRIP: refused. */
	v.control.exit_code = VMEXIT_NPF;
	assert_false(exit_next_rip(&v, false, &next));
}

static void test_invalid_and_names(void **s)
{
	(void)s;
	assert_true(exit_is_invalid(~0ULL));
	assert_true(exit_is_invalid(0xffffffffULL));
	assert_false(exit_is_invalid(0xfffffffeULL));
	assert_false(exit_is_invalid(VMEXIT_NPF));
	assert_string_equal(exit_name(VMEXIT_NPF), "NPF");
	assert_string_equal(exit_name(0xffffffffULL), "INVALID");
	assert_string_equal(exit_name(0x7b), "IOIO");
	assert_string_equal(exit_name(0x1234), "?");
}

static void test_kinds(void **s)
{
	(void)s;
	assert_int_equal(exit_kind_of(VMEXIT_CPUID), EK_CPUID);
	assert_int_equal(exit_kind_of(VMEXIT_VMMCALL), EK_VMMCALL);
	assert_int_equal(exit_kind_of(VMEXIT_IOIO), EK_IOIO);
	assert_int_equal(exit_kind_of(VMEXIT_NPF), EK_NPF);
	assert_int_equal(exit_kind_of(VMEXIT_SKINIT), EK_SVM_INSN);
	assert_int_equal(exit_kind_of(VMEXIT_INVLPGA), EK_SVM_INSN);
	assert_int_equal(exit_kind_of(VMEXIT_NMI), EK_NMI);
	assert_int_equal(exit_kind_of(0xffffffffULL), EK_OTHER);
	assert_int_equal(exit_kind_of(0x72ULL | (1ULL << 32)), EK_OTHER);
}

/* The exit table: every row sits at its own code, codes that only share
 * the low bits with a row (or with the direct-index range) get none. */
static void test_table(void **s)
{
	(void)s;
	for (u64 c = 0; c < 0x800; c++) {
		const struct exit_entry *e = exit_lookup(c);

		if (e->handler != exit_unexpected)
			assert_int_equal(e->code, c);
		else
			assert_string_equal(e->name, "?");
	}
	assert_ptr_equal(exit_lookup(VMEXIT_CPUID)->handler, exit_cpuid);
	assert_ptr_equal(exit_lookup(VMEXIT_NPF)->handler, exit_npf);
	assert_ptr_equal(exit_lookup(~0ULL)->handler, exit_invalid);
	assert_ptr_equal(exit_lookup(0xffffffffULL)->handler, exit_invalid);
	assert_ptr_equal(exit_lookup(0x100 + VMEXIT_CPUID)->handler,
			 exit_unexpected);
	assert_ptr_equal(exit_lookup(VMEXIT_NPF | (1ULL << 32))->handler,
			 exit_unexpected);
	assert_ptr_equal(exit_lookup(0xfffffffeULL)->handler, exit_unexpected);
	assert_string_equal(exit_name(0x101), "?");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ioio),
		cmocka_unit_test(test_msr),
		cmocka_unit_test(test_npf),
		cmocka_unit_test(test_len_fallback),
		cmocka_unit_test(test_next_rip),
		cmocka_unit_test(test_invalid_and_names),
		cmocka_unit_test(test_kinds),
		cmocka_unit_test(test_table),
	};
	return cmocka_run_group_tests_name("exit_decode", tests, NULL, NULL);
}
