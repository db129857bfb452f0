/* hv/svm/npt.c - build, walk and free 4-level nested page tables (APM vol 2,
 * 15.25: long-mode format, U/S=1 at every level, PS for 1G/2M leaves). */
#include "hv/svm/npt.h"
#include "hv/mm.h"

#define ENTRIES 512
#define FLAGS (NPTE_P | NPTE_RW | NPTE_US)

static u64 *table(u64 e)
{
	return hpa_to_ptr(hpa(e & NPTE_ADDR));
}

static unsigned idx(u64 g, unsigned shift)
{
	return (g >> shift) & (ENTRIES - 1);
}

/* Install one leaf of size 1 << shift, creating tables on the way. */
static int map_one(struct npt *n, u64 g, u64 h, unsigned shift)
{
	u64 *t = hpa_to_ptr(n->root);

	for (unsigned s = 39; s > shift; s -= 9) {
		u64 *e = &t[idx(g, s)];

		if (!(*e & NPTE_P)) {
			hpa_t p = page_alloc(1, 1);

			if (!p.v)
				return -1;
			n->table_pages++;
			*e = p.v | FLAGS;
		}
		t = table(*e);
	}
	t[idx(g, shift)] = h | FLAGS | (shift > 12 ? NPTE_PS : 0);
	return 0;
}

static unsigned leaf_shift(u64 g, u64 h, u64 left, bool allow_1g)
{
	if (allow_1g && IS_ALIGNED(g | h, SZ_1G) && left >= SZ_1G)
		return 30;
	if (IS_ALIGNED(g | h, SZ_2M) && left >= SZ_2M)
		return 21;
	return 12;
}

int npt_build(struct npt *n, hpa_t base, u64 size, bool allow_1g)
{
	*n = (struct npt){ 0 };
	if (!size || !IS_ALIGNED(size | base.v, PAGE_SIZE))
		return -1;
	n->root = page_alloc(1, 1);
	if (!n->root.v)
		return -1;
	n->table_pages = 1;
	for (u64 g = 0; g < size;) {
		unsigned s = leaf_shift(g, base.v + g, size - g, allow_1g);

		if (map_one(n, g, base.v + g, s)) {
			npt_destroy(n);
			return -1;
		}
		if (s == 30)
			n->n1g++;
		else if (s == 21)
			n->n2m++;
		else
			n->n4k++;
		g += 1ULL << s;
	}
	return 0;
}

static void free_level(u64 *t, unsigned shift, u64 *freed)
{
	for (unsigned i = 0; shift > 12 && i < ENTRIES; i++) {
		if ((t[i] & NPTE_P) && !(t[i] & NPTE_PS))
			free_level(table(t[i]), shift - 9, freed);
	}
	page_free(ptr_to_hpa(t), 1);
	(*freed)++;
}

void npt_destroy(struct npt *n)
{
	u64 freed = 0;

	if (n->root.v)
		free_level(hpa_to_ptr(n->root), 39, &freed);
	*n = (struct npt){ 0 };
}

bool npt_lookup(const struct npt *n, gpa_t g, hpa_t *out, u64 *psize)
{
	u64 *t = hpa_to_ptr(n->root);

	if (!n->root.v)
		return false;
	for (unsigned s = 39;; s -= 9) {
		u64 e = t[idx(g.v, s)];

		if (!(e & NPTE_P))
			return false;
		if (s == 12 || (e & NPTE_PS)) {
			u64 sz = 1ULL << s;

			*out = hpa((e & NPTE_ADDR & ~(sz - 1)) |
				   (g.v & (sz - 1)));
			*psize = sz;
			return true;
		}
		t = table(e);
	}
}
