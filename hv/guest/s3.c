// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/s3.c - a foreign guest in ACPI S3 (suspend to RAM), entered by
 * its PM1a_CNT write (hv/platform/acpi_pm.c): every vCPU gets INIT, vCPU 0
 * waits for the RTC alarm and resumes at the FACS waking vector as
 * SeaBIOS does. */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "hv/platform/platform.h"

#define FACS_WAKING_VECTOR 12 /* ACPI 6.5 5.2.10, Table 5.14 */

/* ACPI 16.1.3.1 (S3): the CPUs lose their context, memory is kept. Every
 * vCPU gets INIT (it waits for SIPI, so the writer never runs past its
 * OUT); vCPU 0 then waits in acpi_s3_poll() for the RTC alarm. */
void acpi_s3_enter(struct vcpu *v)
{
	struct guest *g = v->guest;
	struct platform *p = &g->plat;
	u64 t = rdtsc(), at = 0;

	if (p->pm.en & PM1_EN_RTC)
		at = rtc_next_alarm(&p->rtc, t - p->pm_tsc0, p->tsc_khz);
	p->pm.wake_tsc = at ? p->pm_tsc0 + at : 0;
	if (at)
		pr_info("svm: guest %s: ACPI S3 by vCPU %u; the RTC alarm wakes it in %llu ms\n",
			g->name, v->id,
			(unsigned long long)((p->pm.wake_tsc - t) /
					     p->tsc_khz));
	else
		pr_info("svm: guest %s: ACPI S3 by vCPU %u without a wake-up source (PM1_EN.RTC_EN and RTC AIE): nothing will wake it\n",
			g->name, v->id);
	__atomic_store_n(&p->pm.asleep, 1, __ATOMIC_SEQ_CST);
	for (u32 i = 0; i < g->nr_vcpus; i++)
		vlapic_deliver(&g->vcpus[i]->lapic, APIC_DM_INIT, 0, false);
}

/* ACPI 16.3 (waking): WAK_STS and the wake event's status, then what
 * SeaBIOS's S3 resume does on a PC just reset: the BSP enters the real-mode
 * firmware_waking_vector with CS = vector >> 4, IP = vector & 0xf, the
 * other segments 0, interrupts off. The APs stay in wait-for-SIPI. */
static enum acpi_s3 resume(struct vcpu *v)
{
	struct guest *g = v->guest;
	struct acpi_pm *pm = &g->plat.pm;
	struct vlapic_config cfg = v->lapic.cfg;
	struct vlapic_bus *bus = v->lapic.bus;
	u32 *wv, vec = 0;

	if (!guest_mem_range(g, pm->facs_gpa + FACS_WAKING_VECTOR, 4, 4,
			     (void **)&wv))
		vec = *wv;
	pm->sts |= PM1_STS_WAK | PM1_STS_RTC;
	pm->wake_tsc = 0;
	__atomic_store_n(&pm->asleep, 0, __ATOMIC_SEQ_CST);
	if (!vec) {
		/* SeaBIOS would boot from scratch: nothing to boot here. */
		guest_stop(
			g, -1, true,
			"vCPU %u: ACPI S3 resume: the FACS waking vector is 0",
			v->id);
		return ACPI_S3_STOPPED;
	}
	/* A power-up reset of the BSP's vLAPIC (xAPIC at its base). */
	vlapic_init(&v->lapic, &cfg);
	v->lapic.bus = bus;
	vcpu_start_real(v, (u16)(vec >> 4), vec & 0xf);
	return ACPI_S3_RESUMED;
}

enum acpi_s3 acpi_s3_poll(struct vcpu *v, u64 now, u64 *until)
{
	struct guest *g = v->guest;
	u64 wake = g->plat.pm.wake_tsc, end = g->deadline_tsc;

	*until = 0;
	if (wake && now >= wake)
		return resume(v);
	if (end && now >= end) {
		guest_stop(
			g, -1, true,
			"vCPU %u: asleep in ACPI S3 without a wake-up at the run-time limit of %u ms",
			v->id, g->time_ms);
		return ACPI_S3_STOPPED;
	}
	*until = wake && (!end || wake < end) ? wake : end;
	return ACPI_S3_ASLEEP;
}
