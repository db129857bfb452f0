// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/fake_cpu.c - implementation of the arch/cpu.h test double.
 * Host-only; thread-safe enough for tests that run one thread per fake CPU. */
#include "tests/doubles/fake_cpu.h"
#include "arch/msr.h"

#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

struct fake_cpu_state fake_cpus[FAKE_NCPUS];

struct fake_leaf {
	u32 leaf, subleaf;
	struct cpuid_regs r;
};
static struct fake_leaf leaves[128];
static unsigned nleaves;
static _Thread_local unsigned cur_cpu;
/* GS base as this thread last wrote it (percpu_install()): a thread is a
 * CPU for read_gs_self(), whichever fake CPU's MSRs it selected. */
static _Thread_local u64 gs_base;
static char trace[1 << 16];
static size_t trace_len;
static bool trace_on = true;
static pthread_mutex_t trace_mu = PTHREAD_MUTEX_INITIALIZER;
static u64 tsc_val, tsc_step = 1;
static u32 io_in = 0xffffffff;

void fake_cpu_select(unsigned cpu)
{
	assert_true(cpu < FAKE_NCPUS);
	cur_cpu = cpu;
}

unsigned fake_cpu_current(void)
{
	return cur_cpu;
}

void fake_cpu_reset(void)
{
	memset(fake_cpus, 0, sizeof(fake_cpus));
	memset(leaves, 0, sizeof(leaves));
	nleaves = 0;
	cur_cpu = 0;
	trace_len = 0;
	trace[0] = 0;
	trace_on = true;
	tsc_val = 0;
	tsc_step = 1;
	io_in = 0xffffffff;
	fake_halt_hook = NULL;
	fake_inb_hook = NULL;
	fake_wrmsr_hook = NULL;
	fake_cli_hook = NULL;
	fake_rdtsc_hook = NULL;
	fake_mmio_read_hook = NULL;
	fake_mmio_write_hook = NULL;
	for (unsigned i = 0; i < FAKE_NCPUS; i++) {
		fake_cpus[i].cr0 = 0x80000011; /* PG, ET, PE */
		fake_cpus[i].cr4 = 0x000006a0; /* PGE, PAE, OSFXSR... */
		fake_cpus[i].rflags = 0x2;
	}
}

static void tracef(const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!trace_on)
		return;
	pthread_mutex_lock(&trace_mu);
	n = snprintf(trace + trace_len, sizeof(trace) - trace_len,
		     "cpu%u: ", cur_cpu);
	if (n > 0 && trace_len + (size_t)n < sizeof(trace))
		trace_len += (size_t)n;
	va_start(ap, fmt);
	n = vsnprintf(trace + trace_len, sizeof(trace) - trace_len, fmt, ap);
	va_end(ap);
	if (n > 0 && trace_len + (size_t)n + 1 < sizeof(trace)) {
		trace_len += (size_t)n;
		trace[trace_len++] = '\n';
		trace[trace_len] = 0;
	}
	pthread_mutex_unlock(&trace_mu);
}

void fake_trace_note(const char *fmt, ...)
{
	char line[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	tracef("%s", line);
}

const char *fake_trace(void)
{
	return trace;
}

void fake_trace_clear(void)
{
	pthread_mutex_lock(&trace_mu);
	trace_len = 0;
	trace[0] = 0;
	pthread_mutex_unlock(&trace_mu);
}

void fake_trace_enable(bool on)
{
	trace_on = on;
}

unsigned fake_trace_count(const char *needle)
{
	unsigned n = 0;

	for (const char *p = trace; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

int fake_trace_find(const char *needle)
{
	const char *hit = strstr(trace, needle);
	int line = 0;

	if (!hit)
		return -1;
	for (const char *p = trace; p < hit; p++)
		if (*p == '\n')
			line++;
	return line;
}

void fake_cpuid_set(u32 leaf, u32 subleaf, u32 eax, u32 ebx, u32 ecx, u32 edx)
{
	for (unsigned i = 0; i < nleaves; i++) {
		if (leaves[i].leaf == leaf && leaves[i].subleaf == subleaf) {
			leaves[i].r = (struct cpuid_regs){ eax, ebx, ecx, edx };
			return;
		}
	}
	assert_true(nleaves < 128);
	leaves[nleaves++] =
		(struct fake_leaf){ leaf, subleaf, { eax, ebx, ecx, edx } };
}

static struct cpuid_regs *find_leaf(u32 leaf, u32 subleaf)
{
	for (unsigned i = 0; i < nleaves; i++)
		if (leaves[i].leaf == leaf && leaves[i].subleaf == subleaf)
			return &leaves[i].r;
	return NULL;
}

void fake_cpuid_or(u32 leaf, u32 subleaf, int reg, u32 bits)
{
	struct cpuid_regs *r = find_leaf(leaf, subleaf);
	u32 *v;

	if (!r) {
		fake_cpuid_set(leaf, subleaf, 0, 0, 0, 0);
		r = find_leaf(leaf, subleaf);
	}
	v = reg == 0 ? &r->eax :
	    reg == 1 ? &r->ebx :
	    reg == 2 ? &r->ecx :
		       &r->edx;
	*v |= bits;
}

void fake_cpuid_vendor(const char *v)
{
	u32 b, c, d;

	memcpy(&b, v, 4);
	memcpy(&d, v + 4, 4);
	memcpy(&c, v + 8, 4);
	fake_cpuid_set(0, 0, 0x1f, b, c, d);
	fake_cpuid_set(0x80000000, 0, 0x80000025, 0, 0, 0);
}

void cpuid(u32 leaf, u32 subleaf, struct cpuid_regs *r)
{
	struct cpuid_regs *f = find_leaf(leaf, subleaf);

	*r = f ? *f : (struct cpuid_regs){ 0, 0, 0, 0 };
}

static struct fake_msr *msr_slot(unsigned cpu, u32 msr, bool create)
{
	struct fake_cpu_state *c = &fake_cpus[cpu];

	for (unsigned i = 0; i < c->nmsrs; i++)
		if (c->msrs[i].msr == msr)
			return &c->msrs[i];
	if (!create)
		return NULL;
	assert_true(c->nmsrs < FAKE_NMSRS);
	c->msrs[c->nmsrs] = (struct fake_msr){ msr, 0, true, false };
	return &c->msrs[c->nmsrs++];
}

void fake_msr_define(u32 msr, u64 val)
{
	for (unsigned i = 0; i < FAKE_NCPUS; i++)
		msr_slot(i, msr, true)->val = val;
}

u64 fake_msr_read(unsigned cpu, u32 msr)
{
	struct fake_msr *m = msr_slot(cpu, msr, false);

	return m ? m->val : 0;
}

bool fake_msr_exists(unsigned cpu, u32 msr)
{
	return msr_slot(cpu, msr, false) != NULL;
}

void fake_msr_drop_writes(unsigned cpu, u32 msr, bool drop)
{
	struct fake_msr *m = msr_slot(cpu, msr, false);

	assert_non_null(m);
	m->drop_writes = drop;
}

u64 rdmsr(u32 msr)
{
	struct fake_msr *m = msr_slot(cur_cpu, msr, false);

	if (!m)
		fail_msg("rdmsr of undefined MSR %#x on fake cpu%u", msr,
			 cur_cpu);
	return m->val;
}

bool rdmsr_safe(u32 msr, u64 *val)
{
	struct fake_msr *m = msr_slot(cur_cpu, msr, false);

	if (!m)
		return false;
	*val = m->val;
	return true;
}

void (*fake_wrmsr_hook)(u32 msr, u64 val);

void wrmsr(u32 msr, u64 val)
{
	struct fake_msr *m = msr_slot(cur_cpu, msr, false);
	void (*hook)(u32, u64) = fake_wrmsr_hook;

	if (hook) { /* not re-entered: the hook may write MSRs itself */
		fake_wrmsr_hook = NULL;
		hook(msr, val);
		fake_wrmsr_hook = hook;
	}

	if (!m)
		fail_msg("wrmsr of undefined MSR %#x on fake cpu%u", msr,
			 cur_cpu);
	if (msr == MSR_GS_BASE)
		gs_base = val;
	if (!m->drop_writes)
		m->val = val;
	fake_cpus[cur_cpu].wrmsr_count++;
	tracef("wrmsr %#x %#llx", msr, (unsigned long long)val);
}

u64 read_cr0(void)
{
	return fake_cpus[cur_cpu].cr0;
}
void write_cr0(u64 v)
{
	fake_cpus[cur_cpu].cr0 = v;
	tracef("cr0 %#llx", (unsigned long long)v);
}
u64 read_cr2(void)
{
	return fake_cpus[cur_cpu].cr2;
}
u64 read_cr3(void)
{
	return fake_cpus[cur_cpu].cr3;
}
void write_cr3(u64 v)
{
	fake_cpus[cur_cpu].cr3 = v;
	tracef("cr3 %#llx", (unsigned long long)v);
}
u64 read_cr4(void)
{
	return fake_cpus[cur_cpu].cr4;
}
void write_cr4(u64 v)
{
	fake_cpus[cur_cpu].cr4 = v;
	tracef("cr4 %#llx", (unsigned long long)v);
}
u64 read_rflags(void)
{
	return fake_cpus[cur_cpu].rflags |
	       (fake_cpus[cur_cpu].irq_enabled ? 0x200 : 0);
}

void wbinvd(void)
{
	fake_cpus[cur_cpu].wbinvd_count++;
	tracef("wbinvd");
}
/* A spinning thread gives way to the one it waits for, but not on every
 * turn: a wait that must time out (the xAPIC's ICR busy, a million turns
 * as on hardware) stays quick. */
void cpu_relax(void)
{
	static _Thread_local unsigned turns;

	if (!(turns++ % 64))
		sched_yield();
}
void (*fake_halt_hook)(void);

void cpu_safe_halt(void)
{
	fake_cpus[cur_cpu].irq_enabled = true;
	fake_cpus[cur_cpu].halt_count++;
	tracef("sti;hlt");
	if (fake_halt_hook)
		fake_halt_hook();
}
void cpu_monitor(const volatile void *addr)
{
	(void)addr;
	tracef("monitor");
}
void cpu_safe_mwait(u32 hint)
{
	fake_cpus[cur_cpu].irq_enabled = true;
	fake_cpus[cur_cpu].halt_count++;
	tracef("sti;mwait %#x", hint);
	if (fake_halt_hook)
		fake_halt_hook();
}
void irq_enable(void)
{
	fake_cpus[cur_cpu].irq_enabled = true;
	tracef("sti");
}
void (*fake_cli_hook)(void);

void irq_disable(void)
{
	void (*hook)(void) = fake_cli_hook;

	/* An interrupt that lands just before the CLI, with IF still 1:
	 * its handler runs now, in host mode (once: the hook is cleared). */
	if (hook && fake_cpus[cur_cpu].irq_enabled) {
		fake_cli_hook = NULL;
		hook();
	}
	fake_cpus[cur_cpu].irq_enabled = false;
	tracef("cli");
}

/* mov %gs:0: the pointer stored at the GS base (struct percpu's self). */
void *read_gs_self(void)
{
	return gs_base ? *(void **)(uintptr_t)gs_base : NULL;
}

void fake_tsc_set(u64 start, u64 step)
{
	tsc_val = start;
	tsc_step = step;
}
u64 (*fake_rdtsc_hook)(void);
u64 rdtsc(void)
{
	if (fake_rdtsc_hook)
		return fake_rdtsc_hook();
	return __atomic_add_fetch(&tsc_val, tsc_step, __ATOMIC_RELAXED);
}
void mfence(void)
{
	fake_cpus[cur_cpu].mfence_count++;
	tracef("mfence");
}
void lfence(void)
{
	fake_cpus[cur_cpu].lfence_count++;
	tracef("lfence");
}

void fake_io_set_in(u32 value)
{
	io_in = value;
}
void outb(u16 port, u8 v)
{
	tracef("outb %#x %#x", port, v);
}
void outw(u16 port, u16 v)
{
	tracef("outw %#x %#x", port, v);
}
void outl(u16 port, u32 v)
{
	tracef("outl %#x %#x", port, v);
}
u8 (*fake_inb_hook)(u16 port);

u8 inb(u16 port)
{
	return fake_inb_hook ? fake_inb_hook(port) : (u8)io_in;
}
u16 inw(u16 port)
{
	(void)port;
	return (u16)io_in;
}
u32 inl(u16 port)
{
	(void)port;
	return io_in;
}

u32 (*fake_mmio_read_hook)(u64 addr);
void (*fake_mmio_write_hook)(u64 addr, u32 val);
u32 mmio_read32(hpa_t a)
{
	if (fake_mmio_read_hook)
		return fake_mmio_read_hook(a.v);
	return *(volatile u32 *)hpa_to_ptr(a);
}
void mmio_write32(hpa_t a, u32 v)
{
	tracef("mmio %#llx %#x", (unsigned long long)a.v, v);
	if (fake_mmio_write_hook)
		fake_mmio_write_hook(a.v, v);
	else
		*(volatile u32 *)hpa_to_ptr(a) = v;
}

_Noreturn void cpu_dead(void)
{
	fail_msg("cpu_dead() reached on fake cpu%u", cur_cpu);
	abort();
}

/* Extended state: XCR0, vector registers (fake_cpu_state.vec), DRs. */
#define FAKE_XMM0 160
#define FAKE_XSTATE_BV 512

u64 xgetbv(u32 xcr)
{
	assert_int_equal(xcr, 0);
	return fake_cpus[cur_cpu].xcr0;
}

void xsetbv(u32 xcr, u64 val)
{
	assert_int_equal(xcr, 0);
	fake_cpus[cur_cpu].xcr0 = val;
	tracef("xsetbv %u %#llx", xcr, (unsigned long long)val);
}

void xsave(void *area, u64 mask)
{
	struct fake_cpu_state *c = &fake_cpus[cur_cpu];
	u64 bv = mask & c->xcr0;

	assert_true(((uintptr_t)area & 63) == 0); /* else #GP */
	memcpy((u8 *)area + FAKE_XMM0, c->vec, sizeof(c->vec));
	memcpy((u8 *)area + FAKE_XSTATE_BV, &bv, sizeof(bv));
	tracef("xsave %#llx", (unsigned long long)mask);
}

void xrstor(const void *area, u64 mask)
{
	struct fake_cpu_state *c = &fake_cpus[cur_cpu];
	u64 bv;

	assert_true(((uintptr_t)area & 63) == 0);
	memcpy(&bv, (const u8 *)area + FAKE_XSTATE_BV, sizeof(bv));
	if (bv & mask & c->xcr0 & 2)
		memcpy(c->vec, (const u8 *)area + FAKE_XMM0, sizeof(c->vec));
	else
		memset(c->vec, 0, sizeof(c->vec));
	tracef("xrstor %#llx bv %#llx", (unsigned long long)mask,
	       (unsigned long long)bv);
}

void fxsave(void *area)
{
	struct fake_cpu_state *c = &fake_cpus[cur_cpu];

	assert_true(((uintptr_t)area & 15) == 0);
	memcpy((u8 *)area + FAKE_XMM0, c->vec, sizeof(c->vec));
	tracef("fxsave");
}

void fxrstor(const void *area)
{
	struct fake_cpu_state *c = &fake_cpus[cur_cpu];

	assert_true(((uintptr_t)area & 15) == 0);
	memcpy(c->vec, (const u8 *)area + FAKE_XMM0, sizeof(c->vec));
	tracef("fxrstor");
}

u64 read_dr(unsigned n)
{
	assert_true(n < 8);
	return fake_cpus[cur_cpu].dr[n];
}

void write_dr(unsigned n, u64 v)
{
	assert_true(n < 8);
	fake_cpus[cur_cpu].dr[n] = v;
	tracef("dr%u %#llx", n, (unsigned long long)v);
}
