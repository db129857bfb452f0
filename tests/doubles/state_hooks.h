/* SPDX-License-Identifier: GPL-2.0-only */
/* tests/doubles/state_hooks.h - what only the unit tests do to the real
 * modules: start from empty state, arm a fault. Each is implemented in
 * tests/doubles/<module>_hooks.c over the module's private header and
 * linked with that module (tests/unit/modules.mk), never into minhv. */
#ifndef MINHV_TESTS_DOUBLES_STATE_HOOKS_H
#define MINHV_TESTS_DOUBLES_STATE_HOOKS_H

#include "arch/types.h"

/* hv/ktap.c: no result recorded, none lost. */
void ktap_reset(void);
/* hv/mm.c: no region, no page; the pool lock free. */
void mm_reset(void);
/* hv/mtrr/: no state captured, no statistics, mtrr_flush=auto, not
 * locked for SNP. */
void mtrr_reset(void);
/* hv/mtrr/sync.c: cycles a CPU waits at a rendezvous barrier. */
void mtrr_set_barrier_timeout(u64 cycles);
/* hv/park/park.c: not armed (park_ready() false), no per-CPU state. */
void park_reset(void);
/* hv/sched/sched.c: no run queues (sched_init() allocates them again). */
void sched_reset(void);
/* hv/snp/rmp_model.c: the next `times` RMPUPDATEs of spa fail with code. */
void rmp_model_fail_next(hpa_t spa, u32 code, u32 times);

#endif
