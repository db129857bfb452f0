// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/time.c - TSC calibration against PIT channel 2 in mode 0 (one-shot,
 * OUT2 readable in port 61h bit 5), as Linux pit_calibrate_tsc() does; 8254
 * data sheet, and the PC port 61h gate/speaker bits. */
#include "hv/smp/time.h"
#include "arch/cpu.h"
#include "hv/log.h"

#define PIT_CH2 0x42
#define PIT_CMD 0x43
#define PORT_61 0x61
#define CAL_MS 10
#define FALLBACK_KHZ 2000000

u64 g_tsc_khz;

u64 tsc_khz_from(u64 cycles, u32 pit_ticks)
{
	if (!pit_ticks)
		return 0;
	return cycles * PIT_HZ / pit_ticks / 1000;
}

static u64 measure(u32 ticks)
{
	u8 p61 = inb(PORT_61);
	u64 t0, t1, limit;

	/* gate high, speaker off; channel 2, lobyte/hibyte, mode 0, binary */
	outb(PORT_61, (u8)((p61 & ~0x02) | 0x01));
	outb(PIT_CMD, 0xb0);
	outb(PIT_CH2, (u8)(ticks & 0xff));
	outb(PIT_CH2, (u8)(ticks >> 8));
	t0 = rdtsc();
	limit = t0 + (1ULL << 36); /* ~20 s at 3 GHz: no PIT */
	while (!(inb(PORT_61) & 0x20)) {
		t1 = rdtsc();
		if (t1 > limit)
			return 0;
	}
	t1 = rdtsc();
	outb(PORT_61, p61);
	return t1 - t0;
}

void tsc_calibrate(void)
{
	u32 ticks = PIT_HZ / 1000 * CAL_MS;
	u64 best = ~0ULL;

	/* Take the shortest of three: a vCPU preempted mid-way only adds. */
	for (int i = 0; i < 3; i++) {
		u64 c = measure(ticks);

		if (c && c < best)
			best = c;
	}
	g_tsc_khz = best != ~0ULL ? tsc_khz_from(best, ticks) : 0;
	if (g_tsc_khz < 1000) {
		pr_warn("time: PIT channel 2 did not count; assuming a %u MHz TSC\n",
			FALLBACK_KHZ / 1000);
		g_tsc_khz = FALLBACK_KHZ;
		return;
	}
	pr_info("time: TSC %llu.%03llu MHz (PIT channel 2, %u ms)\n",
		(unsigned long long)(g_tsc_khz / 1000),
		(unsigned long long)(g_tsc_khz % 1000), CAL_MS);
}

u64 tsc_to_us(u64 cycles)
{
	return g_tsc_khz ? cycles * 1000 / g_tsc_khz : 0;
}

u64 tsc_now_us(void)
{
	return tsc_to_us(rdtsc());
}

void udelay(u32 us)
{
	u64 end = rdtsc() + (u64)us * g_tsc_khz / 1000;

	while (rdtsc() < end)
		cpu_relax();
}
