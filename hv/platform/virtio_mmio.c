// SPDX-License-Identifier: GPL-2.0-only
/* hv/platform/virtio_mmio.c - the disk's virtio-mmio register window
 * (VIRTIO 1.2 4.2.2, version 2, one queue): identification, feature
 * negotiation, the queue's set-up (checked and frozen at QueueReady),
 * device status and reset. A QueueNotify write carries out the requests
 * the driver made available, synchronously, and the device's I/O APIC
 * input follows InterruptStatus (level: asserted while a bit is set,
 * until InterruptACK clears it). A driver that breaks the queue's rules
 * gets DEVICE_NEEDS_RESET and a configuration interrupt (2.1.2), and no
 * more requests are taken until it resets the device. */
#include "arch/errno.h"
#include "hv/log.h"
#include "hv/platform/platform.h"
#include "lib/string.h"

#define VENDOR_MNHV 0x56484e4d /* "MNHV" */

static void irq_update(struct virtio_blk *d)
{
	platform_set_irq(d->plat, VIRTIO_BLK_GSI, d->isr != 0);
}

static void fail(struct virtio_blk *d, const char *why)
{
	/* Once per run: a driver that breaks the queue again after each
	 * reset cannot flood minhv's console (the count is in the run's
	 * summary, hv/run/run.c). */
	if (!d->breaks++)
		pr_warn("virtio-blk: %s: the device needs a reset\n", why);
	d->broken = why;
	d->status |= VIRTIO_STATUS_NEEDS_RESET;
	d->isr |= VIRTIO_MMIO_INT_CONFIG;
	irq_update(d);
}

static void reset_locked(struct virtio_blk *d)
{
	struct virtq q = { .mem = d->q.mem, .mem_size = d->q.mem_size };

	d->status = d->isr = 0;
	d->dev_features_sel = d->drv_features_sel = d->queue_sel = 0;
	d->drv_features = 0;
	d->broken = NULL;
	d->q = q;
	irq_update(d);
}

void virtio_blk_reset(struct virtio_blk *d)
{
	spin_lock(&d->lock);
	reset_locked(d);
	spin_unlock(&d->lock);
}

void virtio_blk_init(struct virtio_blk *d, struct platform *plat, void *mem,
		     u64 mem_size, void *img, u64 sectors, bool ro)
{
	memset(d, 0, sizeof(*d));
	d->plat = plat;
	d->img = img;
	d->sectors = sectors;
	d->ro = ro;
	d->q.mem = mem;
	d->q.mem_size = mem_size;
}

/* QueueNotify: the available requests, then one interrupt for them. At
 * most a queue's worth: a driver adding more from another vCPU meanwhile
 * notifies again, and one that never stops cannot keep this vCPU here. */
static void notify(struct virtio_blk *d)
{
	const u32 ok = VIRTIO_STATUS_FEATURES_OK | VIRTIO_STATUS_DRIVER_OK;
	const char *why = NULL;
	u32 n, len, k = 0;
	u16 head;
	int r = 0;

	if (!d->q.ready || d->broken || (d->status & ok) != ok)
		return;
	while (k++ < d->q.num &&
	       (r = virtq_pop(&d->q, d->seg, &n, &head, &why)) > 0) {
		if (virtio_blk_request(d, d->seg, n, &len)) {
			r = -EINVAL;
			why = "request without a header or a status byte";
			break;
		}
		virtq_push(&d->q, head, len);
		d->isr |= VIRTIO_MMIO_INT_VRING;
	}
	if (r < 0)
		fail(d, why);
	else
		irq_update(d);
}

static u32 reg_read(struct virtio_blk *d, u64 off)
{
	u64 f = virtio_blk_features(d);

	switch (off) {
	case VIRTIO_MMIO_MAGIC_VALUE:
		return VIRTIO_MMIO_MAGIC;
	case VIRTIO_MMIO_VERSION:
		return VIRTIO_MMIO_VERSION_MODERN;
	case VIRTIO_MMIO_DEVICE_ID:
		return VIRTIO_ID_BLOCK;
	case VIRTIO_MMIO_VENDOR_ID:
		return VENDOR_MNHV;
	case VIRTIO_MMIO_DEVICE_FEATURES:
		return d->dev_features_sel > 1 ?
			       0 :
			       (u32)(f >> (32 * d->dev_features_sel));
	case VIRTIO_MMIO_QUEUE_NUM_MAX:
		return d->queue_sel ? 0 : VIRTIO_BLK_QUEUE_MAX;
	case VIRTIO_MMIO_QUEUE_READY:
		return !d->queue_sel && d->q.ready;
	case VIRTIO_MMIO_INTERRUPT_STATUS:
		return d->isr;
	case VIRTIO_MMIO_STATUS:
		return d->status;
	case VIRTIO_MMIO_SHM_LEN_LOW:
	case VIRTIO_MMIO_SHM_LEN_HIGH:
		return ~0u; /* no shared memory region */
	default: /* ConfigGeneration 0: the configuration never changes */
		return 0;
	}
}

/* A half of a 64-bit queue address, or QueueNum: only while the queue
 * is not ready (4.2.3.2), so what virtq_check() saw stays true. */
static void queue_set(struct virtio_blk *d, u64 off, u32 val)
{
	static const u16 lo[] = { VIRTIO_MMIO_QUEUE_DESC_LOW,
				  VIRTIO_MMIO_QUEUE_DRIVER_LOW,
				  VIRTIO_MMIO_QUEUE_DEVICE_LOW };
	u64 *a[] = { &d->q.desc, &d->q.avail, &d->q.used };

	if (d->queue_sel || d->q.ready)
		return;
	if (off == VIRTIO_MMIO_QUEUE_NUM)
		d->q.num = val;
	for (unsigned i = 0; i < 3; i++) {
		if (off == lo[i])
			*a[i] = (*a[i] & ~0xffffffffULL) | val;
		else if (off == lo[i] + 4u)
			*a[i] = (*a[i] & 0xffffffffULL) | (u64)val << 32;
	}
}

static void status_write(struct virtio_blk *d, u32 val)
{
	u64 f = virtio_blk_features(d);

	if (!val) {
		reset_locked(d);
		return;
	}
	/* 2.2.2, 6.1: FEATURES_OK only for a subset of the offer that
	 * includes VERSION_1 (a legacy driver gets no device). */
	if ((val & VIRTIO_STATUS_FEATURES_OK) &&
	    !(d->status & VIRTIO_STATUS_FEATURES_OK) &&
	    ((d->drv_features & ~f) || !(d->drv_features & VIRTIO_F_VERSION_1)))
		val &= ~VIRTIO_STATUS_FEATURES_OK;
	d->status = (val & 0xff) | (d->status & VIRTIO_STATUS_NEEDS_RESET);
}

static void reg_write(struct virtio_blk *d, u64 off, u32 val)
{
	const char *why;

	switch (off) {
	case VIRTIO_MMIO_DEVICE_FEATURES_SEL:
		d->dev_features_sel = val;
		break;
	case VIRTIO_MMIO_DRIVER_FEATURES_SEL:
		d->drv_features_sel = val;
		break;
	case VIRTIO_MMIO_DRIVER_FEATURES:
		/* Fixed once FEATURES_OK is set (3.1.1). */
		if (d->drv_features_sel > 1 ||
		    (d->status & VIRTIO_STATUS_FEATURES_OK))
			break;
		d->drv_features &=
			~(0xffffffffULL << (32 * d->drv_features_sel));
		d->drv_features |= (u64)val << (32 * d->drv_features_sel);
		break;
	case VIRTIO_MMIO_QUEUE_SEL:
		d->queue_sel = val;
		break;
	case VIRTIO_MMIO_QUEUE_READY:
		if (d->queue_sel)
			break;
		if (!(val & 1)) {
			d->q.ready = false;
			break;
		}
		if (d->q.ready)
			break;
		if (virtq_check(&d->q, VIRTIO_BLK_QUEUE_MAX, &why)) {
			fail(d, why);
			break;
		}
		d->q.last_avail = d->q.used_idx = 0;
		d->q.ready = true;
		break;
	case VIRTIO_MMIO_QUEUE_NOTIFY:
		if (!val)
			notify(d);
		break;
	case VIRTIO_MMIO_INTERRUPT_ACK:
		d->isr &= ~val;
		irq_update(d);
		break;
	case VIRTIO_MMIO_STATUS:
		status_write(d, val);
		break;
	default:
		queue_set(d, off, val);
		break;
	}
}

/* 4.2.2.2: the control registers take aligned 32-bit accesses only
 * (others read 0 and are dropped, as QEMU does); the configuration space
 * takes each field's own width. */
static int vmmio_read(void *dev, u64 off, unsigned size, u64 *val)
{
	struct virtio_blk *d = dev;

	spin_lock(&d->lock);
	if (off >= VIRTIO_MMIO_CONFIG)
		*val = virtio_blk_config(d, off - VIRTIO_MMIO_CONFIG, size);
	else
		*val = size == 4 && !(off & 3) ? reg_read(d, off) : 0;
	spin_unlock(&d->lock);
	return 0;
}

static int vmmio_write(void *dev, u64 off, unsigned size, u64 val)
{
	struct virtio_blk *d = dev;

	spin_lock(&d->lock);
	if (off < VIRTIO_MMIO_CONFIG && size == 4 && !(off & 3))
		reg_write(d, off, (u32)val);
	spin_unlock(&d->lock); /* the configuration space is read-only */
	return 0;
}

const struct mmio_ops virtio_mmio_ops = { vmmio_read, vmmio_write };
