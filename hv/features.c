// SPDX-License-Identifier: GPL-2.0-only
/* hv/features.c - decode CPUID into struct features, once, on the boot CPU.
 * Bit positions: Intel SDM vol 2 (CPUID), AMD APM vol 3 appendix E. */
#include "hv/features.h"
#include "arch/cpu.h"
#include "lib/string.h"
#include "hv/log.h"

struct features g_features;

static bool bit(u32 v, unsigned n)
{
	return (v >> n) & 1;
}

const char *features_vendor_name(enum cpu_vendor v)
{
	switch (v) {
	case VENDOR_INTEL:
		return "Intel";
	case VENDOR_AMD:
		return "AMD";
	case VENDOR_HYGON:
		return "Hygon";
	default:
		return "other";
	}
}

void features_detect(struct features *f)
{
	struct cpuid_regs r;

	memset(f, 0, sizeof(*f));
	cpuid(0, 0, &r);
	f->max_leaf = r.eax;
	memcpy(f->vendor_str + 0, &r.ebx, 4);
	memcpy(f->vendor_str + 4, &r.edx, 4);
	memcpy(f->vendor_str + 8, &r.ecx, 4);
	f->vendor_str[12] = 0;
	if (!strcmp(f->vendor_str, "GenuineIntel"))
		f->vendor = VENDOR_INTEL;
	else if (!strcmp(f->vendor_str, "AuthenticAMD"))
		f->vendor = VENDOR_AMD;
	else if (!strcmp(f->vendor_str, "HygonGenuine"))
		f->vendor = VENDOR_HYGON;
	else
		f->vendor = VENDOR_OTHER;

	cpuid(1, 0, &r);
	f->stepping = r.eax & 0xf;
	f->family = (r.eax >> 8) & 0xf;
	f->model = (r.eax >> 4) & 0xf;
	if (f->family == 0xf)
		f->family += (r.eax >> 20) & 0xff;
	if (f->family >= 6)
		f->model |= ((r.eax >> 16) & 0xf) << 4;
	f->monitor = bit(r.ecx, 3);
	f->x2apic = bit(r.ecx, 21);
	f->tsc_deadline = bit(r.ecx, 24);
	f->hypervisor = bit(r.ecx, 31);
	f->xsave = bit(r.ecx, 26);
	f->pcid = bit(r.ecx, 17);
	f->fxsr = bit(r.edx, 24);
	f->mce = bit(r.edx, 7);
	f->mca = bit(r.edx, 14);
	if (f->xsave && f->max_leaf >= 0xd) {
		struct cpuid_regs x;

		cpuid(0xd, 0, &x);
		f->xcr0_supported = ((u64)x.edx << 32) | x.eax;
		f->xsave_size = x.ecx;
	}
	if (!f->xcr0_supported || f->xsave_size < 576)
		f->xsave = false; /* broken leaf 0xD: use FXSAVE */
	f->mtrr = bit(r.edx, 12);
	f->self_snoop = bit(r.edx, 27);

	if (f->max_leaf >= 7) {
		cpuid(7, 0, &r);
		f->pks = bit(r.ecx, 31);
		f->tsc_adjust = bit(r.ebx, 1);
		f->la57 = bit(r.ecx, 16);
		f->umip = bit(r.ecx, 2);
		f->fsgsbase = bit(r.ebx, 0);
		f->smep = bit(r.ebx, 7);
		f->smap = bit(r.ebx, 20);
		f->pku = bit(r.ecx, 3);
		f->cet = bit(r.ecx, 7) || bit(r.edx, 20);
		if (f->vendor == VENDOR_INTEL) {
			f->ibrs = bit(r.edx, 26);
			f->ibpb = bit(r.edx, 26); /* IBRS and IBPB together */
			f->stibp = bit(r.edx, 27);
			f->ssbd = bit(r.edx, 31);
		}
	}

	cpuid(0x80000000, 0, &r);
	f->max_ext_leaf = r.eax;
	if (f->max_ext_leaf >= 0x80000001) {
		cpuid(0x80000001, 0, &r);
		f->svm = bit(r.ecx, 2);
		f->nx = bit(r.edx, 20);
		f->page1g = bit(r.edx, 26);
		f->rdtscp = bit(r.edx, 27);
	}
	f->phys_addr_bits = 36;
	if (f->max_ext_leaf >= 0x80000008) {
		cpuid(0x80000008, 0, &r);
		f->phys_addr_bits = r.eax & 0xff;
		if (f->vendor != VENDOR_INTEL) {
			f->ibrs = bit(r.ebx, 14);
			f->ibpb = bit(r.ebx, 12); /* AMD: IBPB on its own */
			f->stibp = bit(r.ebx, 15);
			f->ibrs_always_on = bit(r.ebx, 16);
			f->ibrs_preferred = bit(r.ebx, 18);
			f->ssbd = bit(r.ebx, 24);
		}
	}
	if (f->svm && f->max_ext_leaf >= 0x8000000a) {
		cpuid(0x8000000a, 0, &r);
		f->svm_nasid = r.ebx;
		f->npt = bit(r.edx, 0);
		f->lbrv = bit(r.edx, 1);
		f->nrips = bit(r.edx, 3);
		f->tsc_rate = bit(r.edx, 4);
		f->vmcb_clean = bit(r.edx, 5);
		f->flush_by_asid = bit(r.edx, 6);
		f->decode_assists = bit(r.edx, 7);
		f->pause_filter = bit(r.edx, 10);
		f->pause_filter_threshold = bit(r.edx, 12);
		f->avic = bit(r.edx, 13);
		f->vgif = bit(r.edx, 16);
		f->v_spec_ctrl = bit(r.edx, 20);
	}
	if (f->max_ext_leaf >= 0x8000001f) {
		cpuid(0x8000001f, 0, &r);
		f->sev = bit(r.eax, 1);
		f->snp = bit(r.eax, 4);
		f->vmpl = bit(r.eax, 5);
		f->segmented_rmp = bit(r.eax, 23);
		f->cbit_pos = r.ebx & 0x3f;
		f->sev_asids = f->sev ? r.ecx : 0;
	}
	if (f->max_ext_leaf >= 0x80000021) {
		cpuid(0x80000021, 0, &r);
		f->auto_ibrs = bit(r.eax, 8);
	}
	if (f->max_ext_leaf >= 0x80000025) {
		cpuid(0x80000025, 0, &r);
		f->rmpopt = bit(r.edx, 0);
	}
	if (f->hypervisor) {
		cpuid(0x40000000, 0, &r);
		/* EBX, ECX, EDX: the signature's order and struct cpuid_regs'. */
		memcpy(f->hv_sig, &r.ebx, 12);
		f->tcg = !memcmp(f->hv_sig, "TCGTCGTCGTCG", 12);
		if (r.eax >= 0x40000010 && r.eax < 0x40000100) {
			cpuid(0x40000010, 0, &r);
			f->hv_tsc_khz = r.eax;
		}
	}
	f->threads_per_core = 1;
	if (f->max_ext_leaf >= 0x8000001e) {
		cpuid(0x80000001, 0, &r);
		if (bit(r.ecx, 22)) {
			cpuid(0x8000001e, 0, &r);
			f->threads_per_core = ((r.ebx >> 8) & 0xff) + 1;
		}
	}
}

void features_log(const struct features *f)
{
	pr_info("cpu: %s (%s) family %xh model %xh stepping %u%s\n",
		features_vendor_name(f->vendor), f->vendor_str, f->family,
		f->model, f->stepping, f->hypervisor ? ", virtualized" : "");
	pr_info("cpu: x2apic=%d self-snoop=%d mtrr=%d 1g-pages=%d pks=%d pa-bits=%u\n",
		f->x2apic, f->self_snoop, f->mtrr, f->page1g, f->pks,
		f->phys_addr_bits);
	pr_info("cpu: svm=%d npt=%d nrips=%d pause-filter=%d threshold=%d vgif=%d asids=%u\n",
		f->svm, f->npt, f->nrips, f->pause_filter,
		f->pause_filter_threshold, f->vgif, f->svm_nasid);
	pr_info("cpu: ibrs=%d stibp=%d ssbd=%d auto-ibrs=%d snp=%d rmpopt=%d\n",
		f->ibrs, f->stibp, f->ssbd, f->auto_ibrs, f->snp, f->rmpopt);
}
