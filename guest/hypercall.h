/* SPDX-License-Identifier: GPL-2.0-only */
/* guest/hypercall.h - VMMCALL wrappers for every call in
 * include/minhv/hypercall_abi.h (number in RAX; RDI, RSI, RDX, R10, R8; result RAX). */
#ifndef MINHV_GUEST_HYPERCALL_H
#define MINHV_GUEST_HYPERCALL_H

#include "lib/types.h"
#include "include/minhv/hypercall_abi.h"

/* Any number, any arguments: the hostile and ABI scenarios use this. The
 * argument registers are marked clobbered so the guest does not depend on
 * the hypervisor preserving them. */
static inline long hypercall(u64 nr, u64 a0, u64 a1, u64 a2, u64 a3, u64 a4)
{
	register u64 r10 __asm__("r10") = a3;
	register u64 r8 __asm__("r8") = a4;
	long ret;

	__asm__ volatile("vmmcall"
			 : "=a"(ret), "+D"(a0), "+S"(a1), "+d"(a2), "+r"(r10),
			   "+r"(r8)
			 : "a"(nr)
			 : "memory");
	return ret;
}

static inline u64 gpa_of(const void *p)
{
	return (u64)(uintptr_t)p; /* guests identity-map their memory */
}

static inline long hc_console_write(const void *buf, u64 len)
{
	return hypercall(HC_CONSOLE_WRITE, gpa_of(buf), len, 0, 0, 0);
}

static inline long hc_report(const char *name, u64 result, const char *diag,
			     u64 diag_len)
{
	return hypercall(HC_REPORT, gpa_of(name), result, gpa_of(diag),
			 diag_len, 0);
}

static inline long hc_vcpu_start(u64 vcpu, u64 rip, u64 rsp, u64 arg)
{
	return hypercall(HC_VCPU_START, vcpu, rip, rsp, arg, 0);
}

static inline long hc_vcpu_offline(u64 vcpu)
{
	return hypercall(HC_VCPU_OFFLINE, vcpu, 0, 0, 0, 0);
}

static inline long hc_vcpu_online(u64 vcpu)
{
	return hypercall(HC_VCPU_ONLINE, vcpu, 0, 0, 0, 0);
}

static inline long hc_get_counters(struct hc_counters *c, u64 size)
{
	return hypercall(HC_GET_COUNTERS, gpa_of(c), size, 0, 0, 0);
}

static inline long hc_vcpu_info(void)
{
	return hypercall(HC_VCPU_INFO, 0, 0, 0, 0, 0);
}

static inline long hc_test_plan(u64 n)
{
	return hypercall(HC_TEST_PLAN, n, 0, 0, 0, 0);
}

/* Ends the guest. Should the hypervisor return, stay stopped here. */
static inline _Noreturn void hc_exit(u64 status)
{
	hypercall(HC_EXIT, status, 0, 0, 0, 0);
	for (;;)
		__asm__ volatile("cli; hlt");
}

/* "-EFAULT" for -HC_EFAULT, "0" for 0, "-E?(n)" for an unknown code. */
const char *hc_errname(long ret);

#endif
