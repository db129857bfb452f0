// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/acpi_pm.c - the ACPI PM1a event and control blocks at
 * 0x600 and 0x604 (ACPI 6.5 4.8.3.1-2, as QEMU's PIIX4/ICH9 PM) and the
 * sleep states they enter: S3 (suspend to RAM, woken by the RTC alarm and
 * resumed at the FACS waking vector as SeaBIOS does) and S5 (soft off). */
#include "arch/cpu.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "hv/platform/platform.h"

#define FACS_WAKING_VECTOR 12 /* ACPI 6.5 5.2.10, Table 5.14 */

/* The block as one little-endian value: PM1_STS at 0, PM1_EN at 2,
 * PM1_CNT at 4 (SLP_EN reads 0: it is write-only). */
u32 acpi_pm1_read(const struct acpi_pm *pm, u16 off, unsigned size)
{
	u64 blk = pm->sts | (u64)pm->en << 16 | (u64)pm->cnt << 32;
	u32 v = (u32)(blk >> (8 * off));

	return size < 4 ? v & ((1u << (8 * size)) - 1) : v;
}

int acpi_pm1_write(struct acpi_pm *pm, u16 off, unsigned size, u32 val)
{
	u64 m = 0, w = 0;
	u16 sm, em, cm, cw;

	for (unsigned i = 0; i < size && off + i < PM1_BLK_LEN; i++) {
		m |= 0xffULL << (8 * (off + i));
		w |= (u64)((val >> (8 * i)) & 0xff) << (8 * (off + i));
	}
	sm = (u16)m;
	em = (u16)(m >> 16);
	cm = (u16)(m >> 32);
	cw = (u16)(w >> 32) & cm;
	/* 4.8.3.1.1: a status bit is cleared by writing 1 to it. */
	pm->sts &= (u16) ~((u16)w & sm);
	pm->en = (u16)((pm->en & ~em) | ((u16)(w >> 16) & em));
	pm->cnt = (u16)(((pm->cnt & ~cm) | cw) & ~PM1_CNT_SLP_EN);
	/* 4.8.3.2.1: SLP_EN enters the state SLP_TYP names. */
	return (cw & PM1_CNT_SLP_EN) ? (int)PM1_SLP_TYP(pm->cnt) : -1;
}

u32 acpi_pm_in(struct vcpu *v, u16 port, unsigned size)
{
	return acpi_pm1_read(&v->guest->plat.pm, port, size);
}

void acpi_pm_out(struct vcpu *v, u16 port, unsigned size, u32 val)
{
	int typ = acpi_pm1_write(&v->guest->plat.pm, port, size, val);

	if (typ == SLP_TYP_S3)
		acpi_s3_enter(v);
	else if (typ == SLP_TYP_S5)
		guest_stop(v->guest, 0, false,
			   "vCPU %u: ACPI S5 (soft off) by PM1a_CNT", v->id);
	/* Other SLP_TYP values name no state of the DSDT: ignored. */
}

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
		pr_info("svm: guest %s: ACPI S3 by vCPU %u without a wake-up source (PM1_EN.RTC_EN and RTC AIE): asleep until the run-time limit\n",
			g->name, v->id);
	__atomic_store_n(&p->pm.asleep, 1, __ATOMIC_SEQ_CST);
	for (u32 i = 0; i < g->nr_vcpus; i++)
		vlapic_deliver(&g->vcpus[i]->lapic, VLAPIC_DM_INIT, 0, false);
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
