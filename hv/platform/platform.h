/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/platform/platform.h - the small PC a foreign (multiboot or Linux) guest sees:
 * per-guest device state and the port table that hv/svm/exit_io.c asks
 * first. One device per file in hv/platform/; the vLAPIC is its own room
 * (hv/vlapic). The devices reach their vCPU only through
 * hv/emul/vcpu_api.h: nothing here includes hv/guest, hv/vcpu or hv/svm. */
#ifndef MINHV_HV_PLATFORM_PLATFORM_H
#define MINHV_HV_PLATFORM_PLATFORM_H

#include <stddef.h>

#include "arch/timers.h"
#include "arch/types.h"
#include "hv/vlapic/vlapic.h"

struct vcpu;

#define PM_TIMER_PORT 0x608 /* where QEMU's q35 has it */
/* PM1a_EVT_BLK (PM1_STS, PM1_EN; 4 bytes) and PM1a_CNT_BLK (2 bytes) just
 * below it, where QEMU's PIIX4 and ICH9 PM put them. */
#define PM1_EVT_PORT 0x600
#define PM1_CNT_PORT 0x604
#define PM1_BLK_LEN 6 /* evt (4) + cnt (2), one device (acpi_pm.c) */
#define RTC_PORT 0x70 /* index (bit 7: NMI mask); data at 0x71 */
#define PIC_MASTER_PORT 0x20
#define PIC_SLAVE_PORT 0xa0

struct uart16550 {
	u8 ier, lcr, mcr, scr, dll, dlm;
};

struct pic8259 {
	u8 imr; /* interrupt mask (OCW1) */
	u8 icw; /* next ICW expected (2-4), 0: initialised */
	u8 icw1;
};

struct fw_cfg_dev {
	u16 key;
	u32 offset; /* next data byte of the selected item */
};

/* ACPI 6.5 4.8.3.1 PM1 event and 4.8.3.2 control registers (acpi_pm.c). */
#define PM1_STS_RTC BIT(10)
#define PM1_STS_WAK BIT(15)
#define PM1_EN_RTC BIT(10)
#define PM1_CNT_SCI_EN BIT(0)
#define PM1_CNT_SLP_EN BIT(13) /* write-only */
#define PM1_SLP_TYP(cnt) (((cnt) >> 10) & 7)
#define SLP_TYP_S5 0 /* the DSDT's \_S5 and \_S3, as QEMU's */
#define SLP_TYP_S3 1

struct acpi_pm {
	u16 sts, en, cnt; /* PM1_STS, PM1_EN, PM1_CNT */
	volatile u32 asleep; /* in S3: every vCPU waits, vCPU 0 resumes */
	u64 wake_tsc; /* host TSC of the RTC alarm ending S3; 0: none */
	u64 facs_gpa; /* where the FACS (the waking vector) is */
};

/* MC146818 RTC with its CMOS index (rtc.c). Time and flags are derived
 * from the host TSC since the platform's TSC origin (pm_tsc0). */
struct rtc_cmos {
	u8 index;
	u8 a, b; /* register A's divider/rate bits, register B */
	u8 alarm[3]; /* seconds, minutes, hours alarm (registers 1, 3, 5) */
	u64 c_sec; /* RTC second when register C was last read */
	u64 a_sec; /* RTC second of the last register A read */
	u64 uip_sec; /* the last update whose UIP the guest was shown */
};

#define RTC_REG_A_RESET 0x26 /* 32.768 kHz, 1024 Hz (as SeaBIOS sets) */
#define RTC_REG_B_RESET 0x02 /* 24-hour, BCD */

struct platform {
	u32 nr_cpus; /* what fw_cfg and the MADT say */
	u64 ram_size;
	struct uart16550 uart;
	struct fw_cfg_dev fw_cfg;
	struct pic8259 pic[2]; /* master, slave (pic.c) */
	u64 pm_tsc0; /* TSC when the PM timer read 0 */
	u64 tsc_khz;
	/* the vCPUs' vLAPICs, wired up by hv/svm/vlapic_vcpu.c */
	struct vlapic_bus lapic_bus;
	struct acpi_pm pm;
	struct rtc_cmos rtc;
};

/* The reset state of the PM1 block and the RTC (guest.c). */
#define ACPI_PM_INIT(tables_gpa)                        \
	{ .cnt = PM1_CNT_SCI_EN, /* no SMI_CMD: ACPI mode */ \
	  .facs_gpa = (tables_gpa) + ACPI_FACS_OFF }
#define RTC_INIT { .a = RTC_REG_A_RESET, .b = RTC_REG_B_RESET }

/* The port table (ports.c): 0 when a device owns the port (and handled
 * the access), else E_NOT_MINE. */
int platform_port_in(struct vcpu *v, u16 port, unsigned size, u32 *val);
int platform_port_out(struct vcpu *v, u16 port, unsigned size, u32 val);

/* Devices, one file each; port is the offset inside the device. */
u32 uart_in(struct vcpu *v, u16 port, unsigned size);
void uart_out(struct vcpu *v, u16 port, unsigned size, u32 val);
void debug_exit_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 fw_cfg_in(struct vcpu *v, u16 port, unsigned size);
void fw_cfg_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 pm_timer_in(struct vcpu *v, u16 port, unsigned size);
u32 pic_master_in(struct vcpu *v, u16 port, unsigned size);
void pic_master_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 pic_slave_in(struct vcpu *v, u16 port, unsigned size);
void pic_slave_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 acpi_pm_in(struct vcpu *v, u16 port, unsigned size);
void acpi_pm_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 rtc_in(struct vcpu *v, u16 port, unsigned size);
void rtc_out(struct vcpu *v, u16 port, unsigned size, u32 val);

/* Pure: a write to the PM1 block (offset 0-5): PM1_STS write-1-to-clear,
 * PM1_EN, PM1_CNT; returns the SLP_TYP written with SLP_EN, else -ENOENT. */
int acpi_pm1_write(struct acpi_pm *pm, u16 off, unsigned size, u32 val);
u32 acpi_pm1_read(const struct acpi_pm *pm, u16 off, unsigned size);
/* S3, entered by v's PM1_CNT write: declared here for acpi_pm.c and
 * implemented above the devices, in hv/guest/s3.c, as it puts every vCPU
 * of the guest to sleep (acpi_s3_poll() in hv/guest/guest.h wakes it). */
void acpi_s3_enter(struct vcpu *v);
static inline bool acpi_s3_asleep(const struct platform *p)
{
	return __atomic_load_n(&p->pm.asleep, __ATOMIC_ACQUIRE);
}

/* Pure RTC (rtc.c); t is TSC cycles since the platform's origin. */
u8 rtc_read(struct rtc_cmos *r, u8 reg, u64 t, u64 tsc_khz);
void rtc_write(struct rtc_cmos *r, u8 reg, u8 val);
/* t of the next alarm (an update whose time matches the alarm registers,
 * 0xC0-0xFF: any) after t, when register B's AIE is set; 0: none. */
u64 rtc_next_alarm(const struct rtc_cmos *r, u64 t, u64 tsc_khz);

/* Pure: PM timer ticks after tsc_delta cycles at tsc_khz (32-bit wrap). */
u32 pm_timer_ticks(u64 tsc_delta, u64 tsc_khz);
/* Pure: the byte at offset of fw_cfg item key. */
u8 fw_cfg_byte(const struct platform *p, u16 key, u32 offset);

/* acpi_tables.c: RSDP, RSDT, XSDT, FADT, MADT (and an empty DSDT) written
 * to dst, which the guest sees at dst_gpa (16-byte aligned, ACPI_TABLES_SIZE
 * bytes). The RSDP is first, so dst_gpa is where a guest finds it. */
#define ACPI_TABLES_SIZE 0x1000
#define ACPI_FACS_OFF 0x0c0 /* the FACS inside them (64-byte aligned) */
void acpi_tables_build(void *dst, u64 dst_gpa, u32 nr_cpus);

#endif
