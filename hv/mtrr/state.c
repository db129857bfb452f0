// SPDX-License-Identifier: GPL-2.0-only
/* hv/mtrr/state.c - read, write and compare one CPU's MTRRs.
 * MSR numbers: SDM vol 3A 11.11.1-11.11.3; AMD SYSCFG: APM vol 2 7.9.1. */
#include "arch/cpu.h"
#include "arch/msr.h"
#include "hv/log.h"
#include "hv/mtrr/mtrr.h"
#include "lib/string.h"

static const u32 fixed_msr[MTRR_NFIXED] = {
	MSR_MTRR_FIX64K_00000,	  MSR_MTRR_FIX16K_80000,
	MSR_MTRR_FIX16K_A0000,	  MSR_MTRR_FIX4K_C0000 + 0,
	MSR_MTRR_FIX4K_C0000 + 1, MSR_MTRR_FIX4K_C0000 + 2,
	MSR_MTRR_FIX4K_C0000 + 3, MSR_MTRR_FIX4K_C0000 + 4,
	MSR_MTRR_FIX4K_C0000 + 5, MSR_MTRR_FIX4K_C0000 + 6,
	MSR_MTRR_FIX4K_C0000 + 7,
};

/* RdMem/WrMem, bits 4:3 of each of the eight type bytes (APM 7.9.1). */
#define FIXED_RDWR_MEM 0x1818181818181818ULL

bool mtrr_type_valid(u8 t)
{
	return t == MTRR_TYPE_UC || t == MTRR_TYPE_WC || t == MTRR_TYPE_WT ||
	       t == MTRR_TYPE_WP || t == MTRR_TYPE_WB;
}

const char *mtrr_type_name(u8 t)
{
	static const char *const n[] = { "UC", "WC", "?2", "?3",
					 "WT", "WP", "WB" };

	return t < ARRAY_SIZE(n) ? n[t] : "?";
}

bool g_mtrr_snp_enabling;

static bool amd_like(void)
{
	return g_features.vendor == VENDOR_AMD ||
	       g_features.vendor == VENDOR_HYGON;
}

static void mtrr_read_types(struct mtrr_state *s);

void mtrr_capture(struct mtrr_state *s)
{
	memset(s, 0, sizeof(*s));
	s->cap = rdmsr(MSR_MTRRCAP);
	s->vcnt = MTRRCAP_VCNT(s->cap);
	s->have_fixed = s->cap & MTRRCAP_FIX;
	if (amd_like()) {
		u64 sys = rdmsr(MSR_AMD_SYSCFG);

		/* SNP firmware requires MtrrFixDramModEn on every CPU (Linux:
		 * mfd_enable() in arch/x86/virt/svm/sev.c). Set it before
		 * reading the fixed ranges so their RdMem/WrMem bits are read
		 * as they are, and then written back unchanged to every CPU. */
		if (g_features.snp && g_mtrr_snp_enabling &&
		    !(sys & SYSCFG_MTRR_FIX_DRAM_MOD_EN)) {
			wrmsr(MSR_AMD_SYSCFG,
			      sys | SYSCFG_MTRR_FIX_DRAM_MOD_EN);
			sys = rdmsr(MSR_AMD_SYSCFG);
		}
		s->have_syscfg = true;
		s->fix_dram_mod_en = sys & SYSCFG_MTRR_FIX_DRAM_MOD_EN;
	}
	mtrr_read_types(s);
}

/* Read this CPU's MTRRs as they are (no SYSCFG write). */
void mtrr_read(struct mtrr_state *s)
{
	memset(s, 0, sizeof(*s));
	s->cap = rdmsr(MSR_MTRRCAP);
	s->vcnt = MTRRCAP_VCNT(s->cap);
	s->have_fixed = s->cap & MTRRCAP_FIX;
	if (amd_like()) {
		s->have_syscfg = true;
		s->fix_dram_mod_en = rdmsr(MSR_AMD_SYSCFG) &
				     SYSCFG_MTRR_FIX_DRAM_MOD_EN;
	}
	mtrr_read_types(s);
}

static void mtrr_read_types(struct mtrr_state *s)
{
	s->def_type = rdmsr(MSR_MTRR_DEF_TYPE);
	for (u32 i = 0; i < s->vcnt; i++) {
		s->var[i].base = rdmsr(MSR_MTRR_PHYSBASE(i));
		s->var[i].mask = rdmsr(MSR_MTRR_PHYSMASK(i));
	}
	if (s->have_fixed)
		for (u32 i = 0; i < MTRR_NFIXED; i++)
			s->fixed[i] = rdmsr(fixed_msr[i]);
}

/* SYSCFG goes first: with MtrrFixDramModEn as in the target, the fixed
 * writes' RdMem/WrMem bits are honoured (1) or ignored (0) exactly as on
 * the boot CPU. Linux never toggles the bit around the writes (it clears a
 * stray one at boot, k8_check_syscfg_dram_mod_en(), or sets it for SNP);
 * toggling it on would let bits read as 0 under ModEn=0 clobber the
 * firmware's RdMem/WrMem routing of the first MiB. */
void mtrr_write_ranges(const struct mtrr_state *s)
{
	if (s->have_syscfg) {
		u64 sys = rdmsr(MSR_AMD_SYSCFG);
		u64 want =
			(sys & ~SYSCFG_MTRR_FIX_DRAM_MOD_EN) |
			(s->fix_dram_mod_en ? SYSCFG_MTRR_FIX_DRAM_MOD_EN : 0);

		if (want != sys)
			wrmsr(MSR_AMD_SYSCFG, want);
	}
	for (u32 i = 0; i < s->vcnt; i++) {
		wrmsr(MSR_MTRR_PHYSBASE(i), s->var[i].base);
		wrmsr(MSR_MTRR_PHYSMASK(i), s->var[i].mask);
	}
	if (s->have_fixed)
		for (u32 i = 0; i < MTRR_NFIXED; i++)
			wrmsr(fixed_msr[i], s->fixed[i]);
}

static u32 differ(u32 cpu, u32 msr, u64 have, u64 want, bool report)
{
	if (have == want)
		return 0;
	if (report)
		pr_err("mtrr: cpu%u: MSR %#x is %#llx, boot CPU has %#llx\n",
		       cpu, msr, (unsigned long long)have,
		       (unsigned long long)want);
	return 1;
}

u32 mtrr_compare(const struct mtrr_state *s, u32 cpu, unsigned flags)
{
	bool report = flags & MTRR_CMP_REPORT;
	u64 fixmask = ~0ULL;
	u32 n = 0;

	n += differ(cpu, MSR_MTRRCAP, rdmsr(MSR_MTRRCAP), s->cap, report);
	if (flags & MTRR_CMP_TYPES)
		fixmask = ~FIXED_RDWR_MEM;
	else if (s->have_syscfg) {
		u64 sys = rdmsr(MSR_AMD_SYSCFG);

		n += differ(
			cpu, MSR_AMD_SYSCFG, sys & SYSCFG_MTRR_FIX_DRAM_MOD_EN,
			s->fix_dram_mod_en ? SYSCFG_MTRR_FIX_DRAM_MOD_EN : 0,
			report);
		if (!(sys & SYSCFG_MTRR_FIX_DRAM_MOD_EN))
			fixmask = ~FIXED_RDWR_MEM; /* they read as 0 */
	}
	n += differ(cpu, MSR_MTRR_DEF_TYPE, rdmsr(MSR_MTRR_DEF_TYPE),
		    s->def_type, report);
	for (u32 i = 0; i < s->vcnt; i++) {
		n += differ(cpu, MSR_MTRR_PHYSBASE(i),
			    rdmsr(MSR_MTRR_PHYSBASE(i)), s->var[i].base,
			    report);
		n += differ(cpu, MSR_MTRR_PHYSMASK(i),
			    rdmsr(MSR_MTRR_PHYSMASK(i)), s->var[i].mask,
			    report);
	}
	if (s->have_fixed)
		for (u32 i = 0; i < MTRR_NFIXED; i++)
			n += differ(cpu, fixed_msr[i],
				    rdmsr(fixed_msr[i]) & fixmask,
				    s->fixed[i] & fixmask, report);
	return n;
}
