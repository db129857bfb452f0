// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_mmio.c - MMIO emulation (hv/guest/mmio.c) against a fake
 * device: operands, register write-back rules, RIP, decode assists and
 * the failures the caller must see. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/cr.h"
#include "arch/msr.h"
#include "hv/guest/mmio.h"
#include "hv/emul/walk.h"
#include "arch/errno.h"
#include "hv/guest/guest.h"
#include "hv/vcpu/vcpu.h"

#define MEM (4ULL << 20)
#define CODE 0x10000ULL
#define DEV_BASE 0xfed00000ULL

struct fake_dev {
	u64 off, val, read_val;
	unsigned size, reads, writes;
	int ret;
};

static int fd_read(void *d, u64 off, unsigned size, u64 *val)
{
	struct fake_dev *f = d;

	f->reads++;
	f->off = off;
	f->size = size;
	*val = f->read_val;
	return f->ret;
}

static int fd_write(void *d, u64 off, unsigned size, u64 val)
{
	struct fake_dev *f = d;

	f->writes++;
	f->off = off;
	f->size = size;
	f->val = val;
	return f->ret;
}

static const struct mmio_ops fd_ops = { fd_read, fd_write };
static struct fake_dev dev;

/* Double of hv/vcpu/vcpu_ops.c: counts the single-step traps asked for. */
static unsigned step_traps;
void vcpu_step_trap(struct vcpu *vc)
{
	(void)vc;
	step_traps++;
}
static struct mmio_region region = { { DEV_BASE },
				     0x1000,
				     &fd_ops,
				     &dev,
				     "fake" };
static struct guest *g;
static struct vcpu *v;

static int setup(void **s)
{
	(void)s;
	memset(&dev, 0, sizeof(dev));
	g = calloc(1, sizeof(*g));
	g->mem_size = MEM;
	g->mem_host = calloc(1, MEM);
	v = calloc(1, sizeof(*v));
	v->vmcb = calloc(1, sizeof(struct vmcb));
	v->guest = g;
	/* 32-bit protected mode, paging off, CS.D = 1 */
	v->vmcb->save.cr0 = CR0_PE;
	v->vmcb->save.cs.attrib = SEG_ATTR_D;
	v->vmcb->save.rip = CODE;
	return 0;
}

static int teardown(void **s)
{
	(void)s;
	free(v->vmcb);
	free(v);
	free(g->mem_host);
	free(g);
	return 0;
}

static void code(const u8 *b, unsigned n)
{
	memcpy((u8 *)g->mem_host + v->vmcb->save.rip, b, n);
}
#define CODE_BYTES(...)                                 \
	do {                                            \
		static const u8 c_[] = { __VA_ARGS__ }; \
		code(c_, sizeof(c_));                   \
	} while (0)

static int emulate(u64 off)
{
	return mmio_emulate(v, gpa(DEV_BASE + off), &region, NULL);
}

/* 64-bit mode: identity-mapped first 2 MiB through a 4-level table. */
static void long_mode(void)
{
	u8 *m = g->mem_host;
	u64 e;

	e = 0x2000 | 3;
	memcpy(m + 0x1000, &e, 8);
	e = 0x3000 | 3;
	memcpy(m + 0x2000, &e, 8);
	e = 0x0 | 3 | 0x80;
	memcpy(m + 0x3000, &e, 8);
	v->vmcb->save.cr0 = CR0_PE | CR0_PG;
	v->vmcb->save.cr3 = 0x1000;
	v->vmcb->save.cr4 = CR4_PAE;
	v->vmcb->save.efer = EFER_LME | EFER_LMA | EFER_SVME;
	v->vmcb->save.cs.attrib = SEG_ATTR_L;
}

static void test_write_reg(void **s)
{
	(void)s;
	v->gprs.rbx = DEV_BASE + 0x80;
	v->vmcb->save.rax = 0xffffffff12345678ULL;
	CODE_BYTES(0x89, 0x03); /* mov %eax,(%ebx) */
	assert_int_equal(emulate(0x80), 0);
	assert_int_equal(dev.writes, 1);
	assert_int_equal(dev.off, 0x80);
	assert_int_equal(dev.size, 4);
	assert_int_equal(dev.val, 0x12345678);
	assert_int_equal(v->vmcb->save.rip, CODE + 2);
	/* mov %ah,(%ebx): bits 15:8 of RAX */
	CODE_BYTES(0x88, 0x23);
	assert_int_equal(emulate(0x10), 0);
	assert_int_equal(dev.size, 1);
	assert_int_equal(dev.val, 0x56);
	/* movl $0xdeadbeef,0x30(%ebx) */
	CODE_BYTES(0xc7, 0x43, 0x30, 0xef, 0xbe, 0xad, 0xde);
	assert_int_equal(emulate(0x30), 0);
	assert_int_equal(dev.val, 0xdeadbeef);
	assert_int_equal(v->vmcb->save.rip, CODE + 2 + 2 + 7);
}

static void test_read_rules(void **s)
{
	(void)s;
	dev.read_val = 0xfffffffff0e1d2c3ULL; /* device hands back extra bits */
	/* mov (%ebx),%ecx: 32-bit write zero-extends */
	v->gprs.rcx = ~0ULL;
	CODE_BYTES(0x8b, 0x0b);
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->gprs.rcx, 0xf0e1d2c3ULL);
	assert_int_equal(dev.reads, 1);
	/* mov (%ebx),%dh: only bits 15:8 of RDX change */
	v->gprs.rdx = 0x1111111111111111ULL;
	CODE_BYTES(0x8a, 0x33);
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->gprs.rdx, 0x111111111111c311ULL);
	/* mov (%ebx),%si: 16-bit keeps the rest */
	v->gprs.rsi = 0x2222222222222222ULL;
	CODE_BYTES(0x66, 0x8b, 0x33);
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->gprs.rsi, 0x222222222222d2c3ULL);
	/* movzbl (%ebx),%edi */
	v->gprs.rdi = ~0ULL;
	CODE_BYTES(0x0f, 0xb6, 0x3b);
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->gprs.rdi, 0xc3);
	assert_int_equal(dev.size, 1);
	/* movswl (%ebx),%esp: sign-extended, RSP in the VMCB */
	CODE_BYTES(0x0f, 0xbf, 0x23);
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->vmcb->save.rsp, 0xffffd2c3ULL);
	/* mov 0xfed00020,%eax (A1) */
	CODE_BYTES(0xa1, 0x20, 0x00, 0xd0, 0xfe);
	assert_int_equal(emulate(0x20), 0);
	assert_int_equal(v->vmcb->save.rax, 0xf0e1d2c3ULL);
	assert_int_equal(dev.off, 0x20);
}

static void test_long_mode(void **s)
{
	(void)s;
	long_mode();
	dev.read_val = 0x8877665544332211ULL;
	/* mov 0x8(%rax),%r9 */
	CODE_BYTES(0x4c, 0x8b, 0x48, 0x08);
	assert_int_equal(emulate(8), 0);
	assert_int_equal(v->gprs.r9, 0x8877665544332211ULL);
	assert_int_equal(dev.size, 8);
	assert_int_equal(v->vmcb->save.rip, CODE + 4);
	/* mov %r15d,(%rax) */
	v->gprs.r15 = 0xaabbccdd00112233ULL;
	CODE_BYTES(0x44, 0x89, 0x38);
	assert_int_equal(emulate(0), 0);
	assert_int_equal(dev.val, 0x00112233);
	/* movq $-2,(%rax) */
	CODE_BYTES(0x48, 0xc7, 0x00, 0xfe, 0xff, 0xff, 0xff);
	assert_int_equal(emulate(0), 0);
	assert_int_equal(dev.val, 0xfffffffffffffffeULL);
	assert_int_equal(dev.size, 8);
}

/* The last decode is used again only for the same bytes at the same
 * place: a hit gives the same result; code rewritten in place, or the
 * page remapped under the same CR3, gets a fresh decode. */
static void test_decode_cache(void **s)
{
	u8 *m;
	u64 e;

	(void)s;
	dev.read_val = 0x1234;
	CODE_BYTES(0x8b, 0x0b); /* mov (%ebx),%ecx */
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->insn_cache.len, 2);
	assert_int_equal(v->insn_cache.la, CODE);
	v->vmcb->save.rip = CODE;
	v->gprs.rcx = 0;
	assert_int_equal(emulate(0), 0); /* a hit */
	assert_int_equal(v->gprs.rcx, 0x1234);
	assert_int_equal(v->vmcb->save.rip, CODE + 2);
	/* Rewritten in place: mov (%ebx),%edx. */
	v->vmcb->save.rip = CODE;
	CODE_BYTES(0x8b, 0x13);
	v->gprs.rcx = v->gprs.rdx = 0;
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->gprs.rcx, 0);
	assert_int_equal(v->gprs.rdx, 0x1234);
	/* Long mode: the code page remapped (a PTE changed, CR3 not) to a
	 * page that holds another instruction at the same offset. */
	long_mode();
	m = g->mem_host;
	e = 0x4000 | 3; /* PD[0] -> a page table at 0x4000 */
	memcpy(m + 0x3000, &e, 8);
	for (u64 i = 0; i < 512; i++) {
		e = (i << 12) | 3;
		memcpy(m + 0x4000 + 8 * i, &e, 8);
	}
	v->vmcb->save.rip = CODE;
	CODE_BYTES(0x48, 0x8b, 0x08); /* mov (%rax),%rcx */
	m[0x200000 + (CODE & 0xfff)] = 0x48; /* the other page */
	m[0x200000 + (CODE & 0xfff) + 1] = 0x8b;
	m[0x200000 + (CODE & 0xfff) + 2] = 0x10; /* mov (%rax),%rdx */
	v->gprs.rcx = v->gprs.rdx = 0;
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->gprs.rcx, 0x1234);
	e = 0x200000 | 3; /* CODE's page -> 0x200000 */
	memcpy(m + 0x4000 + 8 * (CODE >> 12), &e, 8);
	v->vmcb->save.rip = CODE;
	v->gprs.rcx = v->gprs.rdx = 0;
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->gprs.rcx, 0);
	assert_int_equal(v->gprs.rdx, 0x1234);
}

/* Decode-assist bytes are used when present (and then consumed), even
 * if guest memory at RIP says something else. */
static void test_decode_assists(void **s)
{
	struct mmio_bytes seen;

	(void)s;
	CODE_BYTES(0x0f, 0x0b); /* UD2 in memory */
	v->vmcb->control.insn_len = 2;
	v->vmcb->control.insn_bytes[0] = 0x89; /* mov %ecx,(%eax) */
	v->vmcb->control.insn_bytes[1] = 0x08;
	v->gprs.rcx = 0x55;
	assert_int_equal(mmio_emulate(v, gpa(DEV_BASE), &region, &seen), 0);
	assert_int_equal(dev.val, 0x55);
	assert_int_equal(v->vmcb->control.insn_len, 0);
	assert_int_equal(seen.n, 2);
	/* next time there are none: memory (UD2) is decoded and refused */
	assert_int_equal(mmio_emulate(v, gpa(DEV_BASE), &region, &seen),
			 -EINVAL);
	/* truncated assist bytes fall back to memory */
	v->vmcb->save.rip = CODE + 0x100;
	CODE_BYTES(0x89, 0x08);
	v->vmcb->control.insn_len = 1;
	v->vmcb->control.insn_bytes[0] = 0x89;
	assert_int_equal(mmio_emulate(v, gpa(DEV_BASE), &region, &seen), 0);
	assert_int_equal(dev.writes, 2);
}

static void test_failures(void **s)
{
	struct mmio_bytes seen;

	(void)s;
	/* undecodable: error, bytes for the caller, nothing changed */
	CODE_BYTES(0x0f, 0x0b, 0x90);
	assert_int_equal(mmio_emulate(v, gpa(DEV_BASE), &region, &seen),
			 -EINVAL);
	assert_int_equal(seen.n, INSN_MAX_LEN);
	assert_int_equal(seen.b[0], 0x0f);
	assert_int_equal(seen.b[1], 0x0b);
	assert_int_equal(v->vmcb->save.rip, CODE);
	assert_int_equal(dev.reads + dev.writes, 0);
	/* MOV to CR4 decodes but has no memory operand: not an access */
	CODE_BYTES(0x0f, 0x22, 0xe0);
	assert_int_equal(emulate(0), -EINVAL);
	assert_int_equal(v->vmcb->save.rip, CODE);
	/* the access does not fit in the region */
	CODE_BYTES(0x89, 0x03);
	assert_int_equal(emulate(0xffe), -EINVAL);
	assert_int_equal(mmio_emulate(v, gpa(DEV_BASE - 4), &region, NULL),
			 -EINVAL);
	assert_int_equal(dev.writes, 0);
	/* the device refuses: its error, RIP and registers unchanged */
	dev.ret = -EIO;
	v->gprs.rcx = 7;
	CODE_BYTES(0x8b, 0x0b);
	assert_int_equal(emulate(0), -EIO);
	assert_int_equal(v->gprs.rcx, 7);
	assert_int_equal(v->vmcb->save.rip, CODE);
	dev.ret = 0;

	/* RIP outside guest RAM: the fetch fails */
	v->vmcb->save.rip = MEM + 0x1000;
	assert_int_equal(emulate(0), -ERANGE);
	/* 32-bit mode: CS.base + EIP wraps at 4 GiB */
	v->vmcb->save.cs.base = 0xffff0000ULL;
	v->vmcb->save.rip = 0x10000 + CODE;
	CODE_BYTES(0x0f, 0x0b); /* at RIP: UD2; the linear address is CODE */
	memcpy((u8 *)g->mem_host + CODE, (u8[]){ 0x8b, 0x0b }, 2);
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->vmcb->save.rip, 0x10000 + CODE + 2);
}

/* Real mode and 16-bit protected-mode code: fetched at CS.base + IP,
 * 16-bit operands by default, IP wraps at 64 KiB. */
static void test_mode16(void **s)
{
	(void)s;
	/* real mode: CS = 0x1000 (base 0x10000), IP = 0 */
	v->vmcb->save.cr0 = 0;
	v->vmcb->save.cs.base = CODE;
	v->vmcb->save.rip = 0;
	v->gprs.rcx = 0xaaaa5678;
	CODE_BYTES(0x89, 0x0f); /* mov [bx], cx */
	memcpy((u8 *)g->mem_host + CODE, (u8[]){ 0x89, 0x0f }, 2);
	assert_int_equal(emulate(0x20), 0);
	assert_int_equal(dev.size, 2);
	assert_int_equal(dev.val, 0x5678);
	assert_int_equal(v->vmcb->save.rip, 2);
	/* 16-bit protected mode (CS.D = 0), IP at 0xffff wraps */
	v->vmcb->save.cr0 = CR0_PE;
	v->vmcb->save.cs.attrib = 0;
	v->vmcb->save.cs.base = CODE;
	v->vmcb->save.rip = 0xfffe;
	memcpy((u8 *)g->mem_host + CODE + 0xfffe, (u8[]){ 0x66, 0x8b, 0x07 },
	       3); /* mov eax, [bx] */
	dev.read_val = 0x12345678;
	v->vmcb->save.rax = 0;
	assert_int_equal(emulate(0x30), 0);
	assert_int_equal(dev.size, 4);
	assert_int_equal(v->vmcb->save.rax, 0x12345678);
	assert_int_equal(v->vmcb->save.rip, 0x1); /* (0xfffe + 3) & 0xffff */
}

/* A completed access with RFLAGS.TF set asks for the single-step trap
 * (vcpu_insn_complete()); a refused one, or TF clear, does not. */
static void test_single_step(void **s)
{
	(void)s;
	step_traps = 0;
	v->gprs.rcx = 0x55;
	CODE_BYTES(0x89, 0x08); /* mov %ecx,(%eax) */
	assert_int_equal(emulate(0), 0);
	assert_int_equal(step_traps, 0);
	v->vmcb->save.rip = CODE;
	v->vmcb->save.rflags = BIT(8); /* TF */
	assert_int_equal(emulate(0), 0);
	assert_int_equal(step_traps, 1);
	v->vmcb->save.rip = CODE;
	CODE_BYTES(0x0f, 0x0b); /* UD2: refused */
	assert_int_equal(emulate(0), -EINVAL);
	assert_int_equal(step_traps, 1);
}

/* A completed access ends the interrupt shadow of a STI or MOV SS before
 * it (AUDIT-HARDWARE.md B3); a refused one leaves the VMCB as it was. */
static void test_shadow_cleared(void **s)
{
	(void)s;
	v->vmcb->control.int_shadow = INT_SHADOW;
	CODE_BYTES(0x0f, 0x0b); /* UD2: refused */
	assert_int_equal(emulate(0), -EINVAL);
	assert_int_equal(v->vmcb->control.int_shadow, INT_SHADOW);
	CODE_BYTES(0x8b, 0x08); /* mov (%eax),%ecx */
	assert_int_equal(emulate(0), 0);
	assert_int_equal(v->vmcb->save.rip, CODE + 2);
	assert_int_equal(v->vmcb->control.int_shadow, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_write_reg, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_read_rules, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_long_mode, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_decode_cache, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_decode_assists, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_failures, setup, teardown),
		cmocka_unit_test_setup_teardown(test_mode16, setup, teardown),
		cmocka_unit_test_setup_teardown(test_single_step, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_shadow_cleared, setup,
						teardown),
	};

	return cmocka_run_group_tests_name("mmio", tests, NULL, NULL);
}
