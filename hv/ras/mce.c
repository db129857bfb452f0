// SPDX-License-Identifier: GPL-2.0-only
/* hv/ras/mce.c - machine checks (AMD APM vol 2 9.3, 15.12 on the #MC
 * intercept; Intel SDM vol 3B 16.3, 17.9-17.10): every CPU runs with
 * CR4.MCE (without it a machine check is a shutdown) and all banks
 * enabled; a host #MC is logged, its banks and MCG_STATUS.MCIP cleared (a
 * second #MC with MCIP set is a shutdown too), and the run carries on when
 * RIPV says the interrupted code can be restarted. A guest's #MC exit gets
 * the same logging by hand, as KVM's svm_handle_mce() does, and only that
 * guest stops. */
#include "hv/ras/internal.h"
#include "arch/cpu.h"
#include "arch/cr.h"
#include "hv/console.h"
#include "hv/features.h"
#include "hv/log.h"
#include "hv/percpu.h"
#include "lib/fmt.h"

u32 g_mca_banks;
u32 g_mce_host, g_mce_guest;

static u32 cpu_index(void)
{
	struct percpu *pc = g_percpu ? this_cpu() : NULL;

	return pc ? pc->cpu : 0;
}

void mce_collect(struct mce_rec *r, bool clear)
{
	*r = (struct mce_rec){ .mcg_status = rdmsr(MSR_MCG_STATUS) };
	for (u32 i = 0; i < g_mca_banks; i++) {
		u64 st = rdmsr(MSR_MC_STATUS(i));
		struct mce_bank *b;

		if (!(st & MCI_STATUS_VAL))
			continue;
		r->nvalid++;
		r->pcc |= !!(st & MCI_STATUS_PCC);
		if (r->nshown < MCE_SHOWN) {
			b = &r->b[r->nshown++];
			b->bank = i;
			b->status = st;
			b->addr = st & MCI_STATUS_ADDRV ?
					  rdmsr(MSR_MC_ADDR(i)) :
					  0;
			b->misc = st & MCI_STATUS_MISCV ?
					  rdmsr(MSR_MC_MISC(i)) :
					  0;
		}
		if (clear)
			wrmsr(MSR_MC_STATUS(i), 0);
	}
	if (clear)
		wrmsr(MSR_MCG_STATUS, 0);
}

void mce_log(const struct mce_rec *r, int level, const char *what)
{
	u32 cpu = cpu_index();

	ras_emit(level,
		 "mce: CPU %u: %s: MCG_STATUS %#llx, %u banks with an error\n",
		 cpu, what, (unsigned long long)r->mcg_status, r->nvalid);
	for (u32 i = 0; i < r->nshown; i++)
		ras_emit(
			level,
			"mce: CPU %u bank %u: STATUS %#llx ADDR %#llx MISC %#llx\n",
			cpu, r->b[i].bank, (unsigned long long)r->b[i].status,
			(unsigned long long)r->b[i].addr,
			(unsigned long long)r->b[i].misc);
}

/* The host #MC handler, on its IST stack (arch/idt.c). */
static void mce_trap(struct trap_frame *f)
{
	struct mce_rec r;
	char what[96];

	mce_collect(&r, true);
	__atomic_add_fetch(&g_mce_host, 1, __ATOMIC_RELAXED);
	fmt_snprintf(what, sizeof(what),
		     "machine check in host mode at RIP %#llx",
		     (unsigned long long)f->rip);
	if (!(r.mcg_status & MCG_STATUS_RIPV) || r.pcc) {
		/* Nothing safe to return to: say so, and stop the run. */
		console_break_lock();
		mce_log(&r, LOG_ERR, what);
		trap_fatal(f, r.pcc ? "#MC, MCi_STATUS.PCC: cannot continue" :
				      "#MC without RIPV: cannot continue");
	}
	mce_log(&r, LOG_ERR, what);
	ras_emit(LOG_ERR, "mce: CPU %u: cleared; RIPV set: carrying on\n",
		 cpu_index());
}

void ras_boot_init(void)
{
	if (g_features.mca) {
		u64 cap = rdmsr(MSR_MCG_CAP);

		g_mca_banks = (u32)(cap & MCG_CAP_COUNT_MASK);
		if (g_mca_banks > MCA_MAX_BANKS)
			g_mca_banks = MCA_MAX_BANKS;
	}
	idt_register(VEC_MC, mce_trap);
	/* Until the IPI layer claims it (ipi_init()), every NMI is one
	 * nobody announced: counted, not the fatal trap of an empty slot. */
	idt_register(VEC_NMI, ras_nmi_unknown_trap);
	ras_cpu_init();
	pr_info("mce: CR4.MCE %s, %u MCA banks enabled\n",
		g_features.mce ? "on" : "unavailable", g_mca_banks);
}

void ras_cpu_init(void)
{
	struct mce_rec r;

	if (g_features.mce && !(read_cr4() & CR4_MCE))
		write_cr4(read_cr4() | CR4_MCE);
	if (!g_mca_banks)
		return;
	if (rdmsr(MSR_MCG_CAP) & MCG_CAP_CTL_P)
		wrmsr(MSR_MCG_CTL, ~0ULL);
	/* Log and clear what the banks held from before the hand-over
	 * first, then let every error class signal. */
	mce_collect(&r, true);
	if (r.nvalid)
		mce_log(&r, LOG_WARN, "left from before minhv (not counted)");
	for (u32 i = 0; i < g_mca_banks; i++)
		wrmsr(MSR_MC_CTL(i), ~0ULL);
}

static void guest_mce(u32 vcpu, const char *how, char *why, size_t n)
{
	struct mce_rec r;
	char what[96];

	mce_collect(&r, true);
	__atomic_add_fetch(&g_mce_guest, 1, __ATOMIC_RELAXED);
	fmt_snprintf(what, sizeof(what), "machine check while vCPU %u ran (%s)",
		     vcpu, how);
	mce_log(&r, LOG_ERR, what);
	if (r.pcc)
		panic("mce: CPU %u: MCi_STATUS.PCC in a guest's machine check: cannot continue",
		      cpu_index());
	fmt_snprintf(why, n,
		     "machine check (%s): MCG_STATUS %#llx, banks cleared", how,
		     (unsigned long long)r.mcg_status);
}

void ras_mce_guest(u32 vcpu, char *why, size_t n)
{
	if (!g_mca_banks) {
		__atomic_add_fetch(&g_mce_guest, 1, __ATOMIC_RELAXED);
		fmt_snprintf(why, n, "machine check (#MC intercept, no MCA)");
		return;
	}
	guest_mce(vcpu, "#MC intercept", why, n);
}

bool ras_mce_shutdown(u32 vcpu, char *why, size_t n)
{
	if (!g_mca_banks || !(rdmsr(MSR_MCG_STATUS) & MCG_STATUS_MCIP))
		return false;
	guest_mce(vcpu, "SHUTDOWN with MCIP: the guest could not take it", why,
		  n);
	return true;
}
