// SPDX-License-Identifier: GPL-2.0-only
/* hv/smp/boot.c - INIT, delay, SIPI, SIPI again if silent, then resends
 * (nested KVM may drop a SIPI that arrives while INIT is pending) until
 * sipi_max; an AP that never checks in is marked failed. */
#include "hv/smp/boot.h"
#include "hv/log.h"

void smp_boot_begin(struct smp_boot *b, const struct smp_boot_cfg *cfg,
		    const struct smp_boot_hw *hw, struct ap_slot *aps, u32 n)
{
	*b = (struct smp_boot){ .cfg = cfg, .hw = hw, .aps = aps, .n = n };
	for (u32 i = 0; i < n; i++) {
		aps[i].state = AP_WAITING;
		aps[i].sipis = 0;
		aps[i].deadline_us = 0;
	}
}

static void finish(struct smp_boot *b, struct ap_slot *ap, bool online)
{
	ap->state = online ? AP_ONLINE : AP_FAILED;
	b->active--;
	if (online)
		b->online++;
	else
		b->failed++;
}

static void sipi(struct smp_boot *b, struct ap_slot *ap, u64 now)
{
	const struct smp_boot_cfg *c = b->cfg;

	b->hw->send_sipi(b->hw->ctx, ap->apic_id);
	if (ap->sipis)
		b->resends++;
	ap->sipis++;
	ap->state = AP_SIPI_SENT;
	ap->deadline_us = now + (ap->sipis == 1 && c->sipi_max > 1 ?
					 c->sipi_gap_us :
					 c->timeout_us);
}

static void step(struct smp_boot *b, u32 idx, u64 now)
{
	const struct smp_boot_hw *hw = b->hw;
	struct ap_slot *ap = &b->aps[idx];

	switch (ap->state) {
	case AP_INIT_SENT:
		if (now >= ap->deadline_us)
			sipi(b, ap, now);
		break;
	case AP_SIPI_SENT:
		if (hw->checked_in(hw->ctx, idx))
			finish(b, ap, true);
		else if (now < ap->deadline_us)
			break;
		else if (ap->sipis < b->cfg->sipi_max)
			sipi(b, ap, now);
		else
			finish(b, ap, !hw->abandon(hw->ctx, idx));
		break;
	default:
		break;
	}
}

bool smp_boot_poll(struct smp_boot *b)
{
	const struct smp_boot_hw *hw = b->hw;
	u64 now = hw->now_us(hw->ctx);

	/* Start the next AP(s): all of them in parallel mode, else one. */
	while (b->next < b->n && (b->cfg->parallel || b->active == 0)) {
		struct ap_slot *ap = &b->aps[b->next++];

		hw->send_init(hw->ctx, ap->apic_id);
		ap->state = AP_INIT_SENT;
		ap->deadline_us = now + b->cfg->init_delay_us;
		b->active++;
	}
	for (u32 i = 0; i < b->next; i++)
		step(b, i, now);
	return b->next == b->n && b->active == 0;
}

void smp_boot_report(const struct smp_boot *b)
{
	for (u32 i = 0; i < b->n; i++) {
		const struct ap_slot *ap = &b->aps[i];

		if (ap->state == AP_FAILED)
			pr_err("smp: CPU with APIC ID %u did not check in "
			       "after %u SIPIs; left out\n",
			       ap->apic_id, ap->sipis);
	}
}
