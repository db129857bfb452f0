// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/hypercalls.c - every hypercall with good and bad
 * arguments (NULL, unaligned, outside guest memory, straddling its end,
 * huge lengths, unknown numbers) gets the documented result. */
#include "guest/hypercall.h"
#include "guest/scenarios/scenarios.h"
#include "guest/smp.h"
#include "lib/string.h"

#define EXPECT(want, nr, a0, a1, a2, a3)                                    \
	do {                                                                \
		long r_ = hypercall(nr, a0, a1, a2, a3, 0);                 \
		report(r_ == (want), "%s(%s): got %s (%ld), want %s (%ld)", \
		       #nr, #a0 ", " #a1 ", " #a2 ", " #a3, hc_errname(r_), \
		       r_, hc_errname(want), (long)(want));                 \
	} while (0)

static void console_write(u64 mem)
{
	static const char text[] = "hypercalls: console write\n";
	u64 buf = gpa_of(text), max = HC_MAX_CONSOLE_LEN;

	EXPECT((long)sizeof(text) - 1, HC_CONSOLE_WRITE, buf, sizeof(text) - 1,
	       0, 0);
	EXPECT(0, HC_CONSOLE_WRITE, buf, 0, 0, 0);
	EXPECT(-HC_EFAULT, HC_CONSOLE_WRITE, 0, 8, 0, 0);
	EXPECT(-HC_EFAULT, HC_CONSOLE_WRITE, mem, 8, 0, 0);
	EXPECT(-HC_EFAULT, HC_CONSOLE_WRITE, mem - 4, 8, 0, 0);
	EXPECT(-HC_EFAULT, HC_CONSOLE_WRITE, 1ULL << 52, 8, 0, 0);
	EXPECT(-HC_EFAULT, HC_CONSOLE_WRITE, ~0ULL - 3, 8, 0, 0);
	EXPECT(-HC_E2BIG, HC_CONSOLE_WRITE, buf, max + 1, 0, 0);
	EXPECT(-HC_E2BIG, HC_CONSOLE_WRITE, buf, ~0ULL, 0, 0);
	EXPECT(-HC_E2BIG, HC_CONSOLE_WRITE, buf, 1ULL << 63, 0, 0);
}

/* Only bad calls: a good HC_REPORT would add a KTAP line to the plan. */
static void report_call(u64 mem)
{
	static const char name[] = "never-reported", diag[] = "x";
	static char long_name[HC_MAX_NAME_LEN + 8];
	u64 n = gpa_of(name), d = gpa_of(diag), max = HC_MAX_DIAG_LEN;

	memset(long_name, 'a', sizeof(long_name) - 1);
	EXPECT(-HC_EFAULT, HC_REPORT, 0, HC_RESULT_OK, d, 1);
	EXPECT(-HC_EFAULT, HC_REPORT, mem, HC_RESULT_OK, d, 1);
	EXPECT(-HC_E2BIG, HC_REPORT, gpa_of(long_name), HC_RESULT_OK, d, 1);
	EXPECT(-HC_EINVAL, HC_REPORT, n, 3, d, 1);
	EXPECT(-HC_EINVAL, HC_REPORT, n, ~0ULL, d, 1);
	EXPECT(-HC_EFAULT, HC_REPORT, n, HC_RESULT_OK, 0, 1);
	EXPECT(-HC_EFAULT, HC_REPORT, n, HC_RESULT_OK, mem - 1, 2);
	EXPECT(-HC_E2BIG, HC_REPORT, n, HC_RESULT_OK, d, max + 1);
	EXPECT(-HC_E2BIG, HC_REPORT, n, HC_RESULT_OK, d, ~0ULL);
}

static void vcpu_calls(u64 mem, u64 nr)
{
	extern char ap_entry[];
	u64 rip = gpa_of(ap_entry), rsp = boot_info->stack_top;

	EXPECT(-HC_EINVAL, HC_VCPU_START, nr, rip, rsp, 0);
	EXPECT(-HC_EINVAL, HC_VCPU_START, ~0ULL, rip, rsp, 0);
	EXPECT(-HC_EBUSY, HC_VCPU_START, 0, rip, rsp, 0); /* running: us */
	if (nr > 1) {
		EXPECT(-HC_EFAULT, HC_VCPU_START, nr - 1, mem, rsp, 0);
		EXPECT(-HC_EFAULT, HC_VCPU_START, nr - 1, ~0ULL, rsp, 0);
		EXPECT(-HC_EFAULT, HC_VCPU_START, nr - 1, rip, mem + 4096, 0);
	} else {
		report_skip(
			"one vCPU: no idle vCPU for bad HC_VCPU_START entry points");
	}
	EXPECT(-HC_EINVAL, HC_VCPU_OFFLINE, nr, 0, 0, 0);
	EXPECT(-HC_EINVAL, HC_VCPU_OFFLINE, ~0ULL, 0, 0, 0);
	EXPECT(-HC_EINVAL, HC_VCPU_ONLINE, nr, 0, 0, 0);
	EXPECT(-HC_EINVAL, HC_VCPU_ONLINE, 1ULL << 32, 0, 0, 0);
	EXPECT(-HC_EBUSY, HC_VCPU_ONLINE, 0, 0, 0, 0); /* already online */
}

static void counters(u64 mem)
{
	static struct hc_counters a, b;
	static u64 unaligned[sizeof(a) / 8 + 2];
	u64 sz = sizeof(a);

	EXPECT((long)sz, HC_GET_COUNTERS, gpa_of(&a), sz, 0, 0);
	hypercall(HC_VCPU_INFO, 0, 0, 0, 0, 0);
	EXPECT((long)sz, HC_GET_COUNTERS, gpa_of(&b), sz, 0, 0);
	report(b.vmmcall >= a.vmmcall + 2 && b.exits_total > a.exits_total,
	       "VMMCALL counter %llu -> %llu, total %llu -> %llu", a.vmmcall,
	       b.vmmcall, a.exits_total, b.exits_total);
	EXPECT(-HC_EINVAL, HC_GET_COUNTERS, gpa_of(&a), sz - 1, 0, 0);
	EXPECT(-HC_EINVAL, HC_GET_COUNTERS, gpa_of(&a), 0, 0, 0);
	EXPECT(-HC_EINVAL, HC_GET_COUNTERS, gpa_of(unaligned) + 1, sz, 0, 0);
	EXPECT(-HC_EFAULT, HC_GET_COUNTERS, 0, sz, 0, 0);
	EXPECT(-HC_EFAULT, HC_GET_COUNTERS, mem, sz, 0, 0);
	EXPECT(-HC_EFAULT, HC_GET_COUNTERS, mem - 8, sz, 0, 0);
	EXPECT(-HC_EFAULT, HC_GET_COUNTERS, ~0ULL - 7, sz, 0, 0);
}

static void info_and_unknown(u64 nr)
{
	long r = hypercall(HC_VCPU_INFO, 0, 0, 0, 0, 0);

	report((u64)r == nr << 32, "HC_VCPU_INFO on vCPU 0: %#lx, want %#llx",
	       r, (unsigned long long)(nr << 32));
	EXPECT(-HC_ENOSYS, 0, 0, 0, 0, 0);
	EXPECT(-HC_ENOSYS, HC_NR, 0, 0, 0, 0);
	EXPECT(-HC_ENOSYS, HC_NR + 1, 1, 2, 3, 4);
	EXPECT(-HC_ENOSYS, 0x80000000ULL, 0, 0, 0, 0);
	EXPECT(-HC_ENOSYS, 1ULL << 32 | HC_CONSOLE_WRITE, 0, 0, 0, 0);
	EXPECT(-HC_ENOSYS, ~0ULL, 0, 0, 0, 0);
}

static void hypercalls_body(void)
{
	u64 mem = boot_info->mem_size, nr = smp_nr();

	console_write(mem);
	report_call(mem);
	vcpu_calls(mem, nr);
	counters(mem);
	info_and_unknown(nr);
}

const struct scenario scn_hypercalls = { "hypercalls", "abi", NULL,
					 hypercalls_body, 0 };
