/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/timers.h - the PC's reference clocks, registers only: the 8254 PIT
 * (Intel 82C54 data sheet), port 61h (system control port B: PIT channel 2
 * gate and output, and the NMI reason bits), the ACPI PM timer (ACPI 6.5
 * 4.8.3.3) and the HPET (IA-PC HPET specification 1.0a, 2.3). */
#ifndef MINHV_ARCH_TIMERS_H
#define MINHV_ARCH_TIMERS_H

#include "arch/types.h"

#define PIT_HZ 1193182u /* 8254 input clock (1.193182 MHz) */
#define PIT_PORT_CH2 0x42
#define PIT_PORT_CMD 0x43
/* Command byte: channel [7:6], access [5:4], mode [3:1], BCD [0]. */
#define PIT_CMD_CH2 (2u << 6)
#define PIT_CMD_LATCH (0u << 4) /* counter latch: the next two reads */
#define PIT_CMD_LOHI (3u << 4) /* low byte, then high byte */
#define PIT_CMD_MODE0 (0u << 1) /* interrupt on terminal count */
#define PIT_CMD_MODE2 (2u << 1) /* rate generator: counts down, reloads */

#define PORT_61 0x61
#define PORT61_GATE2 BIT(0) /* PIT channel 2 gate */
#define PORT61_SPEAKER BIT(1)
#define PORT61_CLEAR_SERR BIT(2) /* write 1: clear and disable SERR# NMIs */
#define PORT61_CLEAR_IOCHK BIT(3) /* write 1: clear and disable IOCHK NMIs */
#define PORT61_WRITABLE 0x0fu /* bits 7:4 are status: write them as 0 */
#define PORT61_OUT2 BIT(5) /* PIT channel 2 output */
#define PORT61_IOCHK BIT(6) /* NMI reason: I/O channel check */
#define PORT61_SERR BIT(7) /* NMI reason: system error (PCI SERR#) */

/* The rest of the 8254 the guest's model (hv/platform/pit.c) needs: the
 * other ports, the command fields, read-back (82C54 data sheet, "Read-Back
 * Command") and its status byte; port 61h's refresh toggle. */
#define PIT_PORT_CH0 0x40
#define PIT_CHANNELS 3
#define PIT_CMD_CH_SHIFT 6
#define PIT_CMD_RW_SHIFT 4
#define PIT_CMD_MODE_SHIFT 1
#define PIT_CMD_BCD BIT(0)
#define PIT_CMD_READBACK (3u << 6)
#define PIT_RB_NO_COUNT BIT(5) /* read-back: do not latch the counts */
#define PIT_RB_NO_STATUS BIT(4) /* read-back: do not latch the status */
#define PIT_RB_CH(n) BIT(1 + (n))
#define PIT_STATUS_OUT BIT(7)
#define PIT_STATUS_NULL_COUNT BIT(6)
#define PORT61_REFRESH BIT(4) /* toggles every 15.085 us */

#define ACPI_PM_TIMER_HZ 3579545u /* 3.579545 MHz, 24 or 32 bits */

#define HPET_REG_CAP 0x000 /* [63:32] period in fs, [13] 64-bit counter */
#define HPET_CAP_PERIOD_SHIFT 32
#define HPET_REG_CONFIG 0x010
#define HPET_CONF_ENABLE BIT(0) /* the main counter runs */
#define HPET_REG_COUNTER 0x0f0 /* main counter, low 32 bits first */
#define HPET_PERIOD_MAX_FS 100000000u /* the spec's limit: 100 ns */
#define HPET_MMIO_SIZE 0x400

/* The rest of the HPET the guest's model (hv/platform/hpet.c) needs
 * (IA-PC HPET 1.0a, 2.3): its usual address, the capability fields, the
 * interrupt status register and the timers' registers. */
#define HPET_DEFAULT_BASE 0xfed00000u
#define HPET_CAP_REV_ID 0x01u
#define HPET_CAP_NUM_TIM_SHIFT 8 /* timers - 1 */
#define HPET_CAP_COUNT_SIZE BIT(13) /* 64-bit main counter */
#define HPET_CAP_VENDOR_SHIFT 16
#define HPET_CONF_LEG_RT BIT(1)
#define HPET_REG_ISR 0x020
#define HPET_REG_TN_CONF(n) (0x100 + 0x20 * (n))
#define HPET_REG_TN_CMP(n) (0x108 + 0x20 * (n))
#define HPET_TN_SIZE_CAP BIT(5) /* 64-bit comparator */

#endif
