/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/vlapic/vlapic.h - a guest's virtual local APIC, one per vCPU: the
 * register file (xAPIC MMIO page and x2APIC MSRs 0x800-0x8FF over one
 * state, IA32_APIC_BASE mode switches), IRR/ISR/TMR with priority
 * arbitration, the timer (one-shot, periodic, TSC-deadline) and IPIs
 * routed over a bus of the guest's vLAPICs (SDM vol 3 ch. 11 (10 in older
 * editions), APM vol 2 ch. 16). Pure: time comes in as the host TSC and the
 * guest's TSC offset, and the bus says how to reach another vCPU. */
#ifndef MINHV_HV_VLAPIC_VLAPIC_H
#define MINHV_HV_VLAPIC_VLAPIC_H

#include "arch/apicdef.h"
#include "arch/types.h"
#include "hv/emul/mmio.h"

/* MSR_APIC_BASE and its bits, MSR_X2APIC_BASE/END, MSR_TSC_DEADLINE. */
#include "arch/msr.h"
/* Integrated APIC version 0x14 with 6 LVT entries (max LVT index 5 in
 * bits 23:16), as QEMU and KVM present it; APM 16.3.4. */
#define VLAPIC_VERSION 0x00050014u
#define VLAPIC_NR_LVT 6 /* timer, thermal, perf, LINT0, LINT1, error */

enum vlapic_mode {
	VLAPIC_DISABLED, /* EN=0, EXTD=0 */
	VLAPIC_XAPIC, /* EN=1, EXTD=0 */
	VLAPIC_X2APIC, /* EN=1, EXTD=1 */
};

struct vlapic_config {
	u32 vcpu_id; /* the x2APIC ID (x2APIC spec: ID = vCPU id) */
	bool bsp;
	bool x2apic; /* CPUID.1:ECX[21] as the guest sees it */
	bool tsc_deadline; /* CPUID.1:ECX[24]: LVT timer mode 2 exists */
	u8 maxphyaddr; /* guest physical address width, bits */
	u64 tsc_khz; /* guest TSC rate: the timer's bus ticks in TSC */
};

struct vlapic;

/* The guest's vLAPICs as one APIC bus: at(ctx, i) is vCPU i's, for i <
 * n; notify(t) makes t's vCPU look at its pending events soon (it may
 * be running on another CPU, or halted); eoi(ctx, vector), when set, is
 * the EOI message a level-triggered interrupt's EOI broadcasts to the
 * I/O APICs (SDM vol 3 11.8.5). Unit tests plug in an array. */
struct vlapic_bus {
	struct vlapic *(*at)(void *ctx, u32 i);
	void (*notify)(struct vlapic *t);
	void *ctx;
	u32 n;
	void (*eoi)(void *ctx, u8 vector);
	/* A guest gave a vLAPIC another xAPIC ID than its own index (the
	 * register is writable, APM 16.3.3): a physical destination may
	 * then match any of them, not just at(dest). Sticky. */
	bool ids_moved;
};

/* Registers, delivery modes (APIC_DM_*) and LVT timer modes
 * (APIC_TIMER_*): arch/apicdef.h. The APIC bus clock the timer counts (what QEMU emulates: 1 GHz). */
#define VLAPIC_BUS_KHZ 1000000u
/* A periodic timer never fires more often than this (KVM's rule, as a
 * hostile guest's 1-tick period would otherwise be an interrupt storm). */
#define VLAPIC_MIN_PERIOD_US 50u
#define VLAPIC_SIPI_PENDING BIT(8) /* sipi: vector | this */
/* struct vlapic's pending summary. */
#define VLAPIC_PEND_IRR BIT(0) /* a vector was set in IRR */
#define VLAPIC_PEND_NMI BIT(1) /* nmi_pending was set */
#define VLAPIC_PEND_START BIT(2) /* init_pending or sipi was set */
/* The owner changed what its next VMRUN must reflect (a register access,
 * the time, the host timer, an NMI's IRET or window): set and cleared by
 * the owner only (hv/svm/), so that an entry with none of these bits set
 * has nothing to do for the vLAPIC. */
#define VLAPIC_PEND_LOCAL BIT(3)

struct vlapic {
	struct vlapic_config cfg;
	struct vlapic_bus *bus; /* NULL: no other vCPU (IPIs go nowhere) */
	u64 apic_base;
	u32 id; /* xAPIC ID register (bits 31:24) */
	u32 tpr, ldr, dfr, svr;
	u32 esr; /* what reads see: latched by the last ESR write */
	u32 esr_pending; /* errors since that write */
	u32 icr_lo, icr_hi;
	u32 lvt[VLAPIC_NR_LVT];
	u32 timer_init, timer_div;
	/* Interrupt state (SDM 11.8.4). irr is set by any CPU (atomic
	 * OR), consumed by the owner; isr and tmr belong to the owner. */
	union { /* vlapic_irq.c scans it as four 64-bit words */
		u32 irr[8];
		u64 irr64[4];
	};
	u32 isr[8], tmr[8];
	u8 isr_words; /* owner: bit i set when isr[i] has a bit set */
	/* Events from other vCPUs, taken by the owner with an exchange. */
	u32 nmi_pending, init_pending;
	u32 sipi; /* VLAPIC_SIPI_PENDING | vector */
	/* What may be pending (VLAPIC_PEND_*), so that the owner's entry
	 * path tests one word instead of scanning IRR and three flags. A
	 * poster sets the bit after the event itself; the owner clears it
	 * before it looks at the event, so a clear bit means nothing of
	 * that kind was posted (a set one may be stale). */
	u32 pending;
	bool wait_sipi; /* after INIT: only a SIPI (or INIT) starts it */
	/* Timer: next expiry (0: not armed), its start and period
	 * (periodic), on the bus clock's time base (the host TSC) in
	 * one-shot and periodic mode, in guest TSC in TSC-deadline mode.
	 * tsc_deadline is IA32_TSC_DEADLINE. */
	u64 timer_next, timer_start, timer_period, tsc_deadline;
	u64 now; /* host TSC of the access being emulated */
	u64 tsc_offset; /* guest TSC = host TSC + this (the VMCB's) */
	u64 fired; /* timer interrupts raised (statistics) */
	/* EOIs with nothing in service (statistics): a guest's mistake, a
	 * hostile guest's game, or an interrupt delivered twice. */
	u32 spare_eois;
	/* The owner vCPU's injection state (hv/svm/vlapic_vcpu.c). */
	struct {
		bool nmi_masked; /* an NMI is in service until IRET */
		bool iret_wait; /* IRET seen at iret_rip, not yet retired */
		bool nmi_step; /* TF set by us: the NMI window's single step */
		bool nmi_step_rf; /* the guest's RF when the step began */
		u8 vtpr; /* V_TPR as last written to the VMCB */
		u64 iret_rip;
		u64 host_at; /* host TSC the host timer is armed for; 0 none */
	} c;
};

/* Power-up state (SDM 11.4.7.1): enabled in xAPIC mode at 0xFEE00000. */
void vlapic_init(struct vlapic *l, const struct vlapic_config *cfg);
/* Inline: asked several times per IPI and per exit of the vLAPIC. */
static inline enum vlapic_mode vlapic_mode(const struct vlapic *l)
{
	if (!(l->apic_base & APIC_BASE_EN))
		return VLAPIC_DISABLED;
	return (l->apic_base & APIC_BASE_EXTD) ? VLAPIC_X2APIC : VLAPIC_XAPIC;
}
/* Guest-physical base of the xAPIC MMIO page (meaningful in xAPIC mode). */
gpa_t vlapic_mmio_base(const struct vlapic *l);

/* IA32_APIC_BASE. Writes: 0, or -EINVAL where the CPU raises #GP (reserved
 * bits, EXTD without x2APIC, EXTD without EN, xAPIC <-> x2APIC other than
 * xAPIC -> x2APIC, disabled -> x2APIC). The BSP bit ignores writes. */
u64 vlapic_apic_base_read(const struct vlapic *l);
int vlapic_apic_base_write(struct vlapic *l, u64 val);

/* x2APIC MSRs 0x800-0x8FF: 0, or -EINVAL where the CPU raises #GP (not in
 * x2APIC mode, reserved MSR, read of a write-only or write of a read-only
 * register, reserved bits 63:32, nonzero EOI/ESR write, ICR reserved
 * bits). */
int vlapic_msr_read(struct vlapic *l, u32 msr, u64 *val);
int vlapic_msr_write(struct vlapic *l, u32 msr, u64 val);

/* Record an error for ESR (APM 16.4.6); seen after the next ESR write. */
void vlapic_set_error(struct vlapic *l, u32 bits);

/* xAPIC MMIO: dev is the struct vlapic, off within the 4 KiB page. In
 * xAPIC mode a read of 1, 2, 4 or 8 bytes inside a register's 16-byte slot
 * gets the slot's bytes (the register, then zeros), one across two slots
 * is -EINVAL; only aligned 4-byte writes at 16-byte offsets reach a
 * register, other writes are dropped; reserved registers read 0 and ignore
 * writes. When the APIC is disabled or in x2APIC mode the page is not
 * decoded: reads return all ones, writes are dropped. */
extern const struct mmio_ops vlapic_mmio_ops;

/* vlapic_irq.c: interrupt state, pure and owner-side unless noted. */
/* Any CPU: request vector (edge) in l's IRR; level sets TMR as well. */
void vlapic_set_irr(struct vlapic *l, u8 vector, bool level);
/* Processor priority (SDM 11.8.3.1): TPR or the highest in-service class. */
u32 vlapic_ppr(const struct vlapic *l);
/* The highest requested vector above PPR (it would be delivered now if the
 * CPU accepts interrupts), or -ENOENT. Nothing while software-disabled. */
int vlapic_pending_vector(const struct vlapic *l);
/* Is the highest requested vector held back by TPR alone (its class above
 * the in-service one, not above TPR's)? Lowering TPR would deliver it. */
bool vlapic_tpr_holds(const struct vlapic *l);
/* Any requested vector at all (an interrupt wakes HLT only when above PPR:
 * use vlapic_pending_vector for that). */
bool vlapic_irr_any(const struct vlapic *l);
/* Owner: vlapic_irr_any() behind the pending summary: false at once when
 * no vector was posted since IRR was last seen empty, and the summary bit
 * cleared when IRR is found empty. */
bool vlapic_irr_maybe(struct vlapic *l);
/* The CPU takes vector: IRR -> ISR (SDM 11.8.4 INTA cycle). */
void vlapic_ack(struct vlapic *l, u8 vector);
/* The CPU takes edge vector straight into service, bypassing IRR (a
 * timer that fires where it is delivered: vlapic_tsc_deadline_fire_now()).
 * Its TMR bit clears as vlapic_set_irr() would; IRR is left alone (a
 * poster's bit for the same vector stays pending). */
void vlapic_ack_edge(struct vlapic *l, u8 vector);
/* The CPU did not take vector after all (a V_IRQ offer the guest did
 * not take, or whose delivery an exit interrupted): ISR -> IRR, the
 * summary bit set as vlapic_set_irr() would. The vector was acknowledged
 * for that entry (vlapic_next_event(), vlapic_tsc_deadline_fire_now()),
 * so its ISR bit is its own; a second request for it posted meanwhile
 * merges with it. */
void vlapic_unack(struct vlapic *l, u8 vector);
/* EOI: clear the highest in-service bit; when its TMR bit says it was
 * level-triggered, broadcast the EOI on the bus (bus->eoi). TMR itself
 * keeps its value until the vector is accepted again (SDM 11.8.4). */
void vlapic_eoi(struct vlapic *l);
/* x2APIC EOI (MSR 0x80B): 0, or -EINVAL (#GP) outside x2APIC mode or
 * for a nonzero value (SDM 11.12.1.2). Only ISR changes: with nothing
 * posted (the IRR summary clear) the next entry has nothing to do. */
int vlapic_x2apic_eoi(struct vlapic *l, u64 val);
/* INIT (SDM 11.4.7.3): registers as at power-up except the ID, APIC base
 * and pending state cleared; the vCPU waits for a SIPI. */
void vlapic_init_reset(struct vlapic *l);
/* Owner, before running: take INIT (-> wait-for-SIPI) and SIPI in order.
 * The vector to start at when a SIPI found the vCPU waiting for it, else
 * -ENOENT (a SIPI outside wait-for-SIPI is dropped, SDM 9.4.4). */
int vlapic_take_startup(struct vlapic *l);
/* What to inject before VMRUN (APM 15.20-15.21): an NMI unless one is in
 * service; the highest deliverable interrupt (above PPR), whatever IF,
 * an interrupt shadow or an event already being injected say: the glue
 * offers it through V_IRQ and the CPU waits for those itself (APM
 * 15.21.4). Consumes what it returns (NMI taken and masked until IRET,
 * interrupt acknowledged into ISR, given back with vlapic_unack() when
 * the CPU did not take it); *vec is the vector.
 * VLAPIC_INJ_NMI_WINDOW: an NMI waits for an interrupt shadow, an event
 * being injected, or the IRET of the NMI in service to retire (seen,
 * c.iret_wait, not yet retired); the glue opens its window without V_IRQ
 * (KVM's svm_enable_nmi_window()). An NMI masked before its handler's
 * IRET was seen needs none: the IRET intercept reports it.
 * VLAPIC_INJ_TPR: the highest requested vector is held back by TPR alone
 * (above the in-service class, not above TPR's): the guest lowering TPR
 * through CR8 must exit (KVM's svm_update_cr8_intercept()). */
#define VLAPIC_INJ_NMI 1u
#define VLAPIC_INJ_INTR 2u
#define VLAPIC_INJ_NMI_WINDOW 8u
#define VLAPIC_INJ_TPR 16u
unsigned vlapic_next_event(struct vlapic *l, bool shadow, bool busy, u8 *vec);
/* Does a halted CPU wake (SDM vol 2 HLT): a deliverable interrupt
 * with IF=1, or an NMI or INIT whatever IF says. */
bool vlapic_wakeup(const struct vlapic *l, bool if_on);
/* Owner: may an INIT or SIPI be waiting (a cheap test before taking
 * them with vlapic_take_startup())? */
static inline bool vlapic_startup_maybe(const struct vlapic *l)
{
	return __atomic_load_n(&l->pending, __ATOMIC_ACQUIRE) &
	       VLAPIC_PEND_START;
}
/* Owner: may vlapic_next_event() find anything (an NMI or a vector was
 * posted)? When not, it would return 0 and change nothing. */
static inline bool vlapic_event_maybe(const struct vlapic *l)
{
	return __atomic_load_n(&l->pending, __ATOMIC_ACQUIRE) &
	       (VLAPIC_PEND_IRR | VLAPIC_PEND_NMI);
}

/* vlapic_timer.c: the timer. now is the host TSC, the time base of the
 * APIC bus clock (one-shot and periodic mode: a guest TSC write does not
 * move them); TSC-deadline mode compares now + tsc_offset, the guest TSC.
 * Bus ticks (before the divider) to TSC cycles (host and guest TSC tick
 * at one rate). */
u64 vlapic_ticks_to_tsc(const struct vlapic *l, u64 ticks);
void vlapic_timer_write_init(struct vlapic *l, u32 count, u64 now);
u32 vlapic_timer_current(const struct vlapic *l, u64 now);
/* The LVT timer entry changed from old (mode switches disarm). */
void vlapic_timer_lvt_changed(struct vlapic *l, u32 old);
/* IA32_TSC_DEADLINE (MSR 0x6E0): reads the armed deadline (0 once it
 * fired); writes arm it only in TSC-deadline mode (SDM 11.5.4.1). */
u64 vlapic_tsc_deadline_read(const struct vlapic *l);
void vlapic_tsc_deadline_write(struct vlapic *l, u64 val);
/* Owner, at the IA32_TSC_DEADLINE write itself: a deadline val that the
 * guest TSC (guest_now) has reached already fires at once, its vector
 * straight into service (vlapic_ack_edge()), when nothing could come
 * before it: TSC-deadline mode, the LVT unmasked, no deadline armed, no
 * event posted or entry work asked for (the pending summary 0), the APIC
 * enabled and the vector (16..255) above PPR. Returns the vector for the
 * caller to inject, or -1: nothing changed, the write goes the usual way
 * (vlapic_tsc_deadline_write(), the poll at entry). */
int vlapic_tsc_deadline_fire_now(struct vlapic *l, u64 val, u64 guest_now);
/* Raise the timer interrupt when now is past the expiry (periodic: re-arm
 * from the missed expiries, which coalesce into one). true when it fired. */
bool vlapic_timer_poll(struct vlapic *l, u64 now);
/* The host TSC of the next expiry (with tsc_offset as last set), 0 when
 * the timer is not armed. */
u64 vlapic_timer_expiry(const struct vlapic *l);

/* vlapic_ipi.c: IPIs (SDM 11.6). */
/* Does l accept a message for dest (ICR format of the sender: 8-bit xAPIC
 * or 32-bit x2APIC destination) in physical or logical mode? */
bool vlapic_match_dest(const struct vlapic *l, u32 dest, bool logical,
		       bool x2src);
/* Send what the ICR says (written by src): every matching target on the
 * bus gets it. Fixed/NMI/INIT/SIPI; lowest priority goes to one target,
 * as fixed. */
void vlapic_send_ipi(struct vlapic *src, u32 lo, u32 dest);
/* Deliver one message to t (any CPU). false when t did not accept it: a
 * fixed or lowest-priority interrupt to a software-disabled APIC, an
 * illegal vector (0-15), or a mode with nothing to deliver (SMI, ExtINT). */
bool vlapic_deliver(struct vlapic *t, u32 mode, u8 vector, bool level);

/* Does a write of the register at xAPIC offset off need the time first
 * (l->now current, an expired timer raised before it changes)? The
 * initial count always (the count starts now), the timer's LVT and
 * divide configuration while the timer runs; nothing else depends on
 * the time. */
bool vlapic_write_needs_time(const struct vlapic *l, u32 off);

/* vlapic.c: the register file by xAPIC offset, shared by both front ends.
 * 0, or -EINVAL for a register that does not exist in the current mode or
 * an access the mode does not allow (x2APIC rules in x2APIC mode). */
int vlapic_reg_read(struct vlapic *l, u32 off, u64 *val);
int vlapic_reg_write(struct vlapic *l, u32 off, u64 val);

/* Owner: has the entry path (vlapic_inject_pending(), hv/svm/vlapic_vcpu.h)
 * anything to do: an NMI or a vector posted, or owner-side state changed
 * (VLAPIC_PEND_LOCAL)? One load per VMRUN when not. */
static inline bool vlapic_entry_maybe(const struct vlapic *l)
{
	return __atomic_load_n(&l->pending, __ATOMIC_ACQUIRE) &
	       (VLAPIC_PEND_IRR | VLAPIC_PEND_NMI | VLAPIC_PEND_LOCAL);
}
/* Make the owner's next entry look at everything (VLAPIC_PEND_LOCAL): an
 * atomic OR, so any CPU may ask (platform_poll_soon() does, for vCPU 0). */
static inline void vlapic_entry_work(struct vlapic *l)
{
	__atomic_fetch_or(&l->pending, VLAPIC_PEND_LOCAL, __ATOMIC_RELAXED);
}

/* Has the run loop's vlapic_before_run() (hv/svm/vlapic_vcpu.h) anything
 * to do (waiting for SIPI, or an INIT or SIPI posted)? When not it returns
 * true at once. */
static inline bool vlapic_before_run_maybe(const struct vlapic *l)
{
	return l->wait_sipi || vlapic_startup_maybe(l);
}

#endif
