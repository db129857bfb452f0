// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/virtio_blk.c - the block device behind the virtio-mmio
 * window (VIRTIO 1.2 5.2): its features and configuration space, and one
 * request at a time (IN, OUT, FLUSH, GET_ID) between a checked descriptor
 * chain (virtq.c) and the disk image in host memory. Writes change that
 * copy only: they last until the run ends, and the file on the ESP is
 * never written (docs/GUESTS.md "The virtio disk"). */
#include "arch/errno.h"
#include "hv/platform/virtio.h"
#include "lib/string.h"

u64 virtio_blk_features(const struct virtio_blk *d)
{
	/* FLUSH: the driver may send flushes (they complete at once: the
	 * image is memory); SEG_MAX: a request fits the queue. */
	return VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_SEG_MAX |
	       VIRTIO_BLK_F_BLK_SIZE | VIRTIO_BLK_F_FLUSH |
	       (d->ro ? VIRTIO_BLK_F_RO : 0);
}

u64 virtio_blk_config(const struct virtio_blk *d, u64 off, unsigned size)
{
	const struct virtio_blk_config c = {
		.capacity = d->sectors,
		.seg_max = VIRTIO_BLK_SEG_MAX,
		.blk_size = VIRTIO_BLK_SECTOR_SIZE,
	};
	u64 v = 0;

	for (unsigned i = 0; i < size && off + i < sizeof(c); i++)
		v |= (u64)((const u8 *)&c)[off + i] << (8 * i);
	return v;
}

/* Copy len bytes between the image at byte pos and the chain's readable
 * (out: to the image) or writable (to the guest) bytes from skip on. */
static void xfer(const struct virtio_blk *d, const struct virtq_seg *s, u32 n,
		 bool out, u64 skip, u8 *img, u64 len)
{
	for (u32 i = 0; i < n && len; i++) {
		u8 *g = d->q.mem + s[i].gpa;
		u64 c = s[i].len;

		if (s[i].write == out)
			continue;
		if (skip >= c) {
			skip -= c;
			continue;
		}
		g += skip;
		c -= skip;
		skip = 0;
		if (c > len)
			c = len;
		if (out)
			memcpy(img, g, c);
		else
			memcpy(g, img, c);
		img += c;
		len -= c;
	}
}

/* Is [sector, sector + bytes / 512) on the disk, bytes whole sectors (and
 * few enough that the used ring's 32-bit length can count them)? */
static bool on_disk(const struct virtio_blk *d, u64 sector, u64 bytes)
{
	return !(bytes % VIRTIO_BLK_SECTOR_SIZE) && bytes < BIT(31) &&
	       sector <= d->sectors &&
	       bytes / VIRTIO_BLK_SECTOR_SIZE <= d->sectors - sector;
}

int virtio_blk_request(struct virtio_blk *d, const struct virtq_seg *seg, u32 n,
		       u32 *written)
{
	struct virtio_blk_req_hdr h;
	u8 id[VIRTIO_BLK_ID_BYTES] = VIRTIO_BLK_ID;
	u64 in = 0, out = 0, pos, c;
	u8 st = VIRTIO_BLK_S_OK;

	for (u32 i = 0; i < n; i++) {
		if (seg[i].write)
			in += seg[i].len;
		else
			out += seg[i].len;
	}
	/* 5.2.6: a readable header and a writable status byte at least. */
	if (out < sizeof(h) || !in)
		return -EINVAL;
	xfer(d, seg, n, true, 0, (u8 *)&h, sizeof(h));
	out -= sizeof(h);
	in -= 1; /* the data before the status byte */
	*written = 1;
	pos = h.sector * VIRTIO_BLK_SECTOR_SIZE;
	switch (h.type) {
	case VIRTIO_BLK_T_IN:
		if (!on_disk(d, h.sector, in)) {
			st = VIRTIO_BLK_S_IOERR;
			break;
		}
		xfer(d, seg, n, false, 0, d->img + pos, in);
		*written += (u32)in;
		d->reads++;
		break;
	case VIRTIO_BLK_T_OUT:
		if (d->ro || !on_disk(d, h.sector, out)) {
			st = VIRTIO_BLK_S_IOERR;
			break;
		}
		xfer(d, seg, n, true, sizeof(h), d->img + pos, out);
		d->writes++;
		break;
	case VIRTIO_BLK_T_FLUSH:
		d->flushes++;
		break;
	case VIRTIO_BLK_T_GET_ID:
		c = in < sizeof(id) ? in : sizeof(id);
		xfer(d, seg, n, false, 0, id, c);
		*written += (u32)c;
		break;
	default:
		st = VIRTIO_BLK_S_UNSUPP;
		break;
	}
	if (st != VIRTIO_BLK_S_OK)
		d->errors++;
	/* The status byte: the last writable byte of the chain. */
	xfer(d, seg, n, false, in, &st, 1);
	return 0;
}
