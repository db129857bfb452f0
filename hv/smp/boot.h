/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/smp/boot.h - the INIT-SIPI-SIPI bring-up sequence as a state machine
 * over an APIC + clock interface, so unit tests drive it with a fake APIC.
 * Intel SDM vol 3 9.4.4.1 (MP initialization), MP spec appendix B.4. */
#ifndef MINHV_HV_SMP_BOOT_H
#define MINHV_HV_SMP_BOOT_H

#include "arch/types.h"

enum ap_state {
	AP_WAITING, /* not started yet */
	AP_INIT_SENT, /* INIT sent, waiting out the INIT delay */
	AP_SIPI_SENT, /* at least one SIPI sent, waiting for check-in */
	AP_ONLINE, /* checked in */
	AP_FAILED, /* never checked in: reported and left out */
};

struct ap_slot {
	u32 apic_id;
	enum ap_state state;
	u32 sipis; /* SIPIs sent so far */
	u64 deadline_us; /* when the current wait ends */
};

/* What the sequencer needs from the machine. idx is the slot index. */
struct smp_boot_hw {
	void (*send_init)(void *ctx, u32 apic_id);
	void (*send_sipi)(void *ctx, u32 apic_id);
	bool (*checked_in)(void *ctx, u32 idx);
	/* The AP missed its deadline: stop it from checking in late. Returns
	 * false when it checked in after all (then it counts as online). */
	bool (*abandon)(void *ctx, u32 idx);
	u64 (*now_us)(void *ctx);
	void *ctx;
};

struct smp_boot_cfg {
	bool parallel; /* start all APs at once, else one at a time */
	u32 init_delay_us; /* INIT -> first SIPI */
	u32 sipi_gap_us; /* first -> second SIPI (200 us, MP spec B.4) */
	u32 timeout_us; /* after any later SIPI, before resend / give up */
	u32 sipi_max; /* SIPIs per AP, >= 1 */
};

struct smp_boot {
	const struct smp_boot_cfg *cfg;
	const struct smp_boot_hw *hw;
	struct ap_slot *aps;
	u32 n;
	u32 next; /* first slot not started yet */
	u32 active; /* started, not finished */
	u32 online, failed;
	u32 resends; /* SIPIs beyond the first per AP */
};

/* aps[0..n-1] hold the APIC IDs to start (never the boot CPU). */
void smp_boot_begin(struct smp_boot *b, const struct smp_boot_cfg *cfg,
		    const struct smp_boot_hw *hw, struct ap_slot *aps, u32 n);
/* Advance every AP as far as the clock allows; true when all are done. */
bool smp_boot_poll(struct smp_boot *b);
/* pr_err one line per AP that never checked in, by APIC ID. */
void smp_boot_report(const struct smp_boot *b);

#endif
