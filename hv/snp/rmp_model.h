/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/snp/rmp_model.h - the in-memory RMP model's set-up and introspection.
 * Its operations are reached through rmp_model_ops (hv/snp/rmp.h). */
#ifndef MINHV_HV_SNP_RMP_MODEL_H
#define MINHV_HV_SNP_RMP_MODEL_H

#include "hv/snp/rmp.h"

/* Allocate the model from the page pool: room for `capacity` RMP entries,
 * ncores per-core RMPOPT tables; scan caches for the 2 TiB from base.
 * Every page starts hypervisor-owned. Returns 0, or -ENOMEM. */
int rmp_model_init(hpa_t base, u32 ncores, u64 capacity);
/* Effective state of the 4 KiB page at spa (a 2 MiB entry covers its 512
 * pages). False when the page is hypervisor-owned. */
bool rmp_model_lookup(hpa_t spa, struct rmp_state *out);
/* Assigned 4 KiB pages in the 1 GiB region holding spa. */
u64 rmp_model_assigned_in_region(hpa_t spa);
/* RMPOPTs issued on a core whose RMPOPT_BASE was not enabled (#UD on
 * hardware). Must stay 0. */
u64 rmp_model_ud_count(void);
/* Full RMP scans done by RMPOPT verify (the rest hit the cached result). */
u64 rmp_model_scans(void);

#endif
