// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_vmcb_clean.c - every VMCB field an exit handler writes
 * marks its clean group (APM vol 2 15.15.3, table 15-9): a CPU with clean
 * bits, and nested KVM (which honours vmcb12's), would otherwise run the
 * guest with the copy it cached at the last VMRUN. TCG has no clean bits,
 * so only this shows it. The oracle is the APM's table written out below
 * by offset, independent of the code's VMCB_CLEAN_* names and setters;
 * each handler that writes a cached field (found with grep: the setters of
 * arch/vmcb.h, the intercept setters and vlapic_inject_pending()'s V_INTR)
 * runs on a VMCB whose clean field says "all cached", and every byte that
 * changed must belong to a field whose group it cleared. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/svm/exit.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

#define RIP0 FX_RIP

/* APM vol 2 table 15-9, "VMCB Clean Field": bit, and the fields it covers
 * (offsets from the VMCB start, appendix B). */
struct clean_field {
	const char *name;
	u16 off, len;
	u32 bit;
};

/* clang-format off */
static const struct clean_field fields[] = {
	/* 0: I - intercept vectors, TSC offset, PAUSE filter count and
	 * threshold */
	{ "intercepts",		0x000, 0x18, 1u << 0 },
	{ "pause_threshold",	0x03c, 2,    1u << 0 },
	{ "pause_count",	0x03e, 2,    1u << 0 },
	{ "tsc_offset",		0x050, 8,    1u << 0 },
	/* 1: IOPM - IOPM_BASE_PA, MSRPM_BASE_PA */
	{ "iopm_base_pa",	0x040, 8,    1u << 1 },
	{ "msrpm_base_pa",	0x048, 8,    1u << 1 },
	/* 2: ASID */
	{ "asid",		0x058, 4,    1u << 2 },
	/* 3: TPR - V_TPR, V_IRQ, V_INTR_PRIO, V_IGN_TPR, V_INTR_MASKING,
	 * V_INTR_VECTOR (the V_INTR quadword) */
	{ "v_intr",		0x060, 8,    1u << 3 },
	/* 4: NP - NP_ENABLE, N_CR3, G_PAT */
	{ "np_enable",		0x090, 8,    1u << 4 },
	{ "n_cr3",		0x0b0, 8,    1u << 4 },
	{ "g_pat",		0x668, 8,    1u << 4 },
	/* 5: CRx - CR0, CR3, CR4, EFER */
	{ "efer",		0x4d0, 8,    1u << 5 },
	{ "cr4",		0x548, 8,    1u << 5 },
	{ "cr3",		0x550, 8,    1u << 5 },
	{ "cr0",		0x558, 8,    1u << 5 },
	/* 6: DRx - DR6, DR7 */
	{ "dr7",		0x560, 8,    1u << 6 },
	{ "dr6",		0x568, 8,    1u << 6 },
	/* 7: DT - GDTR, IDTR */
	{ "gdtr",		0x460, 16,   1u << 7 },
	{ "idtr",		0x480, 16,   1u << 7 },
	/* 8: SEG - CS, DS, SS, ES, CPL */
	{ "es",			0x400, 16,   1u << 8 },
	{ "cs",			0x410, 16,   1u << 8 },
	{ "ss",			0x420, 16,   1u << 8 },
	{ "ds",			0x430, 16,   1u << 8 },
	{ "cpl",		0x4cb, 1,    1u << 8 },
	/* 9: CR2 */
	{ "cr2",		0x640, 8,    1u << 9 },
	/* 10: LBR - DbgCtlMsr, BR_FROM/TO, LASTINT_FROM/TO */
	{ "lbr",		0x670, 0x28, 1u << 10 },
	/* 11: AVIC - APIC_BAR, backing page, logical and physical tables */
	{ "avic_apic_bar",	0x098, 8,    1u << 11 },
	{ "avic_pages",		0x0e0, 8,    1u << 11 },
	{ "avic_tables",	0x0f0, 16,   1u << 11 },
};
/* clang-format on */

static struct vmcb before;

/* The exit has happened (exit code, RIP set): everything is cached. */
static void cached(struct vcpu *v)
{
	v->vmcb->control.clean = 0xfff;
	memcpy(&before, v->vmcb, sizeof(before));
}

/* The name of the first field that changed while its group stayed
 * "clean", or NULL. */
static const char *stale(const struct vmcb *after)
{
	const u8 *a = (const u8 *)after, *b = (const u8 *)&before;

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct clean_field *f = &fields[i];

		if (memcmp(a + f->off, b + f->off, f->len) &&
		    (after->control.clean & f->bit))
			return f->name;
	}
	return NULL;
}

static void assert_marked(const struct vcpu *v)
{
	const char *f = stale(v->vmcb);

	if (f)
		fail_msg("%s changed but its clean bit stayed set", f);
}

/* The checker itself: a raw write is caught, a marked one is not. */
static void test_checker(void **s)
{
	struct vmcb *vm = fx_v[0]->vmcb;

	(void)s;
	cached(fx_v[0]);
	vm->save.dr6 ^= 1; /* what vlapic_db_step() did before G1 */
	assert_string_equal(stale(vm), "dr6");
	vm->control.clean &= ~(1u << 6);
	assert_null(stale(vm));
	cached(fx_v[0]);
	vm->control.v_intr |= 1u << 8;
	assert_string_equal(stale(vm), "v_intr");
	cached(fx_v[0]);
	vm->save.rip += 2; /* no group: always read */
	vm->control.event_inj = 1;
	assert_null(stale(vm));
}

/* MSR writes that land in cached fields: EFER (CRx), PAT (NP), TSC and
 * TSC_ADJUST (the TSC offset, I). */
static void test_msr_writes(void **s)
{
	struct vcpu *v = fx_v[0];
	static const struct {
		u32 msr;
		u64 val;
	} w[] = {
		{ MSR_EFER, EFER_LME | EFER_LMA | EFER_SCE },
		{ MSR_PAT, 0x0606060606060606ULL },
		{ MSR_TSC, 12345 },
		{ MSR_TSC_ADJUST, 777 },
	};

	(void)s;
	fx_platform(v); /* TSC_ADJUST is a platform guest's */
	g_features.tsc_adjust = true;
	for (size_t i = 0; i < sizeof(w) / sizeof(w[0]); i++) {
		fx_exit(v, VMEXIT_MSR, 1, 0);
		v->gprs.rcx = w[i].msr;
		v->vmcb->save.rax = (u32)w[i].val;
		v->gprs.rdx = w[i].val >> 32;
		cached(v);
		assert_int_equal(exit_dispatch(v), EXIT_RESUME);
		assert_int_equal(v->vmcb->control.event_inj, 0);
		assert_memory_not_equal(&before, v->vmcb, sizeof(before));
		assert_marked(v);
	}
}

/* An instruction minhv carried out with TF set: the #DB trap sets DR6. */
static void test_step_trap(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	v->vmcb->save.rflags |= RFLAGS_TF;
	cached(v);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_not_equal(v->vmcb->save.dr6, before.save.dr6);
	assert_marked(v);
}

/* The vLAPIC's exits: an offer not taken (V_IRQ withdrawn at the exit),
 * IRET (the intercept), and the #DB of minhv's own step after an NMI
 * handler's IRET (DR6.BS, G1). */
static void test_vlapic_exits(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_platform(v);
	vlapic_ack(&v->lapic, 0x40); /* offered at the entry */
	v->vmcb->control.v_intr |= V_IRQ | V_INTR_VECTOR(0x40);
	cached(v);
	fx_exit(v, VMEXIT_INTR, 0, 0);
	assert_false(v->vmcb->control.v_intr & V_IRQ);
	assert_marked(v);
	assert_true(v->lapic.irr[2] & 1u); /* back in IRR */
	assert_int_equal(v->lapic.isr[2], 0);

	fx_exit(v, VMEXIT_IRET, 0, 0);
	vmcb_set_intercept(v->vmcb, INTERCEPT_IRET);
	cached(v);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_false(vmcb_has_intercept(v->vmcb, INTERCEPT_IRET));
	assert_marked(v);

	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	v->lapic.c.nmi_step = true;
	v->vmcb->save.dr6 = DR6_ACTIVE_LOW | DR6_BS;
	cached(v);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.dr6, DR6_ACTIVE_LOW); /* BS is ours */
	assert_int_equal(v->vmcb->control.event_inj, 0); /* consumed */
	assert_marked(v);
}

/* The vLAPIC's entry path (hv/svm/vlapic_inject.c): NMI and its IRET
 * intercept, an interrupt offered (V_IRQ), the CR8-write
 * intercept (C1) and V_TPR; and the CR8-write exit (V_TPR). */
static void test_vlapic_entry(void **s)
{
	struct vcpu *v = fx_v[0];
	struct vlapic *l = &v->lapic;

	(void)s;
	fx_platform(v);
	l->svr = APIC_SVR_ENABLE | 0xff;
	fx_exit(v, VMEXIT_INTR, 0, 0);
	v->vmcb->save.rflags = RFLAGS_FIXED | RFLAGS_IF;
	vlapic_deliver(l, APIC_DM_NMI, 0, false);
	vlapic_set_irr(l, 0x40, false);
	cached(v);
	vlapic_inject_pending(v); /* NMI in, 0x40 offered */
	assert_true(v->vmcb->control.v_intr & V_IRQ);
	assert_true(vmcb_has_intercept(v->vmcb, INTERCEPT_IRET));
	assert_marked(v);
	fx_exit(v, VMEXIT_INTR, 0, 0);
	l->tpr = 0x50; /* written through the xAPIC page: TPR holds 0x40 */
	v->lapic.c.nmi_masked = false;
	cached(v);
	vlapic_inject_pending(v); /* 0x40 given back, CR8 intercept, V_TPR */
	assert_true(vmcb_has_intercept(v->vmcb, INTERCEPT_CR_WRITE(8)));
	assert_marked(v);
	g_features.decode_assists = g_features.nrips = true;
	fx_exit(v, VMEXIT_CR8_WRITE, BIT(63) | 3, 0);
	v->vmcb->control.next_rip = FX_RIP + 4;
	v->gprs.rbx = 2;
	cached(v);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.v_intr & V_TPR_MASK, 2);
	assert_marked(v);
}

/* A reflected #DB clears DR7.GD (B6). */
static void test_db_reflected(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	fx_exit(v, VMEXIT_EXCP_DB, 0, 0);
	v->vmcb->save.dr6 = DR6_ACTIVE_LOW | DR6_BD;
	v->vmcb->save.dr7 = DR7_FIXED | DR7_GD;
	cached(v);
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.dr7, DR7_FIXED);
	assert_marked(v);
}

int main(void)
{
#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
	const struct CMUnitTest tests[] = {
		T(test_checker),      T(test_msr_writes),
		T(test_step_trap),    T(test_vlapic_exits),
		T(test_db_reflected), T(test_vlapic_entry),
	};
	return cmocka_run_group_tests_name("vmcb_clean", tests, NULL, NULL);
}
