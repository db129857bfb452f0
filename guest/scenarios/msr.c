// SPDX-License-Identifier: GPL-2.0-only
/* guest/scenarios/msr.c - MSR policy as the guest sees it: unknown MSRs
 * raise #GP (caught here), EFER.SVME and VM_HSAVE_PA cannot be changed,
 * allowed MSRs (TSC_AUX, KERNEL_GS_BASE) behave architecturally, canonical
 * at the width CPUID gives (48 bits, 57 with LA57). */
#include "guest/except.h"
#include "guest/scenarios/scenarios.h"
#include "guest/x86.h"

#define UNKNOWN_MSR 0x40001234u /* no CPU defines it */
#define RDTSCP_BIT (1u << 27) /* CPUID 0x80000001:EDX */
#define LA57_BIT (1u << 16) /* CPUID 7.0:ECX: 5-level paging */

static void unknown_msr(void)
{
	u64 v = 0;
	int vec = rdmsr_checked(UNKNOWN_MSR, &v);

	report(vec == GP_VECTOR, "RDMSR %#x raised %s, want #GP", UNKNOWN_MSR,
	       vec == NO_EXCEPTION ? "nothing" : exception_name((unsigned)vec));
	vec = wrmsr_checked(UNKNOWN_MSR, 0x1234);
	report(vec == GP_VECTOR, "WRMSR %#x raised %s, want #GP", UNKNOWN_MSR,
	       vec == NO_EXCEPTION ? "nothing" : exception_name((unsigned)vec));
}

/* Flipping EFER.SVME either #GPs or is ignored; the bit stays put. */
static void efer_svme(void)
{
	u64 before = rdmsr(MSR_EFER), after;
	int vec = wrmsr_checked(MSR_EFER, before ^ EFER_SVME);

	after = rdmsr(MSR_EFER);
	report((after & EFER_SVME) == (before & EFER_SVME),
	       "EFER.SVME %s after a write that flips it (write: %s)",
	       (after ^ before) & EFER_SVME ? "changed" : "unchanged",
	       vec == NO_EXCEPTION ? "accepted" :
				     exception_name((unsigned)vec));
	report((after & (EFER_LME | EFER_LMA)) == (EFER_LME | EFER_LMA),
	       "still in long mode, EFER %#llx", (unsigned long long)after);
}

/* A write to the host save area pointer must not take effect. */
static void hsave_pa(void)
{
	const u64 probe = 0x5000;
	u64 before = 0, after = 0;
	int wvec;

	rdmsr_checked(MSR_VM_HSAVE_PA, &before);
	wvec = wrmsr_checked(MSR_VM_HSAVE_PA, probe);
	rdmsr_checked(MSR_VM_HSAVE_PA, &after);
	report(wvec == GP_VECTOR || (after == before && after != probe),
	       "VM_HSAVE_PA write %s; reads %#llx before, %#llx after",
	       wvec == NO_EXCEPTION ? "accepted" :
				      exception_name((unsigned)wvec),
	       (unsigned long long)before, (unsigned long long)after);
}

static void tsc_aux(void)
{
	u64 old = 0, v = 0;
	u32 aux = 0;
	int vec = rdmsr_checked(MSR_TSC_AUX, &old);

	report(vec == NO_EXCEPTION, "RDMSR TSC_AUX: %s",
	       vec == NO_EXCEPTION ? "ok" : exception_name((unsigned)vec));
	vec = wrmsr_checked(MSR_TSC_AUX, 0x1234);
	rdmsr_checked(MSR_TSC_AUX, &v);
	report(vec == NO_EXCEPTION && v == 0x1234,
	       "TSC_AUX write %s, reads back %#llx",
	       vec == NO_EXCEPTION ? "ok" : exception_name((unsigned)vec),
	       (unsigned long long)v);
	if (cpuid(0x80000001, 0).edx & RDTSCP_BIT) {
		__asm__ volatile("rdtscp" : "=c"(aux)::"rax", "rdx");
		report(aux == 0x1234, "RDTSCP returns TSC_AUX %#x", aux);
	} else {
		report_skip("no RDTSCP: TSC_AUX through RDTSCP not checked");
	}
	wrmsr_checked(MSR_TSC_AUX, old);
}

/* The widest linear address the CPU supports: 57 bits with LA57 (Zen 4
 * and later), whatever CR4.LA57 says, else 48. WRMSR of an address MSR
 * checks canonical form against it (SDM vol 3A 4.5; minhv's exit_msr.c
 * follows the CPU's LA57 support, as KVM does). */
static unsigned int linear_bits(void)
{
	if (cpuid(0, 0).eax >= 7 && (cpuid(7, 0).ecx & LA57_BIT))
		return 57;
	return 48;
}

static void kernel_gs_base(void)
{
	const u64 val = 0xffff800012345000ULL;
	const unsigned int bits = linear_bits();
	/* The first address past the canonical lower half. */
	const u64 bad = 1ULL << (bits - 1);
	u64 old = 0, v = 0;
	int vec;

	rdmsr_checked(MSR_KERNEL_GS_BASE, &old);
	vec = wrmsr_checked(MSR_KERNEL_GS_BASE, val);
	rdmsr_checked(MSR_KERNEL_GS_BASE, &v);
	report(vec == NO_EXCEPTION && v == val,
	       "KERNEL_GS_BASE write %s, reads back %#llx",
	       vec == NO_EXCEPTION ? "ok" : exception_name((unsigned)vec),
	       (unsigned long long)v);
	vec = wrmsr_checked(MSR_KERNEL_GS_BASE, bad);
	report(vec == GP_VECTOR,
	       "non-canonical (%u-bit) KERNEL_GS_BASE %#llx raised %s", bits,
	       (unsigned long long)bad,
	       vec == NO_EXCEPTION ? "nothing" : exception_name((unsigned)vec));
	if (bits == 57) {
		/* Non-canonical at 48 bits, canonical at 57. */
		vec = wrmsr_checked(MSR_KERNEL_GS_BASE, 1ULL << 47);
		report(vec == NO_EXCEPTION,
		       "KERNEL_GS_BASE 0x800000000000 with LA57: %s",
		       vec == NO_EXCEPTION ? "accepted" :
					     exception_name((unsigned)vec));
	}
	wrmsr_checked(MSR_KERNEL_GS_BASE, old);
}

static void msr_body(void)
{
	unknown_msr();
	efer_svme();
	hsave_pa();
	tsc_aux();
	kernel_gs_base();
}

const struct scenario scn_msr = { "msr", "basic", NULL, msr_body, 0 };
