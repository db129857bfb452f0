/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/platform/platform.h - the small PC a foreign (multiboot or Linux) guest sees:
 * per-guest device state and the port table that hv/svm/exit_io.c asks
 * first. One device per file in hv/platform/; the vLAPIC is its own room
 * (hv/vlapic). The devices reach their vCPU only through
 * hv/emul/vcpu_api.h: nothing here includes hv/guest, hv/vcpu or hv/svm. */
#ifndef MINHV_HV_PLATFORM_PLATFORM_H
#define MINHV_HV_PLATFORM_PLATFORM_H

#include <stddef.h>

#include "arch/spinlock.h"
#include "arch/timers.h"
#include "arch/types.h"
#include "arch/uart_regs.h"
#include "hv/emul/mmio.h"
#include "hv/platform/virtio.h"
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

/* The 16550A (uart.c): registers, a 16-byte receive FIFO fed from the
 * host console, THRE pending until IIR shows it or THR is written, and
 * the transmitted line until its newline (one console line, whichever
 * vCPU wrote its bytes). The transmitter drains at tx_rate bytes per
 * second (guest_console_rate; 0: at once) with up to one second's worth
 * banked (tx_bank): while more is left to send the transmitter is busy
 * (THRE and TEMT clear, no THRE interrupt), so a guest that writes faster
 * is slowed, and no byte it wrote is ever dropped. */
#define UART_LINE_MAX 2048 /* longer lines are split */
struct uart16550 {
	u8 ier, lcr, mcr, scr, dll, dlm, fcr, lsr_err;
	bool thr_ipending;
	/* A byte went out and THRE is back, its interrupt owed: raised at
	 * the writer's next look (uart_read(), uart_write()), its HLT, or
	 * a tick after it stopped touching the UART (thre_settle(),
	 * uart_internal.h). */
	bool thre_due;
	bool touched; /* an access since the last tick's look */
	bool tx_busy; /* over the bank: THRE comes back when it is not */
	u8 rx[UART_FIFO_SIZE], rx_head, rx_n;
	u16 line_len;
	u32 tx_rate; /* bytes per second; 0: unlimited */
	u64 tx_cost; /* host TSC cycles per byte at tx_rate */
	u64 tx_bank; /* tx_rate bytes' worth (one second) of them */
	u64 tx_done; /* host TSC the line has sent all it took by */
	u64 line_tsc; /* host TSC of the line's last byte */
	char line[UART_LINE_MAX];
};
/* ISA IRQ 4 (COM1); the others (MADT interrupt source overrides aside,
 * ISA IRQ n is GSI n). */
#define UART_COM1_IRQ 4
#define PIT_IRQ 0 /* GSI 2: the MADT's override, as on every PC */
#define RTC_IRQ 8
#define SCI_IRQ 9 /* level, active high (FADT SCI_INT, MADT override) */

/* The I/O APIC (ioapic.c): 24 pins, version 0x20 (with the EOI
 * register), at IOAPIC_DEFAULT_BASE, ID 0 (82093AA; QEMU's ioapic). */
#define VIOAPIC_PINS 24
#define VIOAPIC_MMIO_SIZE 0x1000 /* registers repeat every 256 bytes */
struct vioapic {
	spinlock_t lock;
	u32 regsel, id;
	u32 level; /* the pins' inputs, asserted (polarity is not modelled) */
	u64 rte[VIOAPIC_PINS];
	struct vlapic_bus *bus; /* the vLAPICs its messages go to */
	u64 sent; /* interrupt messages accepted by a vLAPIC */
};

/* One channel of the 8254 (pit.c); time is the host TSC. */
struct pit_channel {
	u16 reload; /* the count written; 0 counts 65536 */
	u8 mode, rw, bcd;
	u8 wbyte; /* lo/hi writes: 1 after the low byte */
	u8 rbyte; /* lo/hi reads: 1 after the low byte */
	u8 lsb; /* the low byte written */
	bool counting; /* a count is loaded and (channel 2) the gate is high */
	bool null_count; /* written, not yet loaded */
	bool latched, status_latched;
	u8 lbyte, status;
	u16 latch;
	u64 t0; /* host TSC at which the count was loaded */
	u64 paused; /* ticks counted before the gate went low */
	u64 next; /* ticks after t0 of the next IRQ (channel 0); 0: none */
};

struct pit8254 {
	struct pit_channel ch[PIT_CHANNELS];
	u8 port61; /* gate 2, speaker, the NMI enables (bits 3:0) */
};

/* The HPET (hpet.c): a 100 MHz main counter (QEMU's rate) and timers
 * whose comparators never interrupt. */
#define VHPET_TIMERS 3
#define VHPET_PERIOD_FS 10000000u /* 10 ns */
#define VHPET_HZ 100000000u
/* The capability register's low half (and the ACPI table's block ID):
 * revision 1, 64-bit counter, vendor 8086 as QEMU's. */
#define VHPET_CAP_LO                                                      \
	(HPET_CAP_REV_ID | (VHPET_TIMERS - 1) << HPET_CAP_NUM_TIM_SHIFT | \
	 HPET_CAP_COUNT_SIZE | 0x8086u << HPET_CAP_VENDOR_SHIFT)
struct vhpet {
	spinlock_t lock;
	u64 config;
	u64 counter; /* while halted; at t0 while running */
	u64 t0; /* host TSC the counter started from */
	u64 tn_conf[VHPET_TIMERS], tn_cmp[VHPET_TIMERS];
	u64 tsc_khz;
};

/* pc-testdev (testdev.c), QEMU's kvm-unit-tests device; multiboot guests
 * only: the data port at 0xe0 and 0xe8, the IRQ lines at 0x2000, 64 KiB
 * of memory at 0xff000000. */
#define TESTDEV_PORT 0xe0
#define TESTDEV_PORT_FLUSH 0xe4
#define TESTDEV_PORT_BYTE 0xe8
#define TESTDEV_PORT_IRQ 0x2000
#define TESTDEV_IRQ_LINES 24
#define TESTDEV_IOMEM_GPA 0xff000000u
#define TESTDEV_IOMEM_SIZE 0x10000u

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
#define PM1_STS_TMR BIT(0)
#define PM1_STS_GBL BIT(5)
#define PM1_STS_PWRBTN BIT(8)
#define PM1_STS_SLPBTN BIT(9)
#define PM1_STS_RTC BIT(10)
#define PM1_STS_WAK BIT(15)
#define PM1_EN_RTC BIT(10)
/* The events that raise the SCI when enabled (4.8.3.1, Table 4.14). */
#define PM1_SCI_EVENTS                                                 \
	(PM1_STS_TMR | PM1_STS_GBL | PM1_STS_PWRBTN | PM1_STS_SLPBTN | \
	 PM1_STS_RTC)
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
	u32 console_rate; /* the UART's transmit rate (guest_console_rate) */
	u64 ram_size;
	/* The devices whose state the poll (vCPU 0) and any vCPU share:
	 * UART, PIT, RTC, PM1 (then the I/O APIC's own lock, never the
	 * other way round). */
	spinlock_t lock;
	bool testdev; /* pc-testdev (multiboot guests) */
	u64 poll_at; /* host TSC platform_poll() wants to run at; 0: never */
	u32 tx_vcpu; /* the vCPU that last wrote THR (uart.thre_due) */
	u32 testdev_data;
	u8 rcr; /* port 0xCF9's SYS_RST bit */
	struct uart16550 uart;
	struct vioapic ioapic;
	struct pit8254 pit;
	struct vhpet hpet;
	struct fw_cfg_dev fw_cfg;
	struct pic8259 pic[2]; /* master, slave (pic.c) */
	u64 pm_tsc0; /* TSC when the PM timer read 0 */
	u64 tsc_khz;
	/* PM timer ticks per TSC cycle as a 0.64 fixed-point fraction
	 * (pm_timer_mult()); 0 until the first read computes it. */
	u64 pm_mult;
	/* the vCPUs' vLAPICs, wired up by hv/svm/vlapic_vcpu.c */
	struct vlapic_bus lapic_bus;
	struct acpi_pm pm;
	struct rtc_cmos rtc;
	struct virtio_blk *disk; /* disk=: the virtio disk, or NULL */
};

/* The reset state of the PM1 block and the RTC (guest.c). */
/* clang-format off */
#define ACPI_PM_INIT(tables_gpa)                        \
	{ .cnt = PM1_CNT_SCI_EN, /* no SMI_CMD: ACPI mode */ \
	  .facs_gpa = (tables_gpa) + ACPI_FACS_OFF }
#define RTC_INIT { .a = RTC_REG_A_RESET, .b = RTC_REG_B_RESET }
/* clang-format on */

/* Interrupt lines (irq.c): ISA IRQ or GSI irq at level, through the
 * MADT's overrides (IRQ 0 -> GSI 2) to the I/O APIC; a pulse is an edge.
 * A level-triggered device (the virtio disk) holds it high while it wants
 * service. */
void platform_set_irq(struct platform *p, u32 irq, bool level);
void platform_pulse_irq(struct platform *p, u32 irq);
/* Time-driven events (irq.c), on vCPU 0 when p->poll_at has come (the
 * host timer is armed for it): the PIT's channel 0, the RTC's IRQ 8,
 * input from the host console into the UART. now is the host TSC;
 * returns the next poll_at (it is also stored there). */
#define PLATFORM_POLL_MS 10 /* host console input: every 10 ms */
/* A partial console line (a shell's prompt) shows after this long. */
#define UART_LINE_IDLE_MS 1000
u64 platform_poll(struct vcpu *v, u64 now);
/* The THRE interrupt a byte left owed (uart.thre_due), on the vCPU that
 * wrote it: now when it idles (HLT), else at a tick that found the UART
 * untouched since the one before (platform_thre_tick()). Callers look
 * first with platform_thre_owed(), unlocked and inline, and call only
 * when it says so: every vCPU's every tick asks, an owed THRE is rare. */
void platform_thre_tick(struct vcpu *v, bool idle);
static inline bool platform_thre_owed(const struct platform *p, u32 vcpu)
{
	return __atomic_load_n(&p->uart.thre_due, __ATOMIC_RELAXED) &&
	       __atomic_load_n(&p->tx_vcpu, __ATOMIC_RELAXED) == vcpu;
}
/* A device's timing changed (under p->lock): vCPU 0 polls at its next
 * entry, and arms the host timer for what the poll says. Its entry path
 * runs only when asked (vlapic_entry_maybe()), so it is asked, from
 * whichever CPU made the change (vlapic_entry_work() is an atomic OR). */
static inline void platform_poll_soon(struct platform *p)
{
	p->poll_at = 1;
	/* The store before the ask (vlapic_entry_work() is relaxed). */
	__atomic_thread_fence(__ATOMIC_RELEASE);
	if (p->lapic_bus.at)
		vlapic_entry_work(p->lapic_bus.at(p->lapic_bus.ctx, 0));
}

/* The I/O APIC (ioapic.c). Reset: every entry masked, no pin asserted. */
void ioapic_reset(struct vioapic *io, struct vlapic_bus *bus);
/* A pin's input: edge entries deliver on the rising edge when unmasked
 * (a masked edge is lost, 82093AA 3.2.4), level entries whenever the pin
 * is asserted, unmasked and the remote IRR is clear. */
void ioapic_set_irq(struct vioapic *io, u32 pin, bool level);
/* The EOI message for vector (a vLAPIC's level-triggered EOI, or the EOI
 * register): every level entry with this vector has its remote IRR
 * cleared, and is delivered again while its pin is still asserted. */
void ioapic_eoi(struct vioapic *io, u8 vector);
extern const struct mmio_ops ioapic_mmio_ops; /* dev: struct vioapic */

/* The HPET (hpet.c), at HPET_DEFAULT_BASE; the time comes from the host
 * TSC. dev: struct vhpet. */
extern const struct mmio_ops hpet_mmio_ops;
void hpet_reset(struct vhpet *h, u64 tsc_khz);

/* The 16550A (uart.c), pure: port offset 0-7, now the host TSC (the
 * transmitter's pace). uart_write() returns the byte to transmit, or
 * -ENOENT (none, or looped back). */
u8 uart_read(struct uart16550 *u, u16 off, u64 now);
int uart_write(struct uart16550 *u, u16 off, u8 val, u64 now);
/* The transmit rate (bytes/s, 0: unlimited), its bank full. */
void uart_set_rate(struct uart16550 *u, u32 rate, u64 tsc_khz, u64 now);
/* Catch the transmitter up with now: when its bank is no longer
 * overdrawn it is idle again and its THRE interrupt pending. Returns the
 * host TSC it will be idle at while it is busy, else 0. */
u64 uart_tx_poll(struct uart16550 *u, u64 now);
/* Host TSC cycles a write at now must wait: a guest that keeps writing
 * while the transmitter is busy (its 16-byte FIFO full) waits a byte's
 * time per byte, as on a real line; 0 for every guest that waits for
 * THRE. */
u64 uart_tx_stall(struct uart16550 *u, u64 now);
#define UART_STALL_MAX_MS 10 /* at most per OUT (a rate of 1 B/s...) */
/* A received byte into the FIFO; -ENOSPC when it is full. */
int uart_rx_push(struct uart16550 *u, u8 b);
/* IIR's interrupt identification, by priority (inline: the console's
 * fast path reads it for every FIFO load), and the INTR pin: OUT2 gates
 * it onto the PC's IRQ line. */
static inline u8 uart_iir(const struct uart16550 *u)
{
	u8 fifo = u->fcr & UART_FCR_ENABLE_FIFO ? UART_IIR_FIFO_ENABLED : 0;

	if ((u->ier & UART_IER_RLSI) && (u->lsr_err & UART_LSR_ERRORS))
		return fifo | UART_IIR_RLSI;
	if ((u->ier & UART_IER_RDI) && u->rx_n)
		return fifo | UART_IIR_RDI;
	if ((u->ier & UART_IER_THRI) && u->thr_ipending)
		return fifo | UART_IIR_THRI;
	/* No modem status change is ever latched (the delta bits stay 0). */
	return fifo | UART_IIR_NO_INT;
}
bool uart_irq(const struct uart16550 *u);
void uart_reset(struct uart16550 *u);
/* Room for another received byte (one without the FIFOs). */
bool uart_rx_room(const struct uart16550 *u);
/* The transmitted line so far to minhv's console (the guest's end, and a
 * prompt idle for UART_LINE_IDLE_MS); v: any vCPU of the guest. */
void uart_flush(struct vcpu *v);

/* The 8254 (pit.c), pure; now is the host TSC. Ports: offset 0-3 from
 * 0x40, and port 0x61. pit_poll(): whether channel 0 raised IRQ 0 by now
 * (missed periods coalesce into one), and the host TSC of its next IRQ
 * (0: none). */
u8 pit_read(struct pit8254 *t, u16 off, u64 now, u64 tsc_khz);
void pit_write(struct pit8254 *t, u16 off, u8 val, u64 now, u64 tsc_khz);
u8 pit_port61_read(struct pit8254 *t, u64 now, u64 tsc_khz);
void pit_port61_write(struct pit8254 *t, u8 val, u64 now, u64 tsc_khz);
bool pit_poll(struct pit8254 *t, u64 now, u64 tsc_khz, u64 *next);
/* Ticks of a clock at hz in tsc_delta cycles at tsc_khz, exact and with
 * no overflow (hz up to 1.2 MHz, or a multiple of 1 kHz), and back: the
 * cycles of ticks, rounded up (hz up to 1.2 MHz). */
u64 clock_ticks(u64 tsc_delta, u64 tsc_khz, u32 hz);
u64 clock_tsc(u64 ticks, u64 tsc_khz, u32 hz);

/* The MMIO devices (mmio_map.c; the xAPIC page is each vCPU's own): 0 and
 * the region at addr in *r, else -ENOENT. */
int platform_mmio_find(struct platform *p, u64 addr, struct mmio_region *r);

/* The port table (ports.c): 0 when a device owns the port (and handled
 * the access), else E_NOT_MINE. */
int platform_port_in(struct vcpu *v, u16 port, unsigned size, u32 *val);
int platform_port_out(struct vcpu *v, u16 port, unsigned size, u32 val);

/* Devices, one file each; port is the offset inside the device. */
u32 uart_in(struct vcpu *v, u16 port, unsigned size);
void uart_out(struct vcpu *v, u16 port, unsigned size, u32 val);
/* A byte access of vCPU index vcpu to COM1 register off, the guest's AL
 * (the low byte of *rax) out or in, carried out whole when it is a common
 * one that moves no IRQ line; false, nothing done, otherwise
 * (uart_fast.c, for the run loop's fast path). */
bool uart_fast(struct platform *p, u32 vcpu, u16 off, bool in, u64 *rax);
void debug_exit_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 fw_cfg_in(struct vcpu *v, u16 port, unsigned size);
void fw_cfg_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 pm_timer_in(struct vcpu *v, u16 port, unsigned size);
/* The same for a platform (platform_port_in() reads it without the
 * table). */
u32 pm_timer_read(struct platform *p, u16 port, unsigned size);
u32 pic_master_in(struct vcpu *v, u16 port, unsigned size);
void pic_master_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 pic_slave_in(struct vcpu *v, u16 port, unsigned size);
void pic_slave_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 acpi_pm_in(struct vcpu *v, u16 port, unsigned size);
void acpi_pm_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 rtc_in(struct vcpu *v, u16 port, unsigned size);
void rtc_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 pit_in(struct vcpu *v, u16 port, unsigned size);
void pit_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 port61_in(struct vcpu *v, u16 port, unsigned size);
void port61_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 kbc_in(struct vcpu *v, u16 port, unsigned size);
void kbc_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 reset_in(struct vcpu *v, u16 port, unsigned size);
void reset_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 testdev_in(struct vcpu *v, u16 port, unsigned size);
void testdev_out(struct vcpu *v, u16 port, unsigned size, u32 val);
u32 testdev_irq_in(struct vcpu *v, u16 port, unsigned size);
void testdev_irq_out(struct vcpu *v, u16 port, unsigned size, u32 val);

/* The reset control register at 0xCF9 (reset.c; ICH9/PIIX: bit 2 resets
 * the system, bit 1 chooses a hard reset) and the FADT's RESET_REG. */
#define RESET_PORT 0xcf9
#define RESET_RCR_SYS_RST BIT(1)
#define RESET_RCR_RST_CPU BIT(2)
#define RESET_VALUE 0x06 /* what the FADT's RESET_VALUE writes */
/* The 8042's ports (kbc.c): data 0x60, command/status 0x64. */
#define KBC_DATA_PORT 0x60
#define KBC_CMD_PORT 0x64
#define KBC_CMD_RESET 0xfe /* pulse the reset line */
#define PORT61 0x61

/* Is the SCI asserted: SCI_EN and an enabled PM1 event. */
bool acpi_pm1_sci(const struct acpi_pm *pm);
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
/* IRQ 8 (the MC146818's IRQ pin): an enabled update-ended or alarm event
 * since register C was last read; *next: t of the next one (0: none). */
bool rtc_irq(const struct rtc_cmos *r, u64 t, u64 tsc_khz, u64 *next);

/* Pure: PM timer ticks after tsc_delta cycles at tsc_khz (32-bit wrap). */
u32 pm_timer_ticks(u64 tsc_delta, u64 tsc_khz);
/* Pure: ACPI_PM_TIMER_HZ / (tsc_khz * 1000) as a 0.64 fraction, rounded up, so
 * that (tsc_delta * mult) >> 64 is pm_timer_ticks() without a division
 * (0 when tsc_khz is 0 or below ACPI_PM_TIMER_HZ / 1000). */
u64 pm_timer_mult(u64 tsc_khz);
/* Pure: the byte at offset of fw_cfg item key. */
u8 fw_cfg_byte(const struct platform *p, u16 key, u32 offset);

/* acpi_tables.c: RSDP, RSDT, XSDT, FADT, MADT and DSDT (the sleep types;
 * with disk, the virtio disk's device) written to dst, which the guest
 * sees at dst_gpa (16-byte aligned, ACPI_TABLES_SIZE bytes). The RSDP is
 * first, so dst_gpa is where a guest finds it. */
#define ACPI_TABLES_SIZE 0x1000
#define ACPI_FACS_OFF 0x0c0 /* the FACS inside them (64-byte aligned) */
void acpi_tables_build(void *dst, u64 dst_gpa, u32 nr_cpus, bool disk);

/* The reset state of a foreign guest's platform (irq.c): every device at
 * power-up, the I/O APIC wired to the guest's APIC bus. */
void platform_reset(struct platform *p);

#endif
