// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_svm_stub.c - the real VMRUN stub (arch/svm.asm, built
 * with tests/doubles/svm_insn.inc) run against the CPU double: the order
 * of its privileged steps in the event trace. Audit A1: in the software
 * SPEC_CTRL swap the host's value is back before STGI, where an NMI held
 * during the guest is taken (KVM's RESTORE_HOST_SPEC_CTRL); A2: 32 CALLs
 * fill the RSB right after #VMEXIT, before any RET, when the policy says
 * so (not with AutoIBRS, not on QEMU TCG); and the guest's GPRs go in and
 * come back out. Nothing of this shows under QEMU TCG, whose CPU model has
 * no SPEC_CTRL and which does not fill unless rsb_fill=on. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "arch/svm.h"
#include "hv/park/spec_ctrl.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_svm.h"
#include "tests/unit/park_fakes.h"

#define GUEST_VMCB 0x7000ULL
#define HOST_VMCB 0x9000ULL

static struct svm_gprs g;
static struct svm_host h;
static struct svm_gprs seen; /* what the guest found in its registers */

static int setup(void **s)
{
	(void)s;
	pf_reset();
	fake_svm_reset();
	fake_console_clear();
	memset(&g, 0, sizeof(g));
	memset(&seen, 0, sizeof(seen));
	h = (struct svm_host){ .vmcb = { HOST_VMCB } };
	return 0;
}

/* The guest: records what VMRUN loaded, then leaves its own values. */
static void guest(struct fake_svm_regs *r)
{
	seen = (struct svm_gprs){
		.rbx = r->rbx,
		.rcx = r->rcx,
		.rdx = r->rdx,
		.rsi = r->rsi,
		.rdi = r->rdi,
		.rbp = r->rbp,
		.r8 = r->r8,
		.r9 = r->r9,
		.r10 = r->r10,
		.r11 = r->r11,
		.r12 = r->r12,
		.r13 = r->r13,
		.r14 = r->r14,
		.r15 = r->r15,
	};
	r->rbx = 0xb0b;
	r->rcx = 0xc0c;
	r->rdx = 0xd0d;
	r->rsi = 0x5151;
	r->rdi = 0xd1d1;
	r->rbp = 0xbbbb;
	r->r8 = 8;
	r->r15 = 15;
	r->rax = 0xdead; /* VMRUN restores host RAX: never seen */
}

/* Line index of the first trace line containing s; fails when none. */
static int at(const char *s)
{
	int i = fake_trace_find(s);

	if (i < 0)
		fail_msg("'%s' not in the trace:\n%s", s, fake_trace());
	return i;
}

/* Software swap (Zen 1-3 without V_SPEC_CTRL, nested KVM): kernel-mode
 * IBRS host (base IBRS), the guest runs with IBRS clear. */
static void test_swap_host_value_before_stgi(void **s)
{
	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, SPEC_CTRL_IBRS);
	h.spec_ctrl = SPEC_CTRL_IBRS;
	h.flags = SVM_HOST_SPEC_SWAP | SVM_HOST_RSB_FILL;
	g.spec_ctrl = 0;
	fake_trace_clear();
	svm_vmrun(hpa(GUEST_VMCB), &g, &h);
	assert_string_equal(fake_trace(), "cpu0: clgi\n"
					  "cpu0: wrmsr 0x48 0\n"
					  "cpu0: sti\n"
					  "cpu0: vmload 0x7000\n"
					  "cpu0: vmrun 0x7000\n"
					  "cpu0: vmsave 0x7000\n"
					  "cpu0: vmload 0x9000\n"
					  "cpu0: rsb fill\n"
					  "cpu0: wrmsr 0x48 0x1\n"
					  "cpu0: stgi\n");
	/* What an NMI taken at STGI runs with: the host's IBRS. */
	assert_int_equal(fake_spec_ctrl_at_stgi, SPEC_CTRL_IBRS);
	assert_true(fake_gif);
	assert_true(fake_cpus[0].irq_enabled); /* returns with IF=1 */
	assert_int_equal(g.spec_ctrl, 0); /* the guest's, unchanged */
}

/* Equal values: nothing to write either way. */
static void test_swap_equal_no_write(void **s)
{
	(void)s;
	fake_msr_define(MSR_SPEC_CTRL, SPEC_CTRL_IBRS);
	h.spec_ctrl = SPEC_CTRL_IBRS;
	h.flags = SVM_HOST_SPEC_SWAP;
	g.spec_ctrl = SPEC_CTRL_IBRS;
	fake_trace_clear();
	svm_vmrun(hpa(GUEST_VMCB), &g, &h);
	assert_int_equal(fake_trace_count("wrmsr"), 0);
	assert_int_equal(fake_trace_count("rsb fill"), 0);
	assert_int_equal(fake_spec_ctrl_at_stgi, SPEC_CTRL_IBRS);
	/* SSBD on for the guest: in, and the base back before STGI. */
	g.spec_ctrl = SPEC_CTRL_SSBD;
	fake_trace_clear();
	svm_vmrun(hpa(GUEST_VMCB), &g, &h);
	assert_int_equal(fake_trace_count("wrmsr"), 2);
	assert_true(at("wrmsr 0x48 0x4") < at("vmrun"));
	assert_true(at("wrmsr 0x48 0x1") < at("stgi"));
	assert_int_equal(fake_spec_ctrl_at_stgi, SPEC_CTRL_IBRS);
}

/* No swap (V_SPEC_CTRL swaps in hardware, or no SPEC_CTRL): the stub
 * touches no MSR; AutoIBRS: no fill. */
static void test_no_swap_no_fill(void **s)
{
	(void)s;
	h.flags = 0;
	g.spec_ctrl = SPEC_CTRL_SSBD;
	fake_trace_clear();
	svm_vmrun(hpa(GUEST_VMCB), &g, &h);
	assert_string_equal(fake_trace(), "cpu0: clgi\n"
					  "cpu0: sti\n"
					  "cpu0: vmload 0x7000\n"
					  "cpu0: vmrun 0x7000\n"
					  "cpu0: vmsave 0x7000\n"
					  "cpu0: vmload 0x9000\n"
					  "cpu0: stgi\n");
	/* The fill alone (no IBRS, no AutoIBRS, not TCG). */
	h.flags = SVM_HOST_RSB_FILL;
	fake_trace_clear();
	svm_vmrun(hpa(GUEST_VMCB), &g, &h);
	assert_true(at("vmload 0x9000") < at("rsb fill"));
	assert_true(at("rsb fill") < at("stgi"));
	assert_int_equal(fake_trace_count("wrmsr"), 0);
}

/* The guest's GPRs: loaded for VMRUN, stored back after; the caller's
 * callee-saved registers survive (the C code around it relies on them,
 * and the 32 CALLs of the fill must leave RSP where it was). */
static void test_gprs_round_trip(void **s)
{
	volatile u64 keep = 0x1234567890abcdefULL;

	(void)s;
	for (unsigned i = 0; i < 14; i++)
		((u64 *)&g)[i] = 0x100 + i;
	h.flags = SVM_HOST_RSB_FILL;
	fake_vmrun_hook = guest;
	svm_vmrun(hpa(GUEST_VMCB), &g, &h);
	for (unsigned i = 0; i < 14; i++)
		assert_int_equal(((u64 *)&seen)[i], 0x100 + i);
	assert_int_equal(g.rbx, 0xb0b);
	assert_int_equal(g.rcx, 0xc0c);
	assert_int_equal(g.rdx, 0xd0d);
	assert_int_equal(g.rsi, 0x5151);
	assert_int_equal(g.rdi, 0xd1d1);
	assert_int_equal(g.rbp, 0xbbbb);
	assert_int_equal(g.r8, 8);
	assert_int_equal(g.r9, 0x107); /* untouched by the guest */
	assert_int_equal(g.r15, 15);
	assert_int_equal(keep, 0x1234567890abcdefULL);
	/* Host RAX came back: VMSAVE saved the guest VMCB, not 0xdead. */
	assert_true(at("vmsave 0x7000") >= 0);
}

/* What spec_ctrl_svm_host() asks of the stub, per policy. */
static void test_host_flags_per_policy(void **s)
{
	struct svm_host x;

	(void)s;
	/* Zen 2 without V_SPEC_CTRL: kernel IBRS, swap, fill. */
	fake_msr_define(MSR_SPEC_CTRL, 0);
	pf_cpuid_amd(AMD8_IBRS | AMD8_STIBP | AMD8_SSBD, 0, 0);
	pf_boot_spec(false);
	spec_ctrl_svm_host(&x);
	assert_int_equal(x.flags, SVM_HOST_SPEC_SWAP | SVM_HOST_RSB_FILL);
	assert_int_equal(x.spec_ctrl, SPEC_CTRL_IBRS);
	/* Genoa: AutoIBRS and V_SPEC_CTRL: neither. */
	pf_cpuid_amd(AMD8_IBRS | AMD8_SSBD, AMD21_AUTOIBRS, SVM_V_SPEC_CTRL);
	fake_msr_define(MSR_EFER, 0);
	pf_boot_spec(false);
	spec_ctrl_svm_host(&x);
	assert_int_equal(x.flags, 0);
	/* ... with SNP the host must not rely on AutoIBRS: fill. */
	pf_boot_spec(true);
	spec_ctrl_svm_host(&x);
	assert_int_equal(x.flags, SVM_HOST_RSB_FILL);
	/* No SPEC_CTRL at all on hardware (or nested KVM): fill only. */
	pf_cpuid_amd(0, 0, 0);
	pf_boot_spec(false);
	spec_ctrl_svm_host(&x);
	assert_int_equal(x.flags, SVM_HOST_RSB_FILL);
	/* TCG's EPYC ("TCGTCGTCGTCG"): no SPEC_CTRL, nothing speculates:
	 * neither, unless rsb_fill=on. */
	pf_cpuid_hypervisor("TCGTCGTCGTCG");
	pf_boot_spec(false);
	spec_ctrl_svm_host(&x);
	assert_int_equal(x.flags, 0);
	pf_rsb_fill = TRI_ON;
	pf_boot_spec(false);
	spec_ctrl_svm_host(&x);
	assert_int_equal(x.flags, SVM_HOST_RSB_FILL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_swap_host_value_before_stgi, setup),
		cmocka_unit_test_setup(test_swap_equal_no_write, setup),
		cmocka_unit_test_setup(test_no_swap_no_fill, setup),
		cmocka_unit_test_setup(test_gprs_round_trip, setup),
		cmocka_unit_test_setup(test_host_flags_per_policy, setup),
	};
	return cmocka_run_group_tests_name("svm_stub", tests, NULL, NULL);
}
