// SPDX-License-Identifier: GPL-2.0-only
/* guest/smp.c - vCPU ids and a mailbox per vCPU: an AP runs one function,
 * marks it done and parks itself (HC_VCPU_OFFLINE) until woken again. */
#include "guest/smp.h"
#include "guest/atomic.h"
#include "guest/hypercall.h"
#include "guest/x86.h"

#define ACK_SPINS 10000000

struct start_block {
	void (*volatile fn)(void *);
	void *volatile arg;
	volatile u64 seq; /* work posted */
	volatile u64 ack; /* work taken */
	volatile u64 done; /* work finished */
	volatile bool started;
};

const struct hv_boot_info *boot_info;
static struct vcpu_local locals[GUEST_MAX_VCPUS];
static struct start_block blocks[GUEST_MAX_VCPUS];

extern char ap_entry[];
_Noreturn void ap_main(struct start_block *b);

u32 smp_id(void)
{
	long r = hc_vcpu_info();

	return r < 0 ? 0 : (u32)r % GUEST_MAX_VCPUS;
}

u32 smp_nr(void)
{
	long r = hc_vcpu_info();

	return r < 0 ? 1 : (u32)((u64)r >> 32);
}

struct vcpu_local *this_vcpu(void)
{
	return &locals[smp_id()];
}

_Noreturn void ap_main(struct start_block *b)
{
	u32 id = (u32)(b - blocks);

	for (;;) {
		u64 seq = atomic_read(&b->seq);

		if (seq != atomic_read(&b->done)) {
			atomic_set(&b->ack, seq);
			b->fn(b->arg);
			atomic_set(&b->done, seq);
		}
		hc_vcpu_offline(id);
	}
}

int vcpu_run(u32 id, void (*fn)(void *), void *arg)
{
	struct start_block *b = &blocks[id];
	u64 seq;
	long r;

	if (id >= GUEST_MAX_VCPUS || !vcpu_wait(id))
		return -HC_EBUSY;
	b->fn = fn;
	b->arg = arg;
	seq = atomic_read(&b->seq) + 1;
	atomic_set(&b->seq, seq);
	if (!b->started) {
		r = hc_vcpu_start(id, (u64)(uintptr_t)ap_entry,
				  boot_info->stack_top - id * GUEST_STACK_SIZE,
				  (u64)(uintptr_t)b);
		if (r < 0) {
			atomic_set(&b->done, seq);
			return (int)r;
		}
		b->started = true;
		return 0;
	}
	/* It may not have parked yet: wake it until it takes the work. */
	for (;;) {
		r = hc_vcpu_online(id);
		for (int i = 0; i < ACK_SPINS; i++)
			if (atomic_read(&b->ack) == seq)
				return 0;
		if (r < 0 && r != -HC_EBUSY) {
			atomic_set(&b->done, seq);
			return (int)r;
		}
	}
}

bool vcpu_wait(u32 id)
{
	struct start_block *b = &blocks[id];
	u64 t0 = rdtsc();

	while (atomic_read(&b->done) != atomic_read(&b->seq))
		if (rdtsc() - t0 > VCPU_WAIT_TSC)
			return false;
	return true;
}

u32 on_all_vcpus(void (*fn)(void *), void *arg)
{
	u32 self = smp_id(), nr = smp_nr(), ran = 1, id;
	bool ok[GUEST_MAX_VCPUS];

	for (id = 0; id < nr; id++)
		ok[id] = id != self && vcpu_run(id, fn, arg) == 0;
	fn(arg);
	for (id = 0; id < nr; id++)
		if (ok[id] && vcpu_wait(id))
			ran++;
	return ran;
}
