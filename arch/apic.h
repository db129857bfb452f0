/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/apic.h - the local APIC: one interface, two back ends (x2APIC MSRs,
 * xAPIC MMIO), chosen once on the boot CPU. Registers are named by their
 * xAPIC MMIO offset (arch/apicdef.h); x2APIC uses MSR 0x800 + offset / 16
 * (SDM 11.12.1.2). */
#ifndef MINHV_ARCH_APIC_H
#define MINHV_ARCH_APIC_H

#include "arch/apic_icr.h"
#include "arch/apicdef.h"
#include "arch/types.h"

enum apic_mode { APIC_MODE_XAPIC, APIC_MODE_X2APIC };

struct apic_ops {
	const char *name;
	enum apic_mode mode;
	bool fenced; /* MFENCE;LFENCE before IPI-sending WRMSRs */
	void (*enable)(void); /* this CPU: switch the APIC into this mode */
	u32 (*read)(u32 reg);
	void (*write)(u32 reg, u32 v);
	u32 (*id)(void);
	int (*send)(const struct apic_icr *r);
	void (*self_ipi)(u8 vector);
	void (*eoi)(void);
};

extern const struct apic_ops *g_apic;
extern hpa_t g_xapic_base; /* xAPIC MMIO window (IA32_APIC_BASE) */
extern const struct apic_ops apic_x2apic_ops, apic_x2apic_fenced_ops,
	apic_xapic_ops;

/* Boot CPU, once: x2APIC when the CPU has it, else xAPIC at mmio_base. */
void apic_select(bool x2apic, hpa_t mmio_base);
/* x2APIC: pick the fenced or plain send path (no effect in xAPIC mode,
 * whose uncached MMIO writes are already ordered). */
void apic_set_fence(bool fence);
/* This CPU: enable the APIC in the chosen mode, software-enable it with
 * the spurious vector, TPR 0, mask LINT0/timer/error (and LINT1 on APs). */
void apic_cpu_init(u8 spurious_vector, bool boot_cpu);

static inline u32 apic_id(void)
{
	return g_apic->id();
}
static inline int apic_send(const struct apic_icr *r)
{
	return g_apic->send(r);
}
static inline void apic_eoi(void)
{
	g_apic->eoi();
}
static inline void apic_self_ipi(u8 vector)
{
	g_apic->self_ipi(vector);
}
static inline const char *apic_mode_name(void)
{
	return g_apic->mode == APIC_MODE_X2APIC ? "x2APIC" : "xAPIC";
}

/* LAPIC timer, one-shot (QEMU TCG has no TSC-deadline mode): fires vector
 * once after count ticks of the bus clock / divide (APIC_TIMER_DIV_*). */
void apic_timer_oneshot(u8 vector, u32 count, u32 divide);
void apic_timer_stop(void);
u32 apic_timer_remaining(void);
/* Whether vector is pending in the IRR (not yet delivered: IF=0). */
bool apic_irr_pending(u8 vector);
/* Whether vector is in service (ISR): delivered, not yet EOI'd. */
bool apic_isr_set(u8 vector);

#endif
