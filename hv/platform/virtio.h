/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/platform/virtio.h - the guest's disk: a virtio-mmio (version 2)
 * block device backed by the disk= image in host memory (docs/GUESTS.md
 * "The virtio disk"). virtq.c reads split virtqueues from guest memory,
 * every address and length checked against it; virtio_blk.c carries out
 * block requests; virtio_mmio.c is the register window, which processes a
 * queue synchronously when the guest writes QueueNotify and raises the
 * device's I/O APIC input while InterruptStatus is not 0. */
#ifndef MINHV_HV_PLATFORM_VIRTIO_H
#define MINHV_HV_PLATFORM_VIRTIO_H

#include "arch/spinlock.h"
#include "arch/types.h"
#include "arch/virtio_regs.h"
#include "hv/emul/mmio.h"

struct platform;

/* Where the platform puts the disk: the window QEMU's microvm gives its
 * first virtio-mmio slot (below the I/O APIC, outside guest RAM, which
 * ends below 3 GiB), and an I/O APIC input above the ISA IRQs, level
 * triggered, active high, as the DSDT's _CRS says. */
#define VIRTIO_BLK_GPA 0xfeb00000ULL
#define VIRTIO_BLK_GSI 16
#define VIRTIO_BLK_QUEUE_MAX 128 /* QueueNumMax */
#define VIRTIO_BLK_SEG_MAX (VIRTIO_BLK_QUEUE_MAX - 2) /* header, status */
#define VIRTIO_BLK_ID "minhv-disk" /* GET_ID: the serial number */

/* A split virtqueue (VIRTIO 1.2 2.7) in guest memory [0, mem_size) at
 * mem: sizes and areas as the driver wrote them, frozen and checked when
 * it sets QueueReady; the indices are the device's own, never read back
 * from the rings (the guest may scribble on them). */
struct virtq {
	u8 *mem;
	u64 mem_size;
	u32 num; /* QueueNum */
	bool ready;
	u64 desc, avail, used; /* guest-physical */
	u16 last_avail; /* the next available ring entry to take */
	u16 used_idx; /* the next used ring entry to fill */
};

/* One descriptor of a chain, checked: [gpa, gpa + len) is guest memory. */
struct virtq_seg {
	u64 gpa;
	u32 len;
	bool write; /* device-writable */
};

/* Check q's size and areas against its guest memory: 0, or -EINVAL
 * (size 0, not a power of two or above max; an area misaligned, wrapping
 * or outside guest memory) with the reason in *why. */
int virtq_check(const struct virtq *q, u32 max, const char **why);
/* Take the next available chain (q ready and checked): 1 with its head
 * index and its descriptors in seg[0..*n) (at most q->num, readable ones
 * first), 0 when none is available, or -EINVAL with the reason in *why
 * when the driver broke the queue's rules (index out of range, a chain
 * longer than the queue, a buffer outside guest memory, an indirect
 * descriptor): nothing of the chain was touched, and the queue should
 * not be used again before a reset. */
int virtq_pop(struct virtq *q, struct virtq_seg *seg, u32 *n, u16 *head,
	      const char **why);
/* Return chain head to the driver with len bytes written into it. */
void virtq_push(struct virtq *q, u16 head, u32 len);

struct virtio_blk {
	spinlock_t lock; /* every register access, QueueNotify's work too */
	struct platform *plat; /* whose I/O APIC input (VIRTIO_BLK_GSI) */
	u8 *img; /* the disk image, in host memory */
	u64 sectors; /* capacity: whole 512-byte sectors */
	bool ro; /* VIRTIO_BLK_F_RO: OUT requests fail */
	u32 status, isr;
	u32 dev_features_sel, drv_features_sel, queue_sel;
	u64 drv_features;
	const char *broken; /* why the device needs a reset, or NULL */
	u32 breaks; /* times it did (warned about the first only) */
	struct virtq q;
	u64 reads, writes, flushes, errors; /* requests completed */
	struct virtq_seg seg[VIRTIO_BLK_QUEUE_MAX]; /* the chain in hand */
};

/* The device at power-on: guest memory [0, mem_size) at mem, the image's
 * first sectors * 512 bytes at img. */
void virtio_blk_init(struct virtio_blk *d, struct platform *plat, void *mem,
		     u64 mem_size, void *img, u64 sectors, bool ro);
/* The device as a reset leaves it (status 0, no queue, the line low):
 * the driver's status 0, or the platform's reset (a guest reboot). The
 * image keeps what was written. */
void virtio_blk_reset(struct virtio_blk *d);
/* Features offered (VIRTIO_F_VERSION_1 and the block device's). */
u64 virtio_blk_features(const struct virtio_blk *d);
/* Configuration space bytes [off, off + size) (little-endian), 0 beyond
 * struct virtio_blk_config. */
u64 virtio_blk_config(const struct virtio_blk *d, u64 off, unsigned size);
/* Carry out the request in seg[0..n): 0 and *written, the bytes written
 * into its device-writable part (data and the status byte), or -EINVAL
 * when it has no room for the header or the status byte. */
int virtio_blk_request(struct virtio_blk *d, const struct virtq_seg *seg, u32 n,
		       u32 *written);
/* The register window (VIRTIO_MMIO_SIZE bytes): dev is a virtio_blk. */
extern const struct mmio_ops virtio_mmio_ops;

#endif
