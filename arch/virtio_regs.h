/* SPDX-License-Identifier: GPL-2.0-only */
/* arch/virtio_regs.h - the virtio 1.x device ABI minhv's disk speaks (OASIS
 * VIRTIO 1.2): the virtio-mmio transport registers (4.2.2, version 2),
 * device status and feature bits (2.1, 2.2, 6), the split virtqueue
 * layouts (2.7) and the block device's requests and configuration (5.2).
 * Only constants and layouts, as fw_cfg_regs.h is for QEMU's fw_cfg: the
 * device a guest sees (hv/platform/virtio_*.c) includes them, and so
 * would a driver. Everything is little-endian, as on x86. */
#ifndef MINHV_ARCH_VIRTIO_REGS_H
#define MINHV_ARCH_VIRTIO_REGS_H

#include <stddef.h>

#include "arch/types.h"

/* 4.2.2 MMIO device register layout (offsets; 32-bit registers). */
#define VIRTIO_MMIO_MAGIC_VALUE 0x000
#define VIRTIO_MMIO_VERSION 0x004
#define VIRTIO_MMIO_DEVICE_ID 0x008
#define VIRTIO_MMIO_VENDOR_ID 0x00c
#define VIRTIO_MMIO_DEVICE_FEATURES 0x010
#define VIRTIO_MMIO_DEVICE_FEATURES_SEL 0x014
#define VIRTIO_MMIO_DRIVER_FEATURES 0x020
#define VIRTIO_MMIO_DRIVER_FEATURES_SEL 0x024
#define VIRTIO_MMIO_QUEUE_SEL 0x030
#define VIRTIO_MMIO_QUEUE_NUM_MAX 0x034
#define VIRTIO_MMIO_QUEUE_NUM 0x038
#define VIRTIO_MMIO_QUEUE_READY 0x044
#define VIRTIO_MMIO_QUEUE_NOTIFY 0x050
#define VIRTIO_MMIO_INTERRUPT_STATUS 0x060
#define VIRTIO_MMIO_INTERRUPT_ACK 0x064
#define VIRTIO_MMIO_STATUS 0x070
#define VIRTIO_MMIO_QUEUE_DESC_LOW 0x080
#define VIRTIO_MMIO_QUEUE_DESC_HIGH 0x084
#define VIRTIO_MMIO_QUEUE_DRIVER_LOW 0x090 /* the available ring */
#define VIRTIO_MMIO_QUEUE_DRIVER_HIGH 0x094
#define VIRTIO_MMIO_QUEUE_DEVICE_LOW 0x0a0 /* the used ring */
#define VIRTIO_MMIO_QUEUE_DEVICE_HIGH 0x0a4
#define VIRTIO_MMIO_SHM_SEL 0x0ac
#define VIRTIO_MMIO_SHM_LEN_LOW 0x0b0 /* all ones: no such region */
#define VIRTIO_MMIO_SHM_LEN_HIGH 0x0b4
#define VIRTIO_MMIO_SHM_BASE_LOW 0x0b8
#define VIRTIO_MMIO_SHM_BASE_HIGH 0x0bc
#define VIRTIO_MMIO_QUEUE_RESET 0x0c0
#define VIRTIO_MMIO_CONFIG_GENERATION 0x0fc
#define VIRTIO_MMIO_CONFIG 0x100 /* device-specific configuration */
#define VIRTIO_MMIO_SIZE 0x200 /* one device's window */

#define VIRTIO_MMIO_MAGIC 0x74726976 /* "virt" */
#define VIRTIO_MMIO_VERSION_MODERN 2
/* InterruptStatus / InterruptACK bits. */
#define VIRTIO_MMIO_INT_VRING BIT(0) /* used buffer notification */
#define VIRTIO_MMIO_INT_CONFIG BIT(1) /* configuration change */

/* 5 Device types. */
#define VIRTIO_ID_BLOCK 2

/* 2.1 Device status field. */
#define VIRTIO_STATUS_ACKNOWLEDGE BIT(0)
#define VIRTIO_STATUS_DRIVER BIT(1)
#define VIRTIO_STATUS_DRIVER_OK BIT(2)
#define VIRTIO_STATUS_FEATURES_OK BIT(3)
#define VIRTIO_STATUS_NEEDS_RESET BIT(6)
#define VIRTIO_STATUS_FAILED BIT(7)

/* 6 Reserved feature bits (the transport's), and 5.2.3 the block
 * device's. */
#define VIRTIO_F_VERSION_1 BIT(32)
#define VIRTIO_BLK_F_SEG_MAX BIT(2)
#define VIRTIO_BLK_F_RO BIT(5)
#define VIRTIO_BLK_F_BLK_SIZE BIT(6)
#define VIRTIO_BLK_F_FLUSH BIT(9)

/* 2.7.5 The virtqueue descriptor table: 16 bytes each, 16-byte aligned. */
struct virtq_desc {
	u64 addr; /* 0: guest-physical */
	u32 len; /* 8 */
	u16 flags; /* 12: VIRTQ_DESC_F_* */
	u16 next; /* 14: with F_NEXT, the next descriptor's index */
};
_Static_assert(offsetof(struct virtq_desc, addr) == 0, "desc addr");
_Static_assert(offsetof(struct virtq_desc, len) == 8, "desc len");
_Static_assert(offsetof(struct virtq_desc, flags) == 12, "desc flags");
_Static_assert(offsetof(struct virtq_desc, next) == 14, "desc next");
_Static_assert(sizeof(struct virtq_desc) == 16, "desc size");

#define VIRTQ_DESC_F_NEXT BIT(0)
#define VIRTQ_DESC_F_WRITE BIT(1) /* device-writable (else device-readable) */
#define VIRTQ_DESC_F_INDIRECT BIT(2)

/* 2.7.6 The available ring (driver area), 2-byte aligned: flags, idx,
 * ring[num], used_event; 2.7.8 the used ring (device area), 4-byte
 * aligned: flags, idx, ring[num] of { id, len }, avail_event. */
#define VIRTQ_AVAIL_FLAGS 0
#define VIRTQ_AVAIL_IDX 2
#define VIRTQ_AVAIL_RING 4 /* u16 ring[num] */
#define VIRTQ_AVAIL_SIZE(num) (6 + 2 * (u64)(num))
#define VIRTQ_AVAIL_ALIGN 2
#define VIRTQ_AVAIL_F_NO_INTERRUPT BIT(0)
struct virtq_used_elem {
	u32 id; /* 0: the chain's head descriptor */
	u32 len; /* 4: bytes written into the chain */
};
_Static_assert(offsetof(struct virtq_used_elem, len) == 4, "used len");
_Static_assert(sizeof(struct virtq_used_elem) == 8, "used elem size");
#define VIRTQ_USED_FLAGS 0
#define VIRTQ_USED_IDX 2
#define VIRTQ_USED_RING 4 /* struct virtq_used_elem ring[num] */
#define VIRTQ_USED_SIZE(num) (6 + 8 * (u64)(num))
#define VIRTQ_USED_ALIGN 4
#define VIRTQ_DESC_ALIGN 16
#define VIRTQ_NUM_LIMIT 32768 /* 2.7: a split queue's largest size */

/* 5.2.6 Block device requests: a device-readable header, the data, and a
 * device-writable status byte last. */
struct virtio_blk_req_hdr {
	u32 type; /* 0: VIRTIO_BLK_T_* */
	u32 reserved; /* 4 */
	u64 sector; /* 8: in 512-byte units, whatever blk_size says */
};
_Static_assert(offsetof(struct virtio_blk_req_hdr, sector) == 8, "sector");
_Static_assert(sizeof(struct virtio_blk_req_hdr) == 16, "blk hdr size");

#define VIRTIO_BLK_T_IN 0
#define VIRTIO_BLK_T_OUT 1
#define VIRTIO_BLK_T_FLUSH 4
#define VIRTIO_BLK_T_GET_ID 8
#define VIRTIO_BLK_S_OK 0
#define VIRTIO_BLK_S_IOERR 1
#define VIRTIO_BLK_S_UNSUPP 2
#define VIRTIO_BLK_ID_BYTES 20 /* GET_ID: the serial, NUL-padded */
#define VIRTIO_BLK_SECTOR_SIZE 512

/* 5.2.4 Device configuration layout (as far as minhv's features go). */
struct virtio_blk_config {
	u64 capacity; /* 0: in 512-byte sectors */
	u32 size_max; /* 8: F_SIZE_MAX */
	u32 seg_max; /* 12: F_SEG_MAX */
	u16 cylinders; /* 16: F_GEOMETRY */
	u8 heads; /* 18 */
	u8 sectors; /* 19 */
	u32 blk_size; /* 20: F_BLK_SIZE */
} __attribute__((packed));
_Static_assert(offsetof(struct virtio_blk_config, size_max) == 8, "size_max");
_Static_assert(offsetof(struct virtio_blk_config, seg_max) == 12, "seg_max");
_Static_assert(offsetof(struct virtio_blk_config, blk_size) == 20, "blk_size");
_Static_assert(sizeof(struct virtio_blk_config) == 24, "blk config size");

#endif
