// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/ap.c - an AP's first C code: the BSP's control registers, its own
 * GDT/TSS and the shared IDT, its local APIC, then check in and wait for
 * cross-CPU calls with interrupts on. */
#include "hv/smp/smp.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/gdt.h"
#include "arch/idt.h"
#include "arch/trampoline.h"
#include "hv/smp/ipi_internal.h"
#include "hv/percpu.h"
#include "hv/ras/ras.h"

/* Set by smp_init() before the first SIPI. */
u64 g_ap_cr0, g_ap_cr4;
void (*g_ap_cpu_init)(void);
/* Set by smp_aps_idle(): what an AP runs once it leaves bring-up. */
static void (*ap_idle)(void);

void smp_aps_idle(void (*idle)(void))
{
	__atomic_store_n(&ap_idle, idle, __ATOMIC_RELEASE);
}

_Noreturn void smp_ap_entry(struct percpu *pc)
{
	u32 stage = AP_STAGE_TRAMPOLINE;
	void (*idle)(void);

	write_cr0(g_ap_cr0);
	write_cr4(g_ap_cr4);
	percpu_install(pc);
	percpu_gdt_init(pc);
	idt_load();
	ras_cpu_init(); /* CR4.MCE came with g_ap_cr4; the banks now */
	apic_cpu_init(VEC_SPURIOUS, false);
	/* Check in, unless the boot CPU gave up on us meanwhile. */
	if (!__atomic_compare_exchange_n(&pc->boot_stage, &stage,
					 AP_STAGE_ONLINE, false,
					 __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		cpu_dead();
	if (g_ap_cpu_init)
		g_ap_cpu_init(); /* SPEC_CTRL (hv/park/spec_ctrl.c) */
	__atomic_store_n(&pc->online, 1, __ATOMIC_RELEASE);
	/* Until the boot CPU arms parking and hands the APs their idle loop,
	 * wait for cross-calls in plain HLT; from then on this CPU has
	 * nothing to run and is parked (hv/park: park_cpu_loop()). */
	while (!(idle = __atomic_load_n(&ap_idle, __ATOMIC_ACQUIRE))) {
		irq_disable(); /* no IPI between the last poll and HLT */
		ipi_call_poll();
		cpu_safe_halt(); /* STI;HLT: woken by VEC_IPI_CALL and friends */
	}
	idle();
	cpu_dead(); /* an idle loop never returns */
}
