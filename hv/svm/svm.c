// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/svm.c - decide whether SVM can be used and enable it on every CPU:
 * EFER.SVME and a VM_HSAVE_PA page each (APM vol 2, 15.4 enabling SVM,
 * 15.30.1 VM_CR.SVMDIS, 15.30.4 VM_HSAVE_PA). */
#include "arch/cpu.h"
#include "arch/msr.h"
#include "hv/smp/ipi.h"
#include "lib/fmt.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/percpu.h"
#include "arch/errno.h"
#include "hv/svm/svm.h"
#include "hv/vcpu/vcpu_fpu.h"
#include "hv/cpuid/cpuid.h"

static int svm_state; /* 0 undecided, 1 usable, -1 not */
static char why_not[200];

const char *svm_unusable_reason(const struct features *f, bool have_vm_cr,
				u64 vm_cr, char *buf, size_t n)
{
	if (!f->svm)
		fmt_snprintf(
			buf, n,
			"CPUID 0x80000001:ECX[2] (SVM) is 0: this %s CPU (%s) has no AMD-V",
			features_vendor_name(f->vendor), f->vendor_str);
	else if (f->max_ext_leaf < 0x8000000a)
		fmt_snprintf(buf, n,
			     "CPUID leaf 0x8000000A (SVM features) is missing");
	else if (!f->npt)
		fmt_snprintf(
			buf, n,
			"no nested paging (CPUID 0x8000000A:EDX[0]=0); minhv needs NPT");
	else if (f->svm_nasid < 2)
		fmt_snprintf(
			buf, n,
			"CPUID 0x8000000A:EBX reports %u ASIDs; guests need at least one besides the host's",
			f->svm_nasid);
	else if (have_vm_cr && (vm_cr & VM_CR_SVMDIS))
		fmt_snprintf(
			buf, n,
			"SVM is disabled by firmware (VM_CR.SVMDIS=1%s)",
			(vm_cr & VM_CR_LOCK) ?
				", locked: enable SVM in the firmware setup" :
				"");
	else
		return NULL;
	return buf;
}

struct svm_cpu *svm_this_cpu(void)
{
	struct svm_cpu *sc = this_cpu()->svm;

	return sc && sc->enabled ? sc : NULL;
}

int svm_cpu_enable(void)
{
	struct percpu *pc = this_cpu();
	struct svm_cpu *sc = pc->svm;
	char buf[160];
	u64 vm_cr = 0;
	bool have = rdmsr_safe(MSR_VM_CR, &vm_cr);

	if (sc && sc->enabled)
		return 0;
	/* SVMDIS can differ per CPU only with broken firmware; check anyway. */
	if (svm_unusable_reason(&g_features, have, vm_cr, buf, sizeof(buf))) {
		pr_err("svm: CPU %u: %s\n", pc->cpu, buf);
		return -ENODEV;
	}
	if (!sc) {
		sc = page_alloc_ptr(1);
		if (!sc)
			return -ENOMEM;
		sc->hsave = page_alloc(1, 1);
		sc->host.vmcb = page_alloc(1, 1);
		if (!sc->hsave.v || !sc->host.vmcb.v) {
			pr_err("svm: CPU %u: out of memory for the host save area\n",
			       pc->cpu);
			return -ENOMEM;
		}
		pc->svm = sc;
	}
	/* HSAVE first: VMRUN does not check it and would write page 0. */
	wrmsr(MSR_VM_HSAVE_PA, sc->hsave.v);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SVME);
	fpu_cpu_init(); /* host XCR0, clean vector state, DR0-DR3 = 0 */
	sc->enabled = true;
	return 0;
}

static void enable_fn(void *arg)
{
	if (svm_cpu_enable())
		__atomic_add_fetch((u32 *)arg, 1, __ATOMIC_RELAXED);
}

static void log_features(const struct features *f)
{
	pr_info("svm: usable: asids %u npt %d nrips %d vmcb-clean %d flush-by-asid %d decode-assists %d\n",
		f->svm_nasid, f->npt, f->nrips, f->vmcb_clean, f->flush_by_asid,
		f->decode_assists);
	pr_info("svm: pause-filter %d pause-filter-threshold %d vgif %d v-spec-ctrl %d 1g-npt %d%s\n",
		f->pause_filter, f->pause_filter_threshold, f->vgif,
		f->v_spec_ctrl, f->page1g,
		f->nrips ? "" : " (no NRIP: RIP advanced by known lengths)");
}

int svm_init(void)
{
	u32 fails = 0;
	u64 vm_cr = 0;
	bool have = false;

	if (svm_state)
		return svm_state > 0 ? 0 : -ENODEV;
	if (g_features.svm)
		have = rdmsr_safe(MSR_VM_CR, &vm_cr);
	if (svm_unusable_reason(&g_features, have, vm_cr, why_not,
				sizeof(why_not))) {
		pr_warn("svm: cannot use SVM: %s\n", why_not);
		svm_state = -1;
		return -ENODEV;
	}
	log_features(&g_features);
	fpu_boot(&g_features);
	cpuid_host_capture(&g_cpuid_host); /* what guest CPUID is made of */
	ipi_call_all(enable_fn, &fails, true, true);
	if (!svm_this_cpu()) {
		fmt_snprintf(why_not, sizeof(why_not),
			     "enabling SVM failed on the boot CPU");
		svm_state = -1;
		return -ENODEV;
	}
	if (fails)
		pr_warn("svm: %u CPU(s) could not enable SVM; their vCPUs cannot start\n",
			fails);
	svm_state = 1;
	return 0;
}

const char *svm_why_not(void)
{
	return why_not;
}
