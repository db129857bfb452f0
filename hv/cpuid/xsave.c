// SPDX-License-Identifier: GPL-2.0-only
/* hv/cpuid/xsave.c - CPUID leaf 0xD (SDM vol 1 13.2, vol 2A CPUID) as a
 * guest sees it: only the XCR0 components minhv lets it enable (the ones
 * vcpu_fpu.c saves and restores, g_fpu.xcr0), so an XSETBV Linux does
 * without checking never asks for a component minhv would refuse; sizes
 * computed from the host's component offsets for those components and the
 * guest's XCR0 of the moment; no supervisor (IA32_XSS) components, no
 * XSAVES, no XFD. */
#include "hv/cpuid/internal.h"
#include "arch/cpuid.h"
#include "arch/xcr0.h"

/* User components minhv knows the CPUID description of; MPX is hidden
 * (7.0:EBX[14]), so are its components. */
#define XCR0_GUEST_KNOWN \
	(XCR0_X87 | XCR0_SSE | XCR0_AVX | XCR0_AVX512 | XCR0_PKRU)

u64 cpuid_xcr0(const struct cpuid_host *h, const struct cpuid_vcpu *v)
{
	const struct cpuid_regs *d0 = &h->xsave[0];
	u64 host = ((u64)d0->edx << 32) | d0->eax;

	if (h->max_basic < 0xd || !(v->xcr0_allowed & XCR0_X87))
		return 0;
	return host & v->xcr0_allowed & XCR0_GUEST_KNOWN;
}

/* Bytes of a standard-format area holding mask: the end of its last
 * component (offsets are the host's, fixed by the CPU). */
static u32 size_standard(const struct cpuid_host *h, u64 mask)
{
	u32 end = XSAVE_LEGACY_HDR_SIZE;

	for (u32 i = 2; i < CPUID_HOST_XSAVE; i++) {
		const struct cpuid_regs *c = &h->xsave[i];

		if ((mask & BIT(i)) && c->ebx + c->eax > end)
			end = c->ebx + c->eax;
	}
	return end;
}

/* Bytes of a compacted area (XSAVEC) holding mask: components in order,
 * each 64-byte aligned where ECX[1] says so (SDM vol 1 13.4.3). */
static u32 size_compacted(const struct cpuid_host *h, u64 mask)
{
	u32 end = XSAVE_LEGACY_HDR_SIZE;

	for (u32 i = 2; i < CPUID_HOST_XSAVE; i++) {
		const struct cpuid_regs *c = &h->xsave[i];

		if (!(mask & BIT(i)))
			continue;
		if (c->ecx & CPUID_D_N_ECX_ALIGN64)
			end = (end + 63) & ~63u;
		end += c->eax;
	}
	return end;
}

void cpuid_xsave(const struct cpuid_host *h, const struct cpuid_vcpu *v,
		 u32 sub, struct cpuid_regs *r)
{
	u64 allowed = cpuid_xcr0(h, v), now = v->xcr0 & allowed;

	*r = (struct cpuid_regs){ 0, 0, 0, 0 };
	if (!allowed)
		return; /* no XSAVE for this guest: the leaf is empty */
	if (sub == 0) {
		r->eax = (u32)allowed;
		r->edx = (u32)(allowed >> 32);
		r->ebx = size_standard(h, now); /* for XCR0 as it is now */
		r->ecx = size_standard(h, allowed); /* for every component */
	} else if (sub == 1) {
		r->eax = h->xsave[1].eax &
			 (u32)(CPUID_D_1_EAX_XSAVEOPT | CPUID_D_1_EAX_XSAVEC |
			       CPUID_D_1_EAX_XGETBV1);
		if (r->eax & CPUID_D_1_EAX_XSAVEC)
			r->ebx = size_compacted(h, now); /* XCR0 | XSS(0) */
	} else if (sub < CPUID_HOST_XSAVE && (allowed & BIT(sub))) {
		r->eax = h->xsave[sub].eax; /* size */
		r->ebx = h->xsave[sub].ebx; /* offset */
		r->ecx = h->xsave[sub].ecx & (u32)CPUID_D_N_ECX_ALIGN64;
	}
}
