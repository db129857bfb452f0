// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/vlapic_bus_fixture.c - the rig of the pure vLAPIC suites: four
 * vLAPICs on one bus (vlapic_bus_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hv/vlapic/vlapic.h"
#include "tests/unit/vlapic_bus_fixture.h"

struct vlapic cpu[N];
unsigned notified[N];
static struct vlapic_bus bus;

static struct vlapic *at(void *ctx, u32 i)
{
	(void)ctx;
	return &cpu[i];
}

static void notify(struct vlapic *t)
{
	notified[t - cpu]++;
}

int setup(void **s)
{
	(void)s;
	bus = (struct vlapic_bus){
		.at = at, .notify = notify, .ctx = NULL, .n = N, .eoi = NULL
	};
	for (u32 i = 0; i < N; i++) {
		/* Owner state (c) too: vlapic_init() leaves it alone. */
		memset(&cpu[i], 0, sizeof(cpu[i]));
		vlapic_init(&cpu[i],
			    &(struct vlapic_config){ .vcpu_id = i,
						     .bsp = i == 0,
						     .x2apic = true,
						     .tsc_deadline = true,
						     .maxphyaddr = 40,
						     .tsc_khz = 2000000 });
		cpu[i].bus = &bus;
		notified[i] = 0;
		/* Software-enable, as every guest does first. */
		assert_int_equal(vlapic_reg_write(&cpu[i], 0xf0, 0x1ff), 0);
	}
	return 0;
}

void w(struct vlapic *l, u32 off, u64 v)
{
	assert_int_equal(vlapic_reg_write(l, off, v), 0);
}

bool irr(struct vlapic *l, u8 vec)
{
	return l->irr[vec >> 5] & (1u << (vec & 31));
}
