// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/ipi.c - raw IPIs by CPU index and the cross-CPU call of hv/smp/ipi.h: a
 * locked ring of call slots per target CPU, kicked by VEC_IPI_CALL; the
 * handler runs each fn, then acknowledges through the caller's counter. */
#include "hv/smp/ipi.h"
#include "arch/cr.h"
#include "arch/errno.h"
#include "arch/apic.h"
#include "arch/cpu.h"
#include "arch/idt.h"
#include "hv/smp/ipi_internal.h"
#include "hv/log.h"
#include "hv/mm.h"
#include "hv/percpu.h"
#include "hv/ras/ras.h"

static bool broadcast_ok;
static volatile u32 stopping;

static struct smp_cpu *sc(u32 cpu)
{
	return g_percpu[cpu]->smp;
}

bool ipi_cpu_alloc(struct percpu *pc)
{
	_Static_assert(sizeof(struct smp_cpu) <= PAGE_SIZE, "one page");
	pc->smp = page_alloc_ptr(1);
	return pc->smp != NULL;
}

void ipi_set_broadcast_ok(bool ok)
{
	broadcast_ok = ok;
}

u32 ipi_this_cpu(void)
{
	return this_cpu()->cpu;
}

u32 ipi_online_count(void)
{
	u32 n = 0;

	for (u32 i = 0; i < g_ncpus; i++)
		n += __atomic_load_n(&g_percpu[i]->online, __ATOMIC_ACQUIRE) !=
		     0;
	return n;
}

static bool online(u32 cpu)
{
	return cpu < g_ncpus &&
	       __atomic_load_n(&g_percpu[cpu]->online, __ATOMIC_ACQUIRE);
}

int ipi_send(u32 cpu, u8 vector)
{
	struct apic_icr r = apic_icr_fixed(g_percpu[cpu]->apic_id, vector);

	return apic_send(&r);
}

int ipi_broadcast(u8 vector)
{
	struct apic_icr r =
		apic_icr_shorthand(APIC_SH_OTHERS, APIC_DM_FIXED, vector);
	int err = 0;

	if (broadcast_ok)
		return apic_send(&r);
	for (u32 i = 0; i < g_ncpus; i++)
		if (i != ipi_this_cpu() && online(i) && ipi_send(i, vector))
			err = -EIO;
	return err;
}

int ipi_nmi(u32 cpu)
{
	struct apic_icr r = apic_icr_nmi(g_percpu[cpu]->apic_id);

	__atomic_add_fetch(&sc(cpu)->nmi_sent, 1, __ATOMIC_RELEASE);
	return apic_send(&r);
}

void ipi_self(u8 vector)
{
	apic_self_ipi(vector);
}

/* The call vector: its handler EOIs and finds the queue empty. */
void ipi_self_kick(void)
{
	ipi_self(VEC_IPI_CALL);
}

/* The VEC_IPI_CALL handler polls this CPU's queue too: hold its lock only
 * with interrupts off, or the handler would spin on it forever. */
static bool irq_save(void)
{
	bool on = read_rflags() & RFLAGS_IF;

	if (on)
		irq_disable();
	return on;
}

static void irq_restore(bool on)
{
	if (on)
		irq_enable();
}

u32 ipi_call_poll(void)
{
	struct smp_cpu *me = this_cpu()->smp;
	u32 n = 0;

	for (;;) {
		struct call_slot s;
		bool irq = irq_save();

		spin_lock(&me->lock);
		if (me->head == me->tail) {
			spin_unlock(&me->lock);
			irq_restore(irq);
			return n;
		}
		s = me->q[me->head % CALLQ_SLOTS];
		me->head++;
		spin_unlock(&me->lock);
		irq_restore(irq);
		s.fn(s.arg);
		me->calls_run++;
		n++;
		if (s.pending)
			__atomic_sub_fetch(s.pending, 1, __ATOMIC_RELEASE);
	}
}

void ipi_call_wait(u32 *pending)
{
	while (__atomic_load_n(pending, __ATOMIC_ACQUIRE)) {
		if (!ipi_call_poll())
			cpu_relax();
	}
}

void ipi_call_enqueue(u32 cpu, ipi_fn fn, void *arg, u32 *pending)
{
	struct smp_cpu *t = sc(cpu);

	for (;;) {
		spin_lock(&t->lock);
		if (t->tail - t->head < CALLQ_SLOTS)
			break;
		spin_unlock(&t->lock);
		/* full: serve our own queue so two CPUs filling each other's
		 * rings with interrupts off cannot deadlock */
		if (!ipi_call_poll())
			cpu_relax();
	}
	t->q[t->tail % CALLQ_SLOTS] = (struct call_slot){ fn, arg, pending };
	t->tail++;
	spin_unlock(&t->lock); /* release: the slot is visible before the IPI */
}

int ipi_call_on(u32 cpu, ipi_fn fn, void *arg, bool wait)
{
	u32 pending = 1;

	if (!online(cpu))
		return -ENODEV;
	if (cpu == ipi_this_cpu()) {
		fn(arg);
		return 0;
	}
	ipi_call_enqueue(cpu, fn, arg, wait ? &pending : NULL);
	ipi_send(cpu, VEC_IPI_CALL);
	if (wait)
		ipi_call_wait(&pending);
	return 0;
}

int ipi_call_all(ipi_fn fn, void *arg, bool wait, bool include_self)
{
	u32 self = ipi_this_cpu();
	u32 pending = 0;
	int n = 0;

	for (u32 i = 0; i < g_ncpus; i++) {
		if (i == self || !online(i))
			continue;
		if (wait)
			__atomic_add_fetch(&pending, 1, __ATOMIC_RELAXED);
		ipi_call_enqueue(i, fn, arg, wait ? &pending : NULL);
		n++;
	}
	if (n)
		ipi_broadcast(VEC_IPI_CALL); /* shorthand, or one per CPU */
	if (include_self) {
		fn(arg);
		n++;
	}
	if (wait)
		ipi_call_wait(&pending);
	return n;
}

static void call_handler(struct trap_frame *f)
{
	(void)f;
	apic_eoi();
	ipi_call_poll();
}

static void test_handler(struct trap_frame *f)
{
	(void)f;
	((struct smp_cpu *)this_cpu()->smp)->test_ipis++;
	apic_eoi();
}

static void spurious_handler(struct trap_frame *f)
{
	(void)f; /* no EOI for the spurious vector (SDM 11.9) */
}

/* An NMI is ours when ipi_nmi() announced it, or when the run is ending;
 * any other (a BMC, SERR#/IOCHK, a watchdog) is counted and logged by
 * hv/ras, in host mode or right after the #VMEXIT of the guest it hit. */
static void nmi_handler(struct trap_frame *f)
{
	struct percpu *pc = this_cpu();
	struct smp_cpu *me = pc ? pc->smp : NULL;

	if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE))
		cpu_dead();
	if (me && __atomic_load_n(&me->nmi_seen, __ATOMIC_RELAXED) <
			  __atomic_load_n(&me->nmi_sent, __ATOMIC_ACQUIRE)) {
		__atomic_add_fetch(&me->nmi_seen, 1, __ATOMIC_RELEASE);
		return;
	}
	ras_nmi_unknown(f);
}

void ipi_stop_others(void)
{
	struct apic_icr r = apic_icr_shorthand(APIC_SH_OTHERS, APIC_DM_NMI, 0);
	u32 self = ipi_this_cpu();

	__atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
	if (broadcast_ok) {
		apic_send(&r);
		return;
	}
	/* A CPU left out (or never started) must not take an NMI through a
	 * firmware IDT: NMI only the CPUs we own. */
	for (u32 i = 0; i < g_ncpus; i++)
		if (i != self && online(i))
			ipi_nmi(i);
}

void ipi_init(void)
{
	idt_register(VEC_IPI_CALL, call_handler);
	idt_register(VEC_IPI_TEST, test_handler);
	idt_register(VEC_SPURIOUS, spurious_handler);
	idt_register(VEC_NMI, nmi_handler);
}
