// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_exits_cpuid.c - CPUID exits against a fake guest: the
 * hypervisor leaves, hidden features, NRIP, the per-vCPU table against
 * exit_cpuid_leaf() for every leaf, and CPUID.1:EDX.APIC following
 * IA32_APIC_BASE.EN. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/cpuid/cpuid.h"
#include "hv/features.h"
#include "hv/svm/exit.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

#define RIP0 0x100000ULL

/* WRMSR IA32_APIC_BASE by v, as an MSR exit; it must not #GP. */
static void apic_base_write(struct vcpu *v, u64 val)
{
	fx_exit(v, VMEXIT_MSR, 1, 0);
	v->gprs.rcx = MSR_APIC_BASE;
	v->vmcb->save.rax = (u32)val;
	v->gprs.rdx = val >> 32;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->control.event_inj, 0);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
}

static void test_cpuid(void **s)
{
	struct vcpu *v = fx_v[0];
	char sig[13] = { 0 };

	(void)s;
	fake_cpuid_set(0, 0, 1, 0, 0, 0);
	fake_cpuid_set(1, 0, 0x800f12, 0, BIT(21) | BIT(3), 0);
	fake_cpuid_set(0x80000000, 0, 0x8000000a, 0, 0, 0);
	fake_cpuid_set(0x80000001, 0, 0, 0, BIT(2) | BIT(0), BIT(26));
	fake_cpuid_set(0x8000000a, 0, 1, 16, 0, 0x1fff);
	cpuid_host_capture(&g_cpuid_host); /* as svm_init() at boot */

	v->vmcb->save.rax = 0x40000000;
	assert_int_equal(fx_run(VMEXIT_CPUID, 0, 0), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rax, 0x40000001);
	memcpy(sig, &v->gprs.rbx, 4);
	memcpy(sig + 4, &v->gprs.rcx, 4);
	memcpy(sig + 8, &v->gprs.rdx, 4);
	assert_string_equal(sig, "minhvminhv");
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	assert_int_equal(v->stats.count[EK_CPUID], 1);

	fx_v[2]->vmcb->save.rax = 0x40000001;
	fx_exit(fx_v[2], VMEXIT_CPUID, 0, 0);
	exit_dispatch(fx_v[2]);
	assert_int_equal(fx_v[2]->vmcb->save.rax, HV_ABI_VERSION);
	assert_int_equal(fx_v[2]->gprs.rbx, 2);

	v->vmcb->save.rax = 1;
	v->gprs.rcx = 0;
	fx_run(VMEXIT_CPUID, 0, 0);
	assert_true(v->gprs.rcx & BIT(21)); /* x2APIC passed through */
	assert_true(v->gprs.rcx & BIT(31)); /* hypervisor present */
	assert_false(v->gprs.rcx & BIT(3)); /* MONITOR hidden */

	v->vmcb->save.rax = 0x80000001;
	v->gprs.rcx = 0;
	fx_run(VMEXIT_CPUID, 0, 0);
	assert_false(v->gprs.rcx & BIT(2)); /* SVM hidden */
	assert_true(v->gprs.rcx & BIT(0));
	assert_int_equal(v->gprs.rdx, BIT(26));

	v->vmcb->save.rax = 0x8000000a;
	v->gprs.rcx = 0;
	fx_run(VMEXIT_CPUID, 0, 0);
	assert_int_equal(v->vmcb->save.rax, 0);
	assert_int_equal(v->gprs.rdx, 0);
}

/* CPUID steps RIP itself: NRIP when the CPU wrote it, else 2 bytes. */
static void test_cpuid_nrip(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	g_features.nrips = true;
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	v->vmcb->control.next_rip = RIP0 + 5;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 5);
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	v->vmcb->control.next_rip = 0; /* advertised but not written */
	exit_dispatch(v);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
	g_features.nrips = false;
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	v->vmcb->control.next_rip = RIP0 + 5;
	exit_dispatch(v);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
}

/* One CPUID exit of v for leaf/sub, against exit_cpuid_leaf(). */
static void cpuid_exit_matches(struct vcpu *v, u32 leaf, u32 sub)
{
	struct cpuid_regs want;

	exit_cpuid_leaf(v, leaf, sub, &want);
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	v->vmcb->save.rax = 0xdead00000000ULL | leaf;
	v->gprs.rcx = 0xdead00000000ULL | sub;
	/* Upper halves set: the results must zero-extend (CPUID in 64-bit
	 * mode), not leave the old upper bits. */
	v->gprs.rbx = v->gprs.rdx = 0xdead00000000ULL;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	assert_int_equal(v->vmcb->save.rax, want.eax);
	assert_int_equal(v->gprs.rbx, want.ebx);
	assert_int_equal(v->gprs.rcx, want.ecx);
	assert_int_equal(v->gprs.rdx, want.edx);
	assert_int_equal(v->vmcb->save.rip, RIP0 + 2);
}

static void cpuid_table_host(void)
{
	fake_cpuid_set(0, 0, 0xd, 0x68747541, 0x444d4163, 0x69746e65);
	fake_cpuid_set(1, 0, 0x800f12, 0x02040800, BIT(21) | BIT(3), BIT(9));
	fake_cpuid_set(6, 0, 4, 0, BIT(0), 0);
	fake_cpuid_set(7, 0, 0, BIT(3), BIT(4) | BIT(2), BIT(29));
	fake_cpuid_set(7, 1, 0, 0, 0x55, 0);
	fake_cpuid_set(0xd, 0, 7, 0x340, 0x988, 0);
	fake_cpuid_set(0xd, 1, BIT(3) | 1, 0, 0, 0);
	fake_cpuid_set(0x80000000, 0, 0x80000021, 0x68747541, 0, 0);
	fake_cpuid_set(0x80000001, 0, 0, 0, BIT(2) | BIT(9) | 1, BIT(26));
	fake_cpuid_set(0x80000008, 0, 0x3030, BIT(1) | 1, 0x7f, 0);
	fake_cpuid_set(0x8000000a, 0, 1, 16, 0, 0x1fff);
	fake_cpuid_set(0x8000001d, 0, 0x121, 0x1c0003f, 0x3f, 0);
	fake_cpuid_set(0x8000001d, 1, 0x122, 0x1c0003f, 0x3f, 0);
	fake_cpuid_set(0x8000001e, 0, 2, 0x100, 0, 0);
	fake_cpuid_set(0x8000001f, 0, 0x1b, 0x33, 0, 0);
	cpuid_host_capture(&g_cpuid_host); /* as svm_init() at boot */
}

/* The per-vCPU table answers exactly what exit_cpuid_leaf() computes, for
 * every leaf of both ranges (and a few beyond), subleaves 0-2 of the
 * indexed ones (the others ignore ECX, as the fake CPU does not), multiboot
 * and Linux view, CR4.OSXSAVE/PKE off and on. */
static void test_cpuid_table(void **s)
{
	static const u32 bases[] = { 0, 0x80000000, 0x40000000 };
	struct vcpu *v = fx_v[1];

	(void)s;
	cpuid_table_host();
	for (int lx = 0; lx < 2; lx++) {
		fx_g->kind = lx ? GUEST_LINUX : GUEST_MINHV;
		for (int cr4 = 0; cr4 < 2; cr4++) {
			v->vmcb->save.cr4 = cr4 ? BIT(18) | BIT(22) : 0;
			exit_cpuid_fill(v);
			/* leaf 0, 1, 6, 0x80000001, 0x80000008 are tabled */
			assert_true(v->cpuid_fast & BIT(1));
			assert_true(v->cpuid_fast & BIT(32 + 8));
			assert_false(v->cpuid_fast & BIT(7)); /* indexed */
			/* Above the host's maximum: tabled, and zero. */
			assert_true(v->cpuid_fast & BIT(0xe));
			assert_int_equal(v->cpuid_tab[0xe].rax |
						 v->cpuid_tab[0xe].rdx,
					 0);
			for (unsigned b = 0; b < ARRAY_SIZE(bases); b++)
				for (u32 l = 0; l < 0x24; l++)
					cpuid_exit_matches(v, bases[b] + l, 0);
			/* Indexed leaves: each subleaf its own answer. */
			for (u32 sub = 0; sub < 3; sub++) {
				cpuid_exit_matches(v, 7, sub);
				cpuid_exit_matches(v, 0xd, sub);
				cpuid_exit_matches(v, 0x8000001d, sub);
			}
		}
	}
	/* CR4.OSXSAVE set after the table was filled shows in leaf 1. */
	v->vmcb->save.cr4 = 0;
	exit_cpuid_fill(v);
	v->vmcb->save.cr4 = BIT(18);
	cpuid_exit_matches(v, 1, 0);
	assert_true(v->gprs.rcx & BIT(27));
	v->vmcb->save.cr4 = 0;
	cpuid_exit_matches(v, 1, 0);
	assert_false(v->gprs.rcx & BIT(27));
	/* The exit reads the table, whose leaf 1 EBX has the vCPU's APIC
	 * ID and count, whatever the CPU it happens to run on says. */
	fake_cpuid_set(1, 0, 0x800f12, 0x05040800, 0, 0);
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	v->vmcb->save.rax = 1;
	exit_dispatch(v);
	assert_int_equal(v->gprs.rbx, 0x01000800 | FX_VCPUS << 16);
	fx_g->kind = GUEST_MINHV;
}

/* Handlers that write a VMCB field the CPU may cache clear its clean bit
 * (APM 15.15.3), and only those. */
/* CPUID.1:EDX.APIC follows IA32_APIC_BASE.EN for a guest with a vLAPIC
 * (SDM vol 3, 11.4.3), also when leaf 1 comes from the CPUID table. */
static void test_cpuid_apic_follows_enable(void **s)
{
	struct vcpu *v = fx_v[0];
	u64 base;

	(void)s;
	cpuid_table_host(); /* the host has the APIC (EDX bit 9) */
	fx_platform(v);
	exit_cpuid_fill(v);
	assert_true(v->cpuid_fast & BIT(1));
	cpuid_exit_matches(v, 1, 0);
	assert_true(v->gprs.rdx & BIT(9));
	base = vlapic_apic_base_read(&v->lapic);
	apic_base_write(v, base & ~(APIC_BASE_EN | APIC_BASE_EXTD));
	cpuid_exit_matches(v, 1, 0);
	assert_false(v->gprs.rdx & BIT(9));
	apic_base_write(v, base & ~APIC_BASE_EXTD);
	cpuid_exit_matches(v, 1, 0);
	assert_true(v->gprs.rdx & BIT(9));
	fx_g->kind = GUEST_MINHV;
}

/* One CPUID exit of v for leaf/sub; EBX of the answer. */
static u64 cpuid_ebx(struct vcpu *v, u32 leaf, u32 sub)
{
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	v->vmcb->save.rax = leaf;
	v->gprs.rcx = sub;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	return v->gprs.rbx;
}

/* A leaf outside the table is kept as the last one and answered again
 * from there (shown by changing the kept row), one at a time; leaves whose
 * answer follows guest state (7.0: CR4.PKE; 0xD.0 and 0xD.1: XCR0) are
 * never kept; the loop's start (the table fill) forgets it. */
static void test_cpuid_last(void **s)
{
	struct vcpu *v = fx_v[1];
	struct cpuid_regs want;

	(void)s;
	cpuid_table_host();
	exit_cpuid_fill(v);
	assert_int_equal(v->cpuid_last_key, 0);
	exit_cpuid_leaf(v, 0x8000001d, 1, &want);
	assert_int_equal(cpuid_ebx(v, 0x8000001d, 1), want.ebx);
	v->cpuid_last.rbx = 0x1234; /* the kept answer is what comes back */
	assert_int_equal(cpuid_ebx(v, 0x8000001d, 1), 0x1234);
	assert_int_equal(v->vmcb->save.rax, want.eax);
	exit_cpuid_leaf(v, 0x8000001d, 0, &want);
	assert_int_equal(cpuid_ebx(v, 0x8000001d, 0), want.ebx); /* another */
	exit_cpuid_leaf(v, 0x8000001d, 1, &want);
	assert_int_equal(cpuid_ebx(v, 0x8000001d, 1), want.ebx); /* one kept */
	/* A refill (the loop starting on a CPU) forgets it. */
	v->cpuid_last.rbx = 0x1234;
	exit_cpuid_fill(v);
	assert_int_equal(cpuid_ebx(v, 0x8000001d, 1), want.ebx);
	/* Never kept: what follows CR4 and XCR0. */
	exit_cpuid_fill(v);
	cpuid_ebx(v, 7, 0);
	cpuid_ebx(v, 0xd, 0);
	cpuid_ebx(v, 0xd, 1);
	assert_int_equal(v->cpuid_last_key, 0);
	/* 7.0 ECX.OSPKE follows CR4.PKE from one exit to the next. */
	v->vmcb->save.cr4 = BIT(22);
	cpuid_ebx(v, 7, 0);
	assert_true(v->gprs.rcx & BIT(4));
	v->vmcb->save.cr4 = 0;
	cpuid_ebx(v, 7, 0);
	assert_false(v->gprs.rcx & BIT(4));
}

/* One CPUID exit of v for leaf 0x80000007 or 7.0: the bit asked for. */
static bool cpuid_bit(struct vcpu *v, u32 leaf, u32 bit)
{
	fx_exit(v, VMEXIT_CPUID, 0, 0);
	v->vmcb->save.rax = leaf;
	v->gprs.rcx = 0;
	assert_int_equal(exit_dispatch(v), EXIT_RESUME);
	return (leaf == 7 ? v->gprs.rbx : v->gprs.rdx) & BIT(bit);
}

/* A host without an invariant TSC or TSC_ADJUST (QEMU's TCG EPYC, the
 * host of make test): a Linux guest is still told both, and its
 * IA32_TSC_ADJUST works, so Linux keeps the TSC as its clocksource
 * instead of the HPET, whose every read is an exit (under TCG the
 * periodic tick's catch-up after the clocksource switch then never
 * caught up: 4 vCPUs with interrupts off, docs/GUESTS.md "Time under 4
 * vCPUs"). A
 * multiboot guest keeps the host's view (kvm-unit-tests compare with
 * bare QEMU): neither bit, and the MSR is #GP. */
static void test_cpuid_linux_tsc(void **s)
{
	struct vcpu *v = fx_v[0];

	(void)s;
	cpuid_table_host(); /* 0x80000007 EDX 0, 7.0 EBX without bit 1 */
	g_features.tsc_adjust = false;
	fx_platform(v);
	exit_cpuid_fill(v);
	assert_false(cpuid_bit(v, 0x80000007, 8));
	assert_false(cpuid_bit(v, 7, 1));
	fx_msr(MSR_TSC_ADJUST, true, 5);
	fx_expect_gp();
	fx_g->kind = GUEST_LINUX;
	exit_cpuid_fill(v);
	assert_true(cpuid_bit(v, 0x80000007, 8));
	assert_true(cpuid_bit(v, 7, 1));
	v->vmcb->control.tsc_offset = 1000;
	fx_msr(MSR_TSC_ADJUST, true, 5);
	fx_expect_ok();
	assert_int_equal(v->vmcb->control.tsc_offset, 1005);
	fx_msr(MSR_TSC_ADJUST, false, 0);
	assert_int_equal(v->vmcb->save.rax, 5);
	fx_g->kind = GUEST_MINHV;
}

#define T(f) \
	cmocka_unit_test_setup_teardown(f, fx_cmocka_setup, fx_cmocka_teardown)
int main(void)
{
	const struct CMUnitTest tests[] = {
		T(test_cpuid),	     T(test_cpuid_nrip),
		T(test_cpuid_table), T(test_cpuid_apic_follows_enable),
		T(test_cpuid_last),  T(test_cpuid_linux_tsc),
	};
	return cmocka_run_group_tests_name("exits_cpuid", tests, NULL, NULL);
}
