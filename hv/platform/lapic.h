/* hv/platform/lapic.h - a guest's virtual local APIC register file, one per
 * vCPU: xAPIC MMIO page and x2APIC MSRs 0x800-0x8FF over one state, and
 * the IA32_APIC_BASE mode switches (SDM vol 3 ch. 11 (10 in older
 * editions), APM vol 2 ch. 16). No interrupt delivery yet: ISR/IRR/TMR read
 * zero, ICR writes are stored and nothing is ever pending. */
#ifndef MINHV_HV_PLATFORM_LAPIC_H
#define MINHV_HV_PLATFORM_LAPIC_H

#include "arch/types.h"
#include "hv/emul/mmio.h"

#define MSR_IA32_APIC_BASE 0x1bu
/* APIC_BASE_BSP, _EXTD (x2APIC mode), _EN: arch/msr.h */
#include "arch/msr.h"
#define VLAPIC_DEFAULT_BASE 0xfee00000ULL
#define VLAPIC_MSR_FIRST 0x800u
#define VLAPIC_MSR_LAST 0x8ffu
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
};

struct vlapic {
	struct vlapic_config cfg;
	u64 apic_base;
	u32 id; /* xAPIC ID register (bits 31:24) */
	u32 tpr, ldr, dfr, svr;
	u32 esr; /* what reads see: latched by the last ESR write */
	u32 esr_pending; /* errors since that write */
	u32 icr_lo, icr_hi;
	u32 lvt[VLAPIC_NR_LVT];
	u32 timer_init, timer_div;
};

/* Power-up state (SDM 11.4.7.1): enabled in xAPIC mode at 0xFEE00000. */
void vlapic_init(struct vlapic *l, const struct vlapic_config *cfg);
enum vlapic_mode vlapic_mode(const struct vlapic *l);
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
 * xAPIC mode only aligned 4-byte accesses at 16-byte offsets are valid
 * (-EINVAL otherwise); reserved registers read 0 and ignore writes. When
 * the APIC is disabled or in x2APIC mode the page is not decoded: reads
 * return all ones, writes are dropped. */
extern const struct mmio_ops vlapic_mmio_ops;

/* lapic.c: the register file by xAPIC offset, shared by both front ends.
 * 0, or -EINVAL for a register that does not exist in the current mode or
 * an access the mode does not allow (x2APIC rules in x2APIC mode). */
int vlapic_reg_read(struct vlapic *l, u32 off, u64 *val);
int vlapic_reg_write(struct vlapic *l, u32 off, u64 val);

#endif
