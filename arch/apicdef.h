/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/apicdef.h - local APIC registers and their fields (Intel SDM vol 3
 * ch. 11, table 11-1 and 11.12 for x2APIC; AMD APM vol 2 ch. 16): only
 * constants, shared by the host driver (arch/apic*.c) and the guests'
 * virtual local APIC (the vLAPIC in hv/), as Linux's apicdef.h is. */
#ifndef MINHV_ARCH_APICDEF_H
#define MINHV_ARCH_APICDEF_H

#include "arch/msr.h"
#include "arch/types.h"

/* Where IA32_APIC_BASE puts the xAPIC page after RESET (SDM 11.4.4). */
#define APIC_DEFAULT_BASE 0xfee00000ULL

/* Registers by their offset in the xAPIC MMIO page, 16 bytes apart; in
 * x2APIC mode register r is MSR X2APIC_MSR(r) (SDM 11.12.1.2). */
#define APIC_REG_ID 0x020
#define APIC_REG_VERSION 0x030
#define APIC_REG_TPR 0x080
#define APIC_REG_APR 0x090 /* arbitration priority (xAPIC only) */
#define APIC_REG_PPR 0x0a0 /* processor priority */
#define APIC_REG_EOI 0x0b0
#define APIC_REG_RRD 0x0c0 /* remote read (xAPIC only) */
#define APIC_REG_LDR 0x0d0 /* logical destination */
#define APIC_REG_DFR 0x0e0 /* destination format (xAPIC only) */
#define APIC_REG_SVR 0x0f0 /* spurious interrupt vector */
#define APIC_REG_ISR 0x100 /* in service: 8 registers, 0x100-0x170 */
#define APIC_REG_TMR 0x180 /* trigger mode: 8 registers, 0x180-0x1f0 */
#define APIC_REG_IRR 0x200 /* requested: 8 registers, 0x200-0x270 */
#define APIC_REG_ESR 0x280 /* error status */
#define APIC_REG_ICR_LO 0x300 /* x2APIC: the whole 64-bit ICR */
#define APIC_REG_ICR_HI 0x310 /* xAPIC only */
#define APIC_REG_LVT_TIMER 0x320 /* the six LVT entries, in this order */
#define APIC_REG_LVT_THERMAL 0x330
#define APIC_REG_LVT_PERF 0x340
#define APIC_REG_LVT_LINT0 0x350
#define APIC_REG_LVT_LINT1 0x360
#define APIC_REG_LVT_ERROR 0x370
#define APIC_REG_TIMER_INIT 0x380 /* initial count (TMICT) */
#define APIC_REG_TIMER_CUR 0x390 /* current count (TMCCT) */
#define APIC_REG_TIMER_DIV 0x3e0 /* divide configuration (TDCR) */
#define APIC_REG_SELF_IPI 0x3f0 /* x2APIC only: MSR 0x83f */

#define X2APIC_MSR(reg) (MSR_X2APIC_BASE + ((reg) >> 4))

#define APIC_SVR_ENABLE BIT(8) /* APIC software enable */
#define APIC_ESR_SEND_ILLEGAL_VECTOR BIT(5)
/* LVT entries (SDM figure 11-8): mask, and the timer's mode in 18:17. */
#define APIC_LVT_MASKED BIT(16)
#define APIC_LVT_TIMER_MODE(lvt) (((lvt) >> 17) & 3)
#define APIC_TIMER_ONESHOT 0
#define APIC_TIMER_PERIODIC 1
#define APIC_TIMER_TSC_DEADLINE 2
#define APIC_TIMER_DIV_1 0xb /* divide configuration: by 1 (figure 11-10) */

/* Interrupt Command Register (SDM figure 11-12, 11.12.9; APM 16.5). */
/* Delivery mode, bits 10:8. */
enum apic_dm {
	APIC_DM_FIXED = 0,
	APIC_DM_LOWEST = 1, /* lowest priority */
	APIC_DM_SMI = 2,
	APIC_DM_NMI = 4,
	APIC_DM_INIT = 5,
	APIC_DM_SIPI = 6, /* start-up */
	APIC_DM_EXTINT = 7,
};

/* Destination shorthand, bits 19:18. */
enum apic_sh {
	APIC_SH_NONE = 0,
	APIC_SH_SELF = 1,
	APIC_SH_ALL = 2, /* all including self */
	APIC_SH_OTHERS = 3, /* all excluding self */
};

#define ICR_VECTOR_MASK 0xffULL
#define ICR_DM_SHIFT 8
#define ICR_DEST_LOGICAL BIT(11)
#define ICR_DELIVERY_PENDING BIT(12) /* xAPIC only; reserved in x2APIC */
#define ICR_LEVEL_ASSERT BIT(14)
#define ICR_TRIGGER_LEVEL BIT(15)
#define ICR_SH_SHIFT 18
#define X2APIC_DEST_SHIFT 32 /* 32-bit destination, bits 63:32 */
#define XAPIC_DEST_SHIFT 24 /* 8-bit destination, ICR high bits 31:24 */
#define X2APIC_BROADCAST 0xffffffffu
#define XAPIC_MAX_ID 0xffu

#endif
