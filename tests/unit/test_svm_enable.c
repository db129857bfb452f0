// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_svm_enable.c - why SVM cannot be used (each reason), and
 * per-CPU enable: VM_HSAVE_PA (a pool page) written before EFER.SVME. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/smp/ipi.h"
#include "hv/mm.h"
#include "hv/percpu.h"
#include "hv/svm/svm.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/state_hooks.h"

#define POOL (4ULL << 20)
static void *pool;
static struct percpu pc0;

struct percpu *this_cpu(void)
{
	return &pc0;
}

int ipi_call_all(ipi_fn fn, void *arg, bool wait, bool include_self)
{
	(void)wait;
	if (include_self)
		fn(arg);
	return 1;
}

static int setup(void **s)
{
	(void)s;
	fake_cpu_reset();
	fake_console_clear();
	mm_reset();
	pool = aligned_alloc(4096, POOL);
	assert_int_equal(mm_add_region(ptr_to_hpa(pool), POOL / PAGE_SIZE), 0);
	memset(&pc0, 0, sizeof(pc0));
	memset(&g_features, 0, sizeof(g_features));
	g_features.vendor = VENDOR_AMD;
	strcpy(g_features.vendor_str, "AuthenticAMD");
	g_features.svm = g_features.npt = true;
	g_features.max_ext_leaf = 0x80000025;
	g_features.svm_nasid = 16;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(pool);
	return 0;
}

static const char *why(bool have, u64 vm_cr)
{
	static char b[200];

	return svm_unusable_reason(&g_features, have, vm_cr, b, sizeof(b));
}

static void test_reasons(void **s)
{
	(void)s;
	assert_null(why(true, 0));
	assert_null(why(false, 0));
	g_features.svm_nasid = 1;
	assert_non_null(strstr(why(true, 0), "reports 1 ASIDs"));
	g_features.svm_nasid = 16;
	assert_non_null(strstr(why(true, VM_CR_SVMDIS), "VM_CR.SVMDIS=1)"));
	assert_non_null(strstr(why(true, VM_CR_SVMDIS | VM_CR_LOCK),
			       "locked: enable SVM in the firmware setup"));
	g_features.npt = false;
	assert_non_null(strstr(why(true, 0), "no nested paging"));
	g_features.max_ext_leaf = 0x80000008;
	assert_non_null(strstr(why(true, 0), "0x8000000A"));
	g_features.svm = false;
	g_features.vendor = VENDOR_INTEL;
	strcpy(g_features.vendor_str, "GenuineIntel");
	assert_string_equal(
		why(false, 0),
		"CPUID 0x80000001:ECX[2] (SVM) is 0: this Intel CPU (GenuineIntel) has no AMD-V");
}

static void test_enable_order(void **s)
{
	u64 before = mm_free_pages();
	u64 hsave;

	(void)s;
	fake_msr_define(MSR_VM_CR, 0);
	fake_msr_define(MSR_VM_HSAVE_PA, 0);
	fake_msr_define(MSR_EFER, EFER_LME | EFER_LMA);
	assert_int_equal(svm_init(), 0);
	hsave = fake_msr_read(0, MSR_VM_HSAVE_PA);
	assert_true(hsave >= (u64)(uintptr_t)pool &&
		    hsave < (u64)(uintptr_t)pool + POOL);
	assert_true(IS_ALIGNED(hsave, PAGE_SIZE));
	assert_int_equal(fake_msr_read(0, MSR_EFER),
			 EFER_LME | EFER_LMA | EFER_SVME);
	/* HSAVE first: VMRUN would otherwise save host state to page 0. */
	assert_true(fake_trace_find("wrmsr 0xc0010117") <
		    fake_trace_find("wrmsr 0xc0000080"));
	assert_non_null(svm_this_cpu());
	assert_int_equal(mm_free_pages(), before - 3);
	assert_true(fake_console_has("svm: usable: asids 16"));
	/* Once decided, not again. */
	assert_int_equal(svm_init(), 0);
	assert_int_equal(fake_trace_count("wrmsr 0xc0010117"), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reasons, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enable_order, setup,
						teardown),
	};
	return cmocka_run_group_tests_name("svm_enable", tests, NULL, NULL);
}
