// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_virtio.c - the virtio disk (hv/platform/virtio_*.c,
 * virtq.c) driven through its register window as Linux's virtio_mmio and
 * virtio_blk drive it, on a fake guest memory and disk image, each with
 * guard bytes on both sides: the registers, a full request round trip
 * (write and read sectors, flush, get-id, errors), and hostile queues
 * (loops, addresses and lengths outside memory or wrapping, bad sizes,
 * notifies before the queue is ready), each refused without a byte
 * outside the guest, or of the image, written. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hv/platform/platform.h"
#include "tests/doubles/fake_console.h"

#define MEM 0x10000ULL /* guest memory */
#define GUARD 4096 /* bytes of 0xa5 before and after memory and image */
#define SECTORS 64
#define IMG (SECTORS * 512ULL)
#define NUM 16
#define DESC (MEM - 16 * NUM) /* at the top: an index past it is outside */
#define AVAIL 0x2000ULL
#define USED 0x3000ULL
#define HDR 0x4000ULL /* request headers */
#define STS 0x5000ULL /* status bytes */
#define BUF 0x6000ULL /* data */
#define POISON 0xa5

static u8 *mem_block, *img_block, *mem, *img;
static struct virtio_blk *d;
static int irq_level = -1; /* the last level set, -1: never */
static u32 irq_gsi, irq_calls;

/* Double of hv/platform/irq.c: the I/O APIC input the device drives. */
void platform_set_irq(struct platform *p, u32 irq, bool level)
{
	assert_ptr_equal(p, (struct platform *)d);
	irq_gsi = irq;
	irq_level = level;
	irq_calls++;
}

static int setup(void **state)
{
	(void)state;
	mem_block = malloc(MEM + 2 * GUARD);
	img_block = malloc(IMG + 2 * GUARD);
	d = calloc(1, sizeof(*d));
	memset(mem_block, POISON, MEM + 2 * GUARD);
	memset(img_block, POISON, IMG + 2 * GUARD);
	mem = mem_block + GUARD;
	img = img_block + GUARD;
	memset(mem, 0, MEM);
	for (u64 i = 0; i < IMG; i++)
		img[i] = (u8)(i * 7 + i / 512);
	/* The platform pointer is only handed back to platform_set_irq(). */
	virtio_blk_init(d, (struct platform *)d, mem, MEM, img, SECTORS, false);
	irq_level = -1;
	irq_calls = 0;
	fake_console_clear();
	return 0;
}

static bool guards_intact(void)
{
	for (u64 i = 0; i < GUARD; i++)
		if (mem_block[i] != POISON ||
		    mem_block[GUARD + MEM + i] != POISON ||
		    img_block[i] != POISON ||
		    img_block[GUARD + IMG + i] != POISON)
			return false;
	return true;
}

static int teardown(void **state)
{
	(void)state;
	assert_true(guards_intact());
	free(mem_block);
	free(img_block);
	free(d);
	return 0;
}

static u32 rd(u64 off)
{
	u64 v = 0xdeadbeef;

	assert_int_equal(virtio_mmio_ops.read(d, off, 4, &v), 0);
	return (u32)v;
}

static void wr(u64 off, u32 v)
{
	assert_int_equal(virtio_mmio_ops.write(d, off, 4, v), 0);
}

/* Linux's virtio_mmio probe and virtio_blk set-up: reset, ACK, DRIVER,
 * features, FEATURES_OK, the queue (num, areas, ready), DRIVER_OK. */
static void driver_up(u32 num, u64 desc, u64 avail, u64 used)
{
	wr(VIRTIO_MMIO_STATUS, 0);
	wr(VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE);
	wr(VIRTIO_MMIO_STATUS,
	   VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER);
	wr(VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
	wr(VIRTIO_MMIO_DRIVER_FEATURES, 1); /* VERSION_1 */
	wr(VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
	wr(VIRTIO_MMIO_DRIVER_FEATURES,
	   (u32)(VIRTIO_BLK_F_SEG_MAX | VIRTIO_BLK_F_FLUSH));
	wr(VIRTIO_MMIO_STATUS, VIRTIO_STATUS_ACKNOWLEDGE |
				       VIRTIO_STATUS_DRIVER |
				       VIRTIO_STATUS_FEATURES_OK);
	assert_true(rd(VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_FEATURES_OK);
	wr(VIRTIO_MMIO_QUEUE_SEL, 0);
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_READY), 0);
	wr(VIRTIO_MMIO_QUEUE_NUM, num);
	wr(VIRTIO_MMIO_QUEUE_DESC_LOW, (u32)desc);
	wr(VIRTIO_MMIO_QUEUE_DESC_HIGH, (u32)(desc >> 32));
	wr(VIRTIO_MMIO_QUEUE_DRIVER_LOW, (u32)avail);
	wr(VIRTIO_MMIO_QUEUE_DRIVER_HIGH, (u32)(avail >> 32));
	wr(VIRTIO_MMIO_QUEUE_DEVICE_LOW, (u32)used);
	wr(VIRTIO_MMIO_QUEUE_DEVICE_HIGH, (u32)(used >> 32));
	wr(VIRTIO_MMIO_QUEUE_READY, 1);
	wr(VIRTIO_MMIO_STATUS,
	   VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER |
		   VIRTIO_STATUS_FEATURES_OK | VIRTIO_STATUS_DRIVER_OK);
}

static void set_desc(u16 i, u64 addr, u32 len, u16 flags, u16 next)
{
	struct virtq_desc x = { addr, len, flags, next };

	memcpy(mem + DESC + 16 * i, &x, sizeof(x));
}

static u16 avail_idx(void)
{
	u16 v;

	memcpy(&v, mem + AVAIL + VIRTQ_AVAIL_IDX, 2);
	return v;
}

/* Offer chain head in the next available slot (no notify yet). */
static void offer(u16 head)
{
	u16 idx = avail_idx();

	memcpy(mem + AVAIL + VIRTQ_AVAIL_RING + 2 * (idx % NUM), &head, 2);
	idx++;
	memcpy(mem + AVAIL + VIRTQ_AVAIL_IDX, &idx, 2);
}

static u16 used_idx(void)
{
	u16 v;

	memcpy(&v, mem + USED + VIRTQ_USED_IDX, 2);
	return v;
}

static struct virtq_used_elem used_elem(u16 i)
{
	struct virtq_used_elem e;

	memcpy(&e, mem + USED + VIRTQ_USED_RING + 8 * (i % NUM), sizeof(e));
	return e;
}

static void put_hdr(u64 gpa, u32 type, u64 sector)
{
	struct virtio_blk_req_hdr h = { type, 0, sector };

	memcpy(mem + gpa, &h, sizeof(h));
}

/* A three-descriptor request as Linux builds it (header, data, status)
 * at descriptors 3 * slot..: data device-writable for IN and GET_ID. */
static u16 request(unsigned slot, u32 type, u64 sector, u64 buf, u32 len)
{
	u16 h = (u16)(3 * slot);
	u16 wflag = type == VIRTIO_BLK_T_OUT ? 0 : VIRTQ_DESC_F_WRITE;

	put_hdr(HDR + 16 * slot, type, sector);
	mem[STS + slot] = 0xee;
	set_desc(h, HDR + 16 * slot, 16, VIRTQ_DESC_F_NEXT, h + 1);
	set_desc(h + 1, buf, len, VIRTQ_DESC_F_NEXT | wflag, h + 2);
	set_desc(h + 2, STS + slot, 1, VIRTQ_DESC_F_WRITE, 0);
	offer(h);
	return h;
}

static void notify(void)
{
	wr(VIRTIO_MMIO_QUEUE_NOTIFY, 0);
}

static bool needs_reset(void)
{
	return rd(VIRTIO_MMIO_STATUS) & VIRTIO_STATUS_NEEDS_RESET;
}

/* --- registers --- */

static void test_identity(void **state)
{
	u64 v;

	(void)state;
	assert_int_equal(rd(VIRTIO_MMIO_MAGIC_VALUE), 0x74726976);
	assert_int_equal(rd(VIRTIO_MMIO_VERSION), 2);
	assert_int_equal(rd(VIRTIO_MMIO_DEVICE_ID), VIRTIO_ID_BLOCK);
	assert_int_not_equal(rd(VIRTIO_MMIO_VENDOR_ID), 0);
	/* Features: VERSION_1 in the high word, the block ones low. */
	wr(VIRTIO_MMIO_DEVICE_FEATURES_SEL, 1);
	assert_int_equal(rd(VIRTIO_MMIO_DEVICE_FEATURES), 1);
	wr(VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
	assert_int_equal(rd(VIRTIO_MMIO_DEVICE_FEATURES),
			 VIRTIO_BLK_F_SEG_MAX | VIRTIO_BLK_F_BLK_SIZE |
				 VIRTIO_BLK_F_FLUSH);
	wr(VIRTIO_MMIO_DEVICE_FEATURES_SEL, 2);
	assert_int_equal(rd(VIRTIO_MMIO_DEVICE_FEATURES), 0);
	/* One queue. */
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_NUM_MAX), VIRTIO_BLK_QUEUE_MAX);
	wr(VIRTIO_MMIO_QUEUE_SEL, 1);
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_NUM_MAX), 0);
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_READY), 0);
	assert_int_equal(rd(VIRTIO_MMIO_SHM_LEN_LOW), 0xffffffff);
	assert_int_equal(rd(VIRTIO_MMIO_CONFIG_GENERATION), 0);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS), 0);
	assert_int_equal(rd(VIRTIO_MMIO_INTERRUPT_STATUS), 0);
	/* Configuration: capacity in one 8-byte or two 4-byte reads (Linux
	 * reads it as two), seg_max, blk_size, zeros beyond. */
	assert_int_equal(virtio_mmio_ops.read(d, 0x100, 8, &v), 0);
	assert_int_equal(v, SECTORS);
	assert_int_equal(rd(0x100), SECTORS);
	assert_int_equal(rd(0x104), 0);
	assert_int_equal(rd(0x100 + 12), VIRTIO_BLK_SEG_MAX);
	assert_int_equal(rd(0x100 + 20), 512);
	assert_int_equal(virtio_mmio_ops.read(d, 0x100 + 21, 1, &v), 0);
	assert_int_equal(v, 2); /* 512 >> 8 */
	assert_int_equal(rd(0x100 + 24), 0);
	assert_int_equal(rd(0x1fc), 0);
	/* The configuration space is read-only. */
	wr(0x100, 0x12345678);
	assert_int_equal(rd(0x100), SECTORS);
	/* Control registers: aligned 32-bit accesses only. */
	v = 0x55;
	assert_int_equal(
		virtio_mmio_ops.read(d, VIRTIO_MMIO_MAGIC_VALUE, 2, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(
		virtio_mmio_ops.read(d, VIRTIO_MMIO_VERSION + 1, 4, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(virtio_mmio_ops.write(d, VIRTIO_MMIO_STATUS, 1,
					       VIRTIO_STATUS_ACKNOWLEDGE),
			 0);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS), 0);
}

static void test_read_only_offer(void **state)
{
	(void)state;
	d->ro = true;
	wr(VIRTIO_MMIO_DEVICE_FEATURES_SEL, 0);
	assert_true(rd(VIRTIO_MMIO_DEVICE_FEATURES) & VIRTIO_BLK_F_RO);
}

static void test_negotiation(void **state)
{
	const u32 ack = VIRTIO_STATUS_ACKNOWLEDGE | VIRTIO_STATUS_DRIVER;

	(void)state;
	wr(VIRTIO_MMIO_STATUS, ack);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS), ack);
	/* Without VERSION_1 (a legacy driver): no FEATURES_OK. */
	wr(VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
	wr(VIRTIO_MMIO_DRIVER_FEATURES, (u32)VIRTIO_BLK_F_FLUSH);
	wr(VIRTIO_MMIO_STATUS, ack | VIRTIO_STATUS_FEATURES_OK);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS), ack);
	/* A bit that was not offered (F_RO on a writable disk): none. */
	wr(VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
	wr(VIRTIO_MMIO_DRIVER_FEATURES, 1);
	wr(VIRTIO_MMIO_DRIVER_FEATURES_SEL, 0);
	wr(VIRTIO_MMIO_DRIVER_FEATURES, (u32)VIRTIO_BLK_F_RO);
	wr(VIRTIO_MMIO_STATUS, ack | VIRTIO_STATUS_FEATURES_OK);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS), ack);
	/* A subset with VERSION_1: accepted, and then fixed. */
	wr(VIRTIO_MMIO_DRIVER_FEATURES, (u32)VIRTIO_BLK_F_FLUSH);
	wr(VIRTIO_MMIO_STATUS, ack | VIRTIO_STATUS_FEATURES_OK);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS),
			 ack | VIRTIO_STATUS_FEATURES_OK);
	wr(VIRTIO_MMIO_DRIVER_FEATURES, (u32)VIRTIO_BLK_F_RO);
	assert_int_equal(d->drv_features,
			 VIRTIO_F_VERSION_1 | VIRTIO_BLK_F_FLUSH);
	/* Reset: everything back to power-on, the line low. */
	d->isr = 3;
	wr(VIRTIO_MMIO_STATUS, 0);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS), 0);
	assert_int_equal(rd(VIRTIO_MMIO_INTERRUPT_STATUS), 0);
	assert_int_equal(d->drv_features, 0);
	assert_int_equal(irq_level, 0);
}

/* --- requests --- */

static void test_round_trip(void **state)
{
	u8 want[1024];
	struct virtq_used_elem e;
	char id[VIRTIO_BLK_ID_BYTES + 1] = { 0 };

	(void)state;
	driver_up(NUM, DESC, AVAIL, USED);
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_READY), 1);
	/* OUT: two sectors to sector 5. */
	for (unsigned i = 0; i < sizeof(want); i++)
		want[i] = (u8)(0x30 + i % 61);
	memcpy(mem + BUF, want, sizeof(want));
	request(0, VIRTIO_BLK_T_OUT, 5, BUF, 1024);
	notify();
	assert_int_equal(mem[STS + 0], VIRTIO_BLK_S_OK);
	assert_memory_equal(img + 5 * 512, want, 1024);
	assert_int_equal(used_idx(), 1);
	e = used_elem(0);
	assert_int_equal(e.id, 0);
	assert_int_equal(e.len, 1); /* only the status byte written */
	/* A used-buffer interrupt, level: high until acknowledged. */
	assert_int_equal(rd(VIRTIO_MMIO_INTERRUPT_STATUS),
			 VIRTIO_MMIO_INT_VRING);
	assert_int_equal(irq_gsi, VIRTIO_BLK_GSI);
	assert_int_equal(irq_level, 1);
	wr(VIRTIO_MMIO_INTERRUPT_ACK, VIRTIO_MMIO_INT_VRING);
	assert_int_equal(rd(VIRTIO_MMIO_INTERRUPT_STATUS), 0);
	assert_int_equal(irq_level, 0);

	/* IN: sectors 4-6 back, and FLUSH and GET_ID, all in one notify. */
	memset(mem + BUF + 0x1000, 0, 1536);
	request(1, VIRTIO_BLK_T_IN, 4, BUF + 0x1000, 1536);
	request(2, VIRTIO_BLK_T_GET_ID, 0, BUF + 0x2000, VIRTIO_BLK_ID_BYTES);
	put_hdr(HDR + 0x100, VIRTIO_BLK_T_FLUSH, 0);
	set_desc(10, HDR + 0x100, 16, VIRTQ_DESC_F_NEXT, 9);
	set_desc(9, STS + 7, 1, VIRTQ_DESC_F_WRITE, 0);
	offer(10);
	notify();
	assert_int_equal(used_idx(), 4);
	assert_int_equal(mem[STS + 1], VIRTIO_BLK_S_OK);
	assert_memory_equal(mem + BUF + 0x1000, img + 4 * 512, 1536);
	assert_memory_equal(mem + BUF + 0x1000 + 512, want, 1024);
	e = used_elem(1);
	assert_int_equal(e.id, 3);
	assert_int_equal(e.len, 1536 + 1);
	assert_int_equal(mem[STS + 2], VIRTIO_BLK_S_OK);
	memcpy(id, mem + BUF + 0x2000, VIRTIO_BLK_ID_BYTES);
	assert_string_equal(id, "minhv-disk");
	assert_int_equal(used_elem(2).len, VIRTIO_BLK_ID_BYTES + 1);
	assert_int_equal(mem[STS + 7], VIRTIO_BLK_S_OK);
	assert_int_equal(used_elem(3).id, 10);
	assert_int_equal(d->reads, 1);
	assert_int_equal(d->writes, 1);
	assert_int_equal(d->flushes, 1);
	assert_int_equal(d->errors, 0);
	assert_false(needs_reset());
	/* The platform's reset (a guest reboot): the device as at power-on,
	 * the line low; the image keeps what was written. */
	wr(VIRTIO_MMIO_INTERRUPT_ACK, 0); /* the completions stay pending */
	assert_int_equal(irq_level, 1);
	virtio_blk_reset(d);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS), 0);
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_READY), 0);
	assert_int_equal(rd(VIRTIO_MMIO_INTERRUPT_STATUS), 0);
	assert_int_equal(irq_level, 0);
	assert_memory_equal(img + 5 * 512, want, 1024);
}

/* One descriptor for header and data, data split over two, the status
 * byte at the end of a longer writable one (VIRTIO 1.2 2.6.4: no framing
 * may be assumed). */
static void test_any_layout(void **state)
{
	(void)state;
	driver_up(NUM, DESC, AVAIL, USED);
	put_hdr(BUF, VIRTIO_BLK_T_OUT, 1);
	memset(mem + BUF + 16, 0x11, 512);
	memset(mem + BUF + 0x400, 0x22, 512);
	set_desc(0, BUF, 16 + 512, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, BUF + 0x400, 512, VIRTQ_DESC_F_NEXT, 2);
	set_desc(2, STS, 1, VIRTQ_DESC_F_WRITE, 0);
	offer(0);
	notify();
	assert_int_equal(mem[STS], VIRTIO_BLK_S_OK);
	for (unsigned i = 0; i < 512; i++) {
		assert_int_equal(img[512 + i], 0x11);
		assert_int_equal(img[1024 + i], 0x22);
	}
	/* IN of sector 1 into 300 + 212 bytes; the status byte is the last
	 * of a 513-byte descriptor holding the last 300 data bytes. */
	put_hdr(HDR, VIRTIO_BLK_T_IN, 1);
	set_desc(3, HDR, 16, VIRTQ_DESC_F_NEXT, 4);
	set_desc(4, BUF + 0x1000, 212, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE,
		 5);
	set_desc(5, BUF + 0x2000, 301, VIRTQ_DESC_F_WRITE, 0);
	offer(3);
	notify();
	assert_memory_equal(mem + BUF + 0x1000, img + 512, 212);
	assert_memory_equal(mem + BUF + 0x2000, img + 512 + 212, 300);
	assert_int_equal(mem[BUF + 0x2000 + 300], VIRTIO_BLK_S_OK);
	assert_int_equal(used_elem(1).len, 513);
}

static void test_request_errors(void **state)
{
	u8 before[IMG];

	(void)state;
	memcpy(before, img, IMG);
	driver_up(NUM, DESC, AVAIL, USED);
	/* Beyond the last sector, and one that ends past it. */
	request(0, VIRTIO_BLK_T_IN, SECTORS, BUF, 512);
	request(1, VIRTIO_BLK_T_OUT, SECTORS - 1, BUF, 1024);
	/* A sector number whose byte offset wraps 64 bits. */
	request(2, VIRTIO_BLK_T_OUT, 1ULL << 55, BUF, 512);
	notify();
	assert_int_equal(mem[STS + 0], VIRTIO_BLK_S_IOERR);
	assert_int_equal(mem[STS + 1], VIRTIO_BLK_S_IOERR);
	assert_int_equal(mem[STS + 2], VIRTIO_BLK_S_IOERR);
	assert_int_equal(used_elem(0).len, 1);
	/* Not whole sectors; an unknown type. */
	request(0, VIRTIO_BLK_T_OUT, 0, BUF, 100);
	request(1, 0x42, 0, BUF, 512);
	notify();
	assert_int_equal(mem[STS + 0], VIRTIO_BLK_S_IOERR);
	assert_int_equal(mem[STS + 1], VIRTIO_BLK_S_UNSUPP);
	assert_int_equal(d->errors, 5);
	assert_memory_equal(img, before, IMG);
	assert_false(needs_reset()); /* request errors, not queue errors */
	/* Read-only: OUT fails, IN works. */
	d->ro = true;
	request(2, VIRTIO_BLK_T_OUT, 0, BUF, 512);
	request(0, VIRTIO_BLK_T_IN, 0, BUF, 512);
	notify();
	assert_int_equal(mem[STS + 2], VIRTIO_BLK_S_IOERR);
	assert_int_equal(mem[STS + 0], VIRTIO_BLK_S_OK);
	assert_memory_equal(img, before, IMG);
}

/* --- hostile queues --- */

/* A broken queue: NEEDS_RESET, a configuration interrupt, nothing used,
 * nothing of the image or outside guest memory written, and no request
 * taken until the driver resets the device. */
static void expect_broken(const u8 *img_before, u16 used_before)
{
	assert_true(needs_reset());
	assert_true(rd(VIRTIO_MMIO_INTERRUPT_STATUS) & VIRTIO_MMIO_INT_CONFIG);
	assert_int_equal(irq_level, 1);
	assert_int_equal(used_idx(), used_before);
	assert_memory_equal(img, img_before, IMG);
	assert_true(guards_intact());
	assert_non_null(d->broken);
}

static void hostile_chain(void (*build)(void), const char *why)
{
	static u8 before[IMG];
	u16 u;

	memcpy(before, img, IMG);
	driver_up(NUM, DESC, AVAIL, USED);
	u = used_idx();
	build();
	notify();
	expect_broken(before, u);
	/* Refused by the check meant for it, not by a later one. */
	assert_string_equal(d->broken, why);
	/* Stays broken: a good request now is not taken. */
	request(1, VIRTIO_BLK_T_OUT, 0, BUF, 512);
	notify();
	assert_int_equal(used_idx(), u);
	assert_memory_equal(img, before, IMG);
	/* A reset brings it back. */
	memset(mem, 0, MEM);
	driver_up(NUM, DESC, AVAIL, USED);
	assert_false(needs_reset());
	memset(mem + BUF, 0x77, 512);
	request(0, VIRTIO_BLK_T_OUT, 0, BUF, 512);
	notify();
	assert_int_equal(mem[STS], VIRTIO_BLK_S_OK);
	assert_int_equal(img[0], 0x77);
}

static void chain_loop(void)
{
	/* OUT header, then two writable descriptors pointing at each other:
	 * the walk must stop at the queue size. */
	put_hdr(HDR, VIRTIO_BLK_T_IN, 0);
	set_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, BUF, 512, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE, 2);
	set_desc(2, STS, 1, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE, 1);
	offer(0);
}

static void chain_self_loop(void)
{
	set_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 0);
	offer(0);
}

static void chain_out_of_memory(void)
{
	/* Data that runs 1 byte past the end of guest memory. */
	put_hdr(HDR, VIRTIO_BLK_T_IN, 0);
	set_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, MEM - 511, 512, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE, 2);
	set_desc(2, STS, 1, VIRTQ_DESC_F_WRITE, 0);
	offer(0);
}

static void chain_wraps(void)
{
	/* addr + len wraps 64 bits to a small address. */
	put_hdr(HDR, VIRTIO_BLK_T_IN, 0);
	set_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, ~0ULL - 255, 512, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE,
		 2);
	set_desc(2, STS, 1, VIRTQ_DESC_F_WRITE, 0);
	offer(0);
}

static void chain_huge_len(void)
{
	/* A 4 GiB - 1 status descriptor at 0. */
	put_hdr(HDR, VIRTIO_BLK_T_FLUSH, 0);
	set_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, 0, 0xffffffff, VIRTQ_DESC_F_WRITE, 0);
	offer(0);
}

static void chain_header_outside(void)
{
	set_desc(0, MEM, 16, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, STS, 1, VIRTQ_DESC_F_WRITE, 0);
	offer(0);
}

static void chain_next_out_of_range(void)
{
	put_hdr(HDR, VIRTIO_BLK_T_FLUSH, 0);
	set_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, NUM);
	offer(0);
}

static void chain_head_out_of_range(void)
{
	offer(NUM + 3);
}

static void chain_avail_idx_ahead(void)
{
	u16 idx = NUM + 1;

	request(0, VIRTIO_BLK_T_FLUSH, 0, BUF, 0);
	memcpy(mem + AVAIL + VIRTQ_AVAIL_IDX, &idx, 2);
}

static void chain_indirect(void)
{
	set_desc(0, BUF, 32, VIRTQ_DESC_F_INDIRECT, 0);
	offer(0);
}

static void chain_readable_after_writable(void)
{
	put_hdr(HDR, VIRTIO_BLK_T_OUT, 0);
	set_desc(0, STS, 1, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE, 1);
	set_desc(1, HDR, 16, 0, 0);
	offer(0);
}

static void chain_no_status(void)
{
	put_hdr(HDR, VIRTIO_BLK_T_OUT, 0);
	set_desc(0, HDR, 16, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, BUF, 512, 0, 0);
	offer(0);
}

static void chain_short_header(void)
{
	put_hdr(HDR, VIRTIO_BLK_T_OUT, 0);
	set_desc(0, HDR, 8, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, STS, 1, VIRTQ_DESC_F_WRITE, 0);
	offer(0);
}

static void test_hostile_chains(void **state)
{
	static const struct {
		void (*build)(void);
		const char *why;
	} cases[] = {
		{ chain_loop,
		  "descriptor chain longer than the queue (a loop)" },
		{ chain_self_loop,
		  "descriptor chain longer than the queue (a loop)" },
		{ chain_out_of_memory,
		  "descriptor buffer outside guest memory" },
		{ chain_wraps, "descriptor buffer outside guest memory" },
		{ chain_huge_len, "descriptor buffer outside guest memory" },
		{ chain_header_outside,
		  "descriptor buffer outside guest memory" },
		{ chain_next_out_of_range, "descriptor index out of range" },
		{ chain_head_out_of_range, "descriptor index out of range" },
		{ chain_avail_idx_ahead,
		  "available index more than the queue size ahead" },
		{ chain_indirect, "indirect descriptor (not negotiated)" },
		{ chain_readable_after_writable,
		  "device-readable descriptor after a writable one" },
		{ chain_no_status,
		  "request without a header or a status byte" },
		{ chain_short_header,
		  "request without a header or a status byte" },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		memset(mem, 0, MEM);
		hostile_chain(cases[i].build, cases[i].why);
	}
	/* One warning on minhv's console for all of them. */
	assert_int_equal(d->breaks, sizeof(cases) / sizeof(cases[0]));
	assert_true(fake_console_has("virtio-blk: descriptor chain longer "
				     "than the queue (a loop): the device "
				     "needs a reset"));
	assert_null(strstr(fake_console_text(), "virtio-blk: descriptor "
						"buffer outside"));
}

/* Queue set-ups QueueReady refuses: the queue stays not ready and the
 * device needs a reset. */
static void bad_queue(u32 num, u64 desc, u64 avail, u64 used)
{
	setup(NULL);
	driver_up(num, desc, avail, used);
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_READY), 0);
	assert_true(needs_reset());
	assert_false(d->q.ready);
	/* A notify does nothing: nothing written anywhere. */
	notify();
	assert_int_equal(used_idx(), 0);
	assert_true(guards_intact());
	teardown(NULL);
}

static void test_hostile_queue_setup(void **state)
{
	(void)state;
	teardown(NULL); /* each case sets up its own */
	bad_queue(0, DESC, AVAIL, USED);
	bad_queue(3, DESC, AVAIL, USED); /* not a power of two */
	bad_queue(VIRTIO_BLK_QUEUE_MAX * 2, DESC, AVAIL, USED);
	bad_queue(0x10000, DESC, AVAIL, USED); /* QueueNum is 32 bits */
	bad_queue(NUM, DESC + 8, AVAIL, USED); /* misaligned */
	bad_queue(NUM, DESC, AVAIL + 1, USED);
	bad_queue(NUM, DESC, AVAIL, USED + 2);
	bad_queue(NUM, MEM - 16 * NUM + 16, AVAIL, USED); /* past the end */
	bad_queue(NUM, DESC, MEM - 4, USED);
	bad_queue(NUM, DESC, AVAIL, MEM - 8 * NUM);
	bad_queue(NUM, DESC, AVAIL, (u64)-16); /* wraps */
	bad_queue(NUM, 1ULL << 40, AVAIL, USED);
	setup(NULL);
	/* The largest queue that fits at the very top: accepted. */
	driver_up(NUM, MEM - 16 * NUM, AVAIL, USED);
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_READY), 1);
	assert_false(needs_reset());
}

static void test_notify_before_ready(void **state)
{
	u8 snap[MEM];

	(void)state;
	/* Rings in memory as a driver would write them, but the queue is
	 * not ready (or the driver not OK): a notify touches nothing. */
	request(0, VIRTIO_BLK_T_IN, 0, BUF, 512);
	memcpy(snap, mem, MEM);
	notify();
	assert_memory_equal(mem, snap, MEM);
	wr(VIRTIO_MMIO_QUEUE_NUM, NUM);
	wr(VIRTIO_MMIO_QUEUE_DESC_LOW, DESC);
	wr(VIRTIO_MMIO_QUEUE_DRIVER_LOW, AVAIL);
	wr(VIRTIO_MMIO_QUEUE_DEVICE_LOW, USED);
	notify();
	assert_memory_equal(mem, snap, MEM);
	wr(VIRTIO_MMIO_QUEUE_READY, 1); /* ready, but no DRIVER_OK */
	notify();
	assert_memory_equal(mem, snap, MEM);
	assert_int_equal(irq_calls, 0);
	/* DRIVER_OK without FEATURES_OK (no VERSION_1): nothing either. */
	wr(VIRTIO_MMIO_STATUS,
	   VIRTIO_STATUS_FEATURES_OK | VIRTIO_STATUS_DRIVER_OK);
	assert_int_equal(rd(VIRTIO_MMIO_STATUS), VIRTIO_STATUS_DRIVER_OK);
	notify();
	assert_memory_equal(mem, snap, MEM);
	/* Negotiated: another queue's index does nothing, queue 0's works. */
	wr(VIRTIO_MMIO_DRIVER_FEATURES_SEL, 1);
	wr(VIRTIO_MMIO_DRIVER_FEATURES, 1);
	wr(VIRTIO_MMIO_STATUS,
	   VIRTIO_STATUS_FEATURES_OK | VIRTIO_STATUS_DRIVER_OK);
	wr(VIRTIO_MMIO_QUEUE_NOTIFY, 1);
	assert_memory_equal(mem, snap, MEM);
	notify();
	assert_int_equal(used_idx(), 1);
}

/* Once ready, the queue's size and areas are frozen: moving them out of
 * guest memory afterwards is ignored; so are other queues' registers. */
static void test_frozen_queue(void **state)
{
	(void)state;
	driver_up(NUM, DESC, AVAIL, USED);
	wr(VIRTIO_MMIO_QUEUE_DESC_HIGH, 0x1000);
	wr(VIRTIO_MMIO_QUEUE_DEVICE_LOW, (u32)(MEM - 4));
	wr(VIRTIO_MMIO_QUEUE_NUM, 4096);
	wr(VIRTIO_MMIO_QUEUE_SEL, 1);
	wr(VIRTIO_MMIO_QUEUE_NUM, 3);
	wr(VIRTIO_MMIO_QUEUE_READY, 0);
	assert_int_equal(d->q.desc, DESC);
	assert_int_equal(d->q.used, USED);
	assert_int_equal(d->q.num, NUM);
	assert_true(d->q.ready);
	wr(VIRTIO_MMIO_QUEUE_SEL, 0);
	request(0, VIRTIO_BLK_T_FLUSH, 0, BUF, 0);
	notify();
	assert_int_equal(used_idx(), 1);
	/* QueueReady 0 stops it (Linux's del_vq reads it back). */
	wr(VIRTIO_MMIO_QUEUE_READY, 0);
	assert_int_equal(rd(VIRTIO_MMIO_QUEUE_READY), 0);
	request(1, VIRTIO_BLK_T_FLUSH, 0, BUF, 0);
	notify();
	assert_int_equal(used_idx(), 1);
}

/* A driver that never stops adding requests (here the requests
 * themselves: each reads into the available ring a larger index and
 * into its own header the next sector, so the queue never runs dry
 * until the disk ends) gets a queue's worth per notify, not a loop. */
static void test_notify_bounded(void **state)
{
	const u64 ring = 0x8000, hdr = 0x8200;
	u16 idx = 1;

	(void)state;
	for (u16 j = 0; j < SECTORS / 2; j++) {
		u16 next = j + 2;
		struct virtio_blk_req_hdr h = { VIRTIO_BLK_T_IN, 0, 2 * j + 2 };

		memset(img + 1024 * j, 0, 1024);
		memcpy(img + 1024 * j + VIRTQ_AVAIL_IDX, &next, 2);
		memcpy(img + 1024 * j + 512, &h, sizeof(h));
	}
	driver_up(NUM, DESC, ring, USED);
	put_hdr(hdr, VIRTIO_BLK_T_IN, 0);
	memcpy(mem + ring + VIRTQ_AVAIL_IDX, &idx, 2);
	set_desc(0, hdr, 16, VIRTQ_DESC_F_NEXT, 1);
	set_desc(1, ring, 1024, VIRTQ_DESC_F_NEXT | VIRTQ_DESC_F_WRITE, 2);
	set_desc(2, STS, 1, VIRTQ_DESC_F_WRITE, 0);
	notify();
	assert_int_equal(used_idx(), NUM);
	assert_int_equal(irq_level, 1);
	notify(); /* the next queue's worth */
	assert_int_equal(used_idx(), 2 * NUM);
	assert_false(needs_reset());
}

/* The ring indices wrap at 2^16; used entries wrap at the queue size. */
static void test_index_wrap(void **state)
{
	(void)state;
	driver_up(NUM, DESC, AVAIL, USED);
	for (unsigned i = 0; i < 70000; i += 2) {
		request(0, VIRTIO_BLK_T_FLUSH, 0, BUF, 0);
		request(1, VIRTIO_BLK_T_FLUSH, 0, BUF, 0);
		notify();
		assert_int_equal(used_idx(), (u16)(i + 2));
	}
	assert_int_equal(d->flushes, 70000);
	assert_false(needs_reset());
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_identity, setup, teardown),
		cmocka_unit_test_setup_teardown(test_read_only_offer, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_negotiation, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_round_trip, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_any_layout, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_request_errors, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hostile_chains, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_hostile_queue_setup, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_notify_before_ready, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_frozen_queue, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_notify_bounded, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_index_wrap, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("virtio", tests, NULL, NULL);
}
