// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/virtq.c - split virtqueues (VIRTIO 1.2 2.7) read from guest
 * memory by the device side. The guest owns the rings and may change them
 * under us from another vCPU, so every field is read once into a local
 * and checked there: a ring index against the queue size, a descriptor's
 * buffer against guest memory (no wrap), a chain's length against the
 * queue size (a loop ends there). Nothing outside [0, mem_size) is ever
 * read or written. */
#include "arch/errno.h"
#include "hv/platform/virtio.h"

/* Is [gpa, gpa + len) inside guest memory, without wrapping? */
static bool in_mem(const struct virtq *q, u64 gpa, u64 len)
{
	return len <= q->mem_size && gpa <= q->mem_size - len;
}

static int area(const struct virtq *q, u64 gpa, u64 len, u64 align,
		const char *what, const char **why)
{
	if (!IS_ALIGNED(gpa, align) || !in_mem(q, gpa, len)) {
		*why = what;
		return -EINVAL;
	}
	return 0;
}

int virtq_check(const struct virtq *q, u32 max, const char **why)
{
	/* 2.7: a split queue's size is a power of two; 4.2.2: at most
	 * QueueNumMax. */
	if (!q->num || q->num > max || (q->num & (q->num - 1))) {
		*why = "queue size 0, above QueueNumMax or not a power of two";
		return -EINVAL;
	}
	/* 2.7 Table 2.3: the areas' alignment and sizes. */
	if (area(q, q->desc, q->num * sizeof(struct virtq_desc),
		 VIRTQ_DESC_ALIGN,
		 "descriptor table misaligned or outside guest memory", why) ||
	    area(q, q->avail, VIRTQ_AVAIL_SIZE(q->num), VIRTQ_AVAIL_ALIGN,
		 "available ring misaligned or outside guest memory", why) ||
	    area(q, q->used, VIRTQ_USED_SIZE(q->num), VIRTQ_USED_ALIGN,
		 "used ring misaligned or outside guest memory", why))
		return -EINVAL;
	return 0;
}

static u16 load16(const struct virtq *q, u64 gpa)
{
	return __atomic_load_n((const u16 *)(q->mem + gpa), __ATOMIC_ACQUIRE);
}

int virtq_pop(struct virtq *q, struct virtq_seg *seg, u32 *n, u16 *head,
	      const char **why)
{
	/* 2.7.13.3: the driver publishes idx after the ring entries and
	 * descriptors (acquire: read them after it). */
	u16 idx = load16(q, q->avail + VIRTQ_AVAIL_IDX);
	u16 i, flags;
	u32 k = 0;

	if (idx == q->last_avail)
		return 0;
	if ((u16)(idx - q->last_avail) > q->num) {
		*why = "available index more than the queue size ahead";
		return -EINVAL;
	}
	i = load16(q, q->avail + VIRTQ_AVAIL_RING +
			      2 * (q->last_avail & (q->num - 1)));
	*head = i;
	do {
		const volatile struct virtq_desc *d;
		u64 addr;
		u32 len;

		/* 2.7.5.2: a chain is never longer than the queue: one that
		 * is has a loop. */
		if (i >= q->num || k == q->num) {
			*why = i >= q->num ?
				       "descriptor index out of range" :
				       "descriptor chain longer than the queue (a loop)";
			return -EINVAL;
		}
		d = (const volatile void *)(q->mem + q->desc +
					    i * sizeof(struct virtq_desc));
		addr = d->addr;
		len = d->len;
		flags = d->flags;
		i = d->next;
		if (flags & VIRTQ_DESC_F_INDIRECT) {
			*why = "indirect descriptor (not negotiated)";
			return -EINVAL;
		}
		if (!in_mem(q, addr, len)) {
			*why = "descriptor buffer outside guest memory";
			return -EINVAL;
		}
		/* 2.7.4.2: device-writable descriptors come last. */
		if (k && seg[k - 1].write && !(flags & VIRTQ_DESC_F_WRITE)) {
			*why = "device-readable descriptor after a writable one";
			return -EINVAL;
		}
		seg[k++] = (struct virtq_seg){ addr, len,
					       flags & VIRTQ_DESC_F_WRITE };
	} while (flags & VIRTQ_DESC_F_NEXT);
	q->last_avail++;
	*n = k;
	return 1;
}

void virtq_push(struct virtq *q, u16 head, u32 len)
{
	volatile struct virtq_used_elem *e =
		(volatile void *)(q->mem + q->used + VIRTQ_USED_RING +
				  sizeof(*e) * (q->used_idx & (q->num - 1)));

	e->id = head;
	e->len = len;
	q->used_idx++;
	/* 2.7.8.2: the entry is visible before the index that hands it over. */
	__atomic_store_n((u16 *)(q->mem + q->used + VIRTQ_USED_IDX),
			 q->used_idx, __ATOMIC_RELEASE);
}
