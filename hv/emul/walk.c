// SPDX-License-Identifier: GPL-2.0-only
/* hv/emul/walk.c - the guest page-table walk for emulation: the paging mode
 * from the guest's registers (off, 32-bit with PSE, PAE, 4/5-level long
 * mode; APM vol 2 5.2-5.3, SDM vol 3 4.3-4.5), walked by the one walker
 * (arch/ptwalk.c) over guest RAM: every entry read after a bounds check, a
 * table outside it an error. */
#include "hv/emul/walk.h"
#include "arch/cr.h"
#include "arch/msr.h"
#include "arch/ptwalk.h"
#include "arch/vmcb.h"
#include "arch/errno.h"

struct gpaging gpaging_of(const struct vmcb *v)
{
	return (struct gpaging){ v->save.cr0, v->save.cr3, v->save.cr4,
				 v->save.efer };
}

int gmem_read(const void *ctx, u64 a, unsigned size, u64 *e)
{
	const struct gmem *m = ctx;
	u64 v = 0;

	if (a >= m->size || size > m->size - a)
		return -ERANGE;
	/* The guest may change the entry under us: read once, a whole
	 * aligned entry in one load (as the CPU's walk does), else each byte
	 * once. */
	if (size == 8 && !(a & 7)) {
		*e = __atomic_load_n((const u64 *)(m->host + a),
				     __ATOMIC_RELAXED);
		return 0;
	}
	if (size == 4 && !(a & 3)) {
		*e = __atomic_load_n((const u32 *)(m->host + a),
				     __ATOMIC_RELAXED);
		return 0;
	}
	for (unsigned i = 0; i < size; i++)
		v |= (u64)__atomic_load_n(&m->host[a + i], __ATOMIC_RELAXED)
		     << (8 * i);
	*e = v;
	return 0;
}

/* The mode the registers select (APM vol 2 5.1, table 5-1). */
static const struct pt_mode *mode_of(const struct gpaging *p)
{
	if (!(p->cr0 & CR0_PG) || !(p->cr0 & CR0_PE))
		return &pt_mode_off;
	if (p->efer & EFER_LMA)
		return (p->cr4 & CR4_LA57) ? &pt_mode_long5 : &pt_mode_long4;
	if (p->cr4 & CR4_PAE)
		return &pt_mode_pae;
	return (p->cr4 & CR4_PSE) ? &pt_mode_32_pse : &pt_mode_32;
}

int gwalk(const struct gmem *m, const struct gpaging *p, u64 la, gpa_t *out)
{
	const struct pt_reader rd = { gmem_read, m };
	struct pt_walk w;
	int r = pt_walk(mode_of(p), p->cr3, la, &rd, &w);

	if (!r)
		*out = gpa(w.pa);
	return r;
}

int gfetch(const struct gmem *m, const struct gpaging *p, u64 la, u8 *buf,
	   unsigned len)
{
	unsigned done = 0;

	while (done < len) {
		u64 addr = la + done;
		unsigned chunk = PAGE_SIZE - (addr & (PAGE_SIZE - 1));
		gpa_t g;
		int r;

		if (chunk > len - done)
			chunk = len - done;
		r = gwalk(m, p, addr, &g);
		if (!r && (g.v >= m->size || m->size - g.v < chunk))
			r = -ERANGE; /* MMIO or beyond RAM: not fetched */
		if (r)
			return done ? (int)done : r;
		for (unsigned i = 0; i < chunk; i++)
			buf[done + i] = __atomic_load_n(&m->host[g.v + i],
							__ATOMIC_RELAXED);
		done += chunk;
	}
	return done;
}
