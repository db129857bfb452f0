// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/ports.c - the port table of the guest platform: which device
 * answers which I/O ports. Ports no device claims are left to the caller
 * (hv/svm/exit_io.c), which treats them as it always did. */
#include "arch/debug_exit_regs.h"
#include "arch/errno.h"
#include "arch/fw_cfg_regs.h"
#include "arch/uart_regs.h"
#include "hv/emul/vcpu_api.h"
#include "hv/platform/platform.h"

struct port_dev {
	u16 base, len;
	u32 (*in)(struct vcpu *v, u16 off, unsigned size);
	void (*out)(struct vcpu *v, u16 off, unsigned size, u32 val);
};

/* The first match wins: port 0x61 before the 8042's 0x60-0x64. */
static const struct port_dev ports[] = {
	{ UART_COM1_PORT, UART_NR_PORTS, uart_in, uart_out },
	{ QEMU_DEBUG_EXIT_PORT, QEMU_DEBUG_EXIT_SIZE, NULL, debug_exit_out },
	{ FW_CFG_PORT_SEL, FW_CFG_PORTS, fw_cfg_in, fw_cfg_out },
	{ PM_TIMER_PORT, 4, pm_timer_in, NULL },
	{ PM1_EVT_PORT, PM1_BLK_LEN, acpi_pm_in, acpi_pm_out },
	{ RTC_PORT, 2, rtc_in, rtc_out },
	{ PIC_MASTER_PORT, 2, pic_master_in, pic_master_out },
	{ PIC_SLAVE_PORT, 2, pic_slave_in, pic_slave_out },
	{ PIT_PORT_CH0, 4, pit_in, pit_out },
	{ PORT61, 1, port61_in, port61_out },
	{ KBC_DATA_PORT, KBC_CMD_PORT - KBC_DATA_PORT + 1, kbc_in, kbc_out },
	{ RESET_PORT, 1, reset_in, reset_out },
};

/* pc-testdev: multiboot guests only (struct platform's testdev). */
static const struct port_dev testdev_ports[] = {
	{ TESTDEV_PORT, TESTDEV_PORT_BYTE + 4 - TESTDEV_PORT, testdev_in,
	  testdev_out },
	{ TESTDEV_PORT_IRQ, TESTDEV_IRQ_LINES, testdev_irq_in,
	  testdev_irq_out },
};

static const struct port_dev *find(const struct port_dev *t, size_t n, u16 port)
{
	for (size_t i = 0; i < n; i++)
		if (port >= t[i].base && port < t[i].base + t[i].len)
			return &t[i];
	return NULL;
}

/* Only a guest with a platform (vcpu_platform()) has devices. */
static const struct port_dev *lookup(struct vcpu *v, u16 port)
{
	const struct platform *p = vcpu_platform(v);
	const struct port_dev *d;

	if (!p)
		return NULL;
	d = find(ports, ARRAY_SIZE(ports), port);
	if (!d && p->testdev)
		d = find(testdev_ports, ARRAY_SIZE(testdev_ports), port);
	return d;
}

int platform_port_in(struct vcpu *v, u16 port, unsigned size, u32 *val)
{
	struct platform *p = vcpu_platform(v);
	const struct port_dev *d;

	/* The PM timer without the table: guests poll it (a clock source,
	 * ACPI idle), and this is every read's path. */
	if (p && (u16)(port - PM_TIMER_PORT) < 4) {
		*val = pm_timer_read(p, port - PM_TIMER_PORT, size);
		return 0;
	}
	d = lookup(v, port);
	if (!d)
		return E_NOT_MINE;
	/* A write-only device reads as an open bus, like no device. */
	*val = d->in ? d->in(v, port - d->base, size) : 0xffffffffu;
	return 0;
}

int platform_port_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	const struct port_dev *d = lookup(v, port);

	if (!d)
		return E_NOT_MINE;
	if (d->out)
		d->out(v, port - d->base, size, val);
	return 0;
}
