// SPDX-License-Identifier: GPL-2.0-only
/* hv/vcpu/vcpu_fpu.c - a vCPU's x87/SSE/AVX registers, XCR0 and DR0-DR3
 * in the hardware only while it runs: VMRUN switches none of them (APM vol
 * 2 15.5.1; DR6/DR7 are in the VMCB), and minhv itself (built
 * -mgeneral-regs-only) never touches them, so they are swapped once per
 * run of the vCPU on its CPU rather than at every exit (XSAVE/XRSTOR, SDM
 * vol 1 ch. 13; FXSAVE/FXRSTOR where XSAVE is absent). */
#include "hv/vcpu/vcpu_fpu.h"
#include "arch/cpu.h"
#include "arch/cr.h"
#include "hv/features.h"
#include "hv/vcpu/vcpu.h"
#include "lib/string.h"

struct fpu_host g_fpu;

/* The clean state put back after every run: XSTATE_BV = 0 makes XRSTOR
 * load every component's init state (SDM vol 1 13.8.1); FXRSTOR loads
 * the FCW/MXCSR init values and zeroed registers. */
static u8 init_area[XSAVE_LEGACY_HDR_SIZE] __attribute__((aligned(64)));

static void put16(u8 *a, unsigned off, u16 v)
{
	memcpy(a + off, &v, sizeof(v));
}

static void put32(u8 *a, unsigned off, u32 v)
{
	memcpy(a + off, &v, sizeof(v));
}

static void init_image(u8 *a)
{
	put16(a, FXSAVE_FCW, FCW_INIT);
	put32(a, FXSAVE_MXCSR, MXCSR_INIT);
}

void fpu_boot(const struct features *f)
{
	memset(&g_fpu, 0, sizeof(g_fpu));
	memset(init_area, 0, sizeof(init_area));
	init_image(init_area);
	if (f->xsave) {
		g_fpu.mode = FPU_XSAVE;
		g_fpu.xcr0 = f->xcr0_supported & XCR0_HOST_KNOWN;
		g_fpu.size = f->xsave_size;
	} else if (f->fxsr) {
		g_fpu.mode = FPU_FXSAVE;
		g_fpu.size = 512;
	}
}

static void clean_regs(void)
{
	if (g_fpu.mode == FPU_XSAVE)
		xrstor(init_area, g_fpu.xcr0);
	else if (g_fpu.mode == FPU_FXSAVE)
		fxrstor(init_area);
}

void fpu_cpu_init(void)
{
	u64 cr4 = read_cr4(), want = cr4;

	if (g_fpu.mode != FPU_NONE)
		want |= CR4_OSFXSR | CR4_OSXMMEXCPT;
	if (g_fpu.mode == FPU_XSAVE)
		want |= CR4_OSXSAVE; /* only with CPUID XSAVE: else reserved */
	if (want != cr4)
		write_cr4(want);
	if (g_fpu.mode == FPU_XSAVE)
		xsetbv(0, g_fpu.xcr0);
	clean_regs(); /* whatever the firmware left */
	for (unsigned i = 0; i < 4; i++)
		if (read_dr(i))
			write_dr(i, 0);
}

bool xcr0_valid(u64 host_xcr0, u32 index, u64 val)
{
	if (index != 0) /* only XCR0 exists */
		return false;
	if (!(val & XCR0_X87)) /* x87 cannot be disabled */
		return false;
	if (val & ~host_xcr0) /* unsupported or not saved by the host */
		return false;
	if ((val & XCR0_AVX) && !(val & XCR0_SSE))
		return false;
	/* AVX-512: all three or none, and only with AVX. */
	if ((val & XCR0_AVX512) &&
	    ((val & XCR0_AVX512) != XCR0_AVX512 || !(val & XCR0_AVX)))
		return false;
	/* MPX: BNDREGS and BNDCSR together (as KVM's __kvm_set_xcr). */
	if (!(val & XCR0_BNDREGS) != !(val & XCR0_BNDCSR))
		return false;
	/* AMX: TILECFG and TILEDATA together. */
	if (!(val & XCR0_TILECFG) != !(val & XCR0_TILEDATA))
		return false;
	return true;
}

u32 vcpu_fpu_pages(void)
{
	return (u32)(ALIGN_UP((u64)g_fpu.size, PAGE_SIZE) / PAGE_SIZE);
}

void vcpu_fpu_init(struct vcpu *v, void *area)
{
	v->fpu = area;
	v->xcr0 = XCR0_RESET;
	memset(v->dr, 0, sizeof(v->dr));
	if (area) {
		memset(area, 0, XSAVE_LEGACY_HDR_SIZE);
		init_image(area);
	}
}

void vcpu_fpu_enter(struct vcpu *v)
{
	/* Host DR0-DR3 are 0 (fpu_cpu_init, vcpu_fpu_exit). */
	for (unsigned i = 0; i < 4; i++)
		if (v->dr[i])
			write_dr(i, v->dr[i]);
	if (!v->fpu)
		return;
	if (g_fpu.mode == FPU_XSAVE) {
		/* Restore under the host's XCR0 (every component), then
		 * the guest's XCR0 while it runs. */
		xrstor(v->fpu, g_fpu.xcr0);
		if (v->xcr0 != g_fpu.xcr0)
			xsetbv(0, v->xcr0);
	} else if (g_fpu.mode == FPU_FXSAVE) {
		fxrstor(v->fpu);
	}
}

void vcpu_fpu_exit(struct vcpu *v)
{
	for (unsigned i = 0; i < 4; i++) {
		v->dr[i] = read_dr(i);
		if (v->dr[i])
			write_dr(i, 0);
	}
	if (!v->fpu)
		return;
	if (g_fpu.mode == FPU_XSAVE) {
		/* The host XCR0 first: XSAVE saves only what XCR0 enables. */
		if (v->xcr0 != g_fpu.xcr0)
			xsetbv(0, g_fpu.xcr0);
		xsave(v->fpu, g_fpu.xcr0);
	} else if (g_fpu.mode == FPU_FXSAVE) {
		fxsave(v->fpu);
	}
	clean_regs();
}

void vcpu_fpu_set_xcr0(struct vcpu *v, u64 val)
{
	v->xcr0 = val;
	if (g_fpu.mode == FPU_XSAVE)
		xsetbv(0, val); /* the vCPU's state is in the hardware now */
}
