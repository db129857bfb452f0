// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_cache.c - INVD, WBINVD and WBNOINVD from the guest (APM vol 2,
 * 15.13 intercepts; vol 3 INVD/WBINVD/WBNOINVD): intercepted and skipped. */
#include "hv/svm/exit.h"

/* A native guest INVD would throw away the host's (and other guests')
 * dirty cache lines. Like KVM, treat INVD as WBINVD, and WBINVD/WBNOINVD
 * as no-ops: guest memory is ordinary write-back RAM that nothing reads
 * behind the cache's back (no device DMA, no non-coherent mappings). A
 * WBNOINVD (F3 0F 09) exits as WBINVD; without NRIP its length is taken
 * as 2 (TCG has no NRIP and decodes the prefix away; real EPYC has NRIP). */
enum exit_action exit_cache_insn(struct vcpu *v)
{
	return vcpu_skip_insn(v) ? EXIT_RESUME : EXIT_LEAVE;
}
