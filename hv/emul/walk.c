// SPDX-License-Identifier: GPL-2.0-only
/* hv/emul/walk.c - the guest page-table walk for emulation: paging off,
 * 32-bit (4 KiB and PSE 4 MiB pages), PAE, and 4/5-level long mode
 * (APM vol 2 5.2-5.3, SDM vol 3 4.3-4.5). Every table entry is read from
 * guest RAM after a bounds check; a table outside it is an error. */
#include "hv/emul/walk.h"
#include "arch/cr.h"
#include "arch/msr.h"
#include "arch/pte.h"
#include "arch/vmcb.h"
#include "arch/errno.h"

struct gpaging gpaging_of(const struct vmcb *v)
{
	return (struct gpaging){ v->save.cr0, v->save.cr3, v->save.cr4,
				 v->save.efer };
}

/* One entry of size bytes at gpa a; the guest may change it under us, so
 * each byte is read once, relaxed. */
static int read_entry(const struct gmem *m, u64 a, unsigned size, u64 *e)
{
	u64 v = 0;

	if (a >= m->size || size > m->size - a)
		return -ERANGE;
	for (unsigned i = 0; i < size; i++)
		v |= (u64)__atomic_load_n(&m->host[a + i], __ATOMIC_RELAXED)
		     << (8 * i);
	*e = v;
	return 0;
}

/* 32-bit paging: two levels of 4-byte entries (APM 5.3). */
static int walk32(const struct gmem *m, const struct gpaging *p, u64 la,
		  gpa_t *out)
{
	u64 e;
	int r;

	la &= 0xffffffffULL;
	r = read_entry(m, (p->cr3 & 0xfffff000ULL) + ((la >> 22) << 2), 4, &e);
	if (r)
		return r;
	if (!(e & PTE_P))
		return -EFAULT;
	if ((e & PTE_PS) && (p->cr4 & CR4_PSE)) {
		/* 4 MiB page; PSE-36 puts PA[39:32] in bits 20:13. */
		u64 base = (e & 0xffc00000ULL) | (((e >> 13) & 0xff) << 32);

		*out = gpa(base | (la & 0x3fffff));
		return 0;
	}
	r = read_entry(m, (e & 0xfffff000ULL) + (((la >> 12) & 0x3ff) << 2), 4,
		       &e);
	if (r)
		return r;
	if (!(e & PTE_P))
		return -EFAULT;
	*out = gpa((e & 0xfffff000ULL) | (la & 0xfff));
	return 0;
}

/* 8-byte entries from the top level down: PAE (a PDPT of 4 entries at
 * CR3[31:5], then PD and PT) or long mode (PML5/PML4 at CR3[51:12]). */
static int walk64(const struct gmem *m, const struct gpaging *p, u64 la,
		  gpa_t *out, bool pae)
{
	int levels = pae ? 3 : (p->cr4 & CR4_LA57) ? 5 : 4;
	u64 table, e;

	if (pae) {
		la &= 0xffffffffULL;
		table = p->cr3 & 0xffffffe0ULL;
	} else {
		table = p->cr3 & PTE_ADDR_MASK;
	}
	for (int lvl = levels; lvl >= 1; lvl--) {
		unsigned shift = 12 + 9 * (lvl - 1);
		u64 idx = (la >> shift) & (pae && lvl == 3 ? 3 : 511);
		int r = read_entry(m, table + idx * 8, 8, &e);

		if (r)
			return r;
		if (!(e & PTE_P))
			return -EFAULT;
		/* PAE PDPTEs have no PS bit (it is reserved): APM 5.4.1. */
		if (pae && lvl == 3 && (e & PTE_PS))
			return -EFAULT;
		if (lvl == 1 || (lvl <= 3 && (e & PTE_PS))) {
			u64 mask = (1ULL << shift) - 1;

			*out = gpa((e & PTE_ADDR_MASK & ~mask) | (la & mask));
			return 0;
		}
		if (lvl > 3 && (e & PTE_PS))
			return -EFAULT; /* reserved in PML4E/PML5E */
		table = e & PTE_ADDR_MASK;
	}
	return -EFAULT; /* not reached */
}

int gwalk(const struct gmem *m, const struct gpaging *p, u64 la, gpa_t *out)
{
	if (!(p->cr0 & CR0_PG) || !(p->cr0 & CR0_PE)) {
		/* Paging off: linear is physical, 32 bits wide. */
		*out = gpa(la & 0xffffffffULL);
		return 0;
	}
	if (p->efer & EFER_LMA)
		return walk64(m, p, la, out, false);
	if (p->cr4 & CR4_PAE)
		return walk64(m, p, la, out, true);
	return walk32(m, p, la, out);
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
