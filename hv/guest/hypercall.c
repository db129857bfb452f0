// SPDX-License-Identifier: GPL-2.0-only
/* hv/guest/hypercall.c - the hypervisor side of the VMMCALL ABI
 * (include/minhv/hypercall_abi.h, docs/HYPERCALLS.md; APM vol 2, 15.13.3). Number in
 * RAX, arguments RDI RSI RDX R10 R8, result in RAX. Every guest pointer
 * goes through mem.c before it is touched. Handlers return -E*
 * (arch/errno.h) like the rest of minhv; hc_result() turns them into the
 * ABI's -HC_E* in RAX, here and nowhere else. */
#include "arch/errno.h"
#include "hv/guest/guest.h"
#include "lib/string.h"

/* Arguments are read from the saved GPRs in place (no copy): a0 RDI,
 * a1 RSI, a2 RDX, a3 R10 (a4 R8 is unused so far). */
#define a0 rdi
#define a1 rsi
#define a2 rdx
#define a3 r10

typedef s64 (*hc_fn_t)(struct vcpu *v, const struct svm_gprs *a);

static s64 hc_console_write(struct vcpu *v, const struct svm_gprs *a)
{
	void *p;
	int r;

	if (a->a1 > HC_MAX_CONSOLE_LEN)
		return -E2BIG;
	r = guest_mem_range(v->guest, a->a0, a->a1, 1, &p);
	if (r)
		return r;
	guest_console_put(v, p, a->a1);
	return (s64)a->a1;
}

/* Only characters the guest text filter leaves alone, and no space. */
static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s == ' ' || *s == '\t' || guest_text_char(*s, true) != *s)
			return false;
	return true;
}

static s64 hc_report(struct vcpu *v, const struct svm_gprs *a)
{
	char name[HC_MAX_NAME_LEN], diag[HC_MAX_DIAG_LEN + 1];
	void *p;
	int r;

	/* A name is at least one character and its NUL. */
	r = guest_mem_range(v->guest, a->a0, 2, 1, &p);
	if (r)
		return r;
	r = guest_copy_str(v->guest, a->a0, name, sizeof(name));
	if (r)
		return r;
	if (!name_ok(name) || a->a1 > HC_RESULT_SKIP)
		return -EINVAL;
	if (a->a3 > HC_MAX_DIAG_LEN)
		return -E2BIG;
	r = guest_mem_range(v->guest, a->a2, a->a3, 1, &p);
	if (r)
		return r;
	memcpy(diag, p ? p : "", a->a3);
	diag[a->a3] = 0;
	for (u64 i = 0; i < a->a3; i++)
		diag[i] = guest_text_char(diag[i], true);
	guest_report(v->guest, name, (enum hc_result)a->a1, diag);
	return 0;
}

/* The number of results the guest will send: recorded once (results beyond
 * it, or fewer at the end, fail: report.c). */
static s64 hc_test_plan(struct vcpu *v, const struct svm_gprs *a)
{
	u64 none = 0;

	if (a->a0 > GUEST_MAX_REPORTS)
		return -HC_E2BIG;
	if (!__atomic_compare_exchange_n(&v->guest->plan, &none, a->a0 + 1,
					 false, __ATOMIC_RELEASE,
					 __ATOMIC_RELAXED))
		return -HC_EBUSY; /* a plan is announced once */
	return 0;
}

static struct vcpu *vcpu_arg(struct vcpu *v, u64 id)
{
	return id < v->guest->nr_vcpus ? v->guest->vcpus[id] : NULL;
}

static s64 hc_vcpu_start(struct vcpu *v, const struct svm_gprs *a)
{
	struct vcpu *t = vcpu_arg(v, a->a0);
	struct guest *g = v->guest;

	if (!t)
		return -EINVAL; /* no such vCPU */
	/* Entry inside guest memory; stack top in (page 0, mem_size],
	 * 8-byte aligned. */
	if (a->a1 < PAGE_SIZE || a->a1 >= g->mem_size)
		return -EFAULT;
	if (a->a2 <= PAGE_SIZE || a->a2 > g->mem_size)
		return -EFAULT;
	if (!IS_ALIGNED(a->a2, 8))
		return -HC_EINVAL;
	/* Claim first, under the lock: a caller that loses never touches
	 * the target's registers. */
	if (vcpu_claim_start(t))
		return -HC_EBUSY;
	vcpu_reset(t, a->a1, a->a2, a->a3);
	return vcpu_launch(t);
}

static s64 hc_vcpu_offline(struct vcpu *v, const struct svm_gprs *a)
{
	struct vcpu *t = vcpu_arg(v, a->a0);
	int r;

	if (!t)
		return -EINVAL; /* no such vCPU */
	r = vcpu_set_offline(t);
	if (!r && t != v) {
		vcpu_kick(t);
		/* synchronous: t runs no more; bounded, another vCPU may
		 * bring it back online meanwhile */
		r = vcpu_wait_out(t);
	}
	return r;
}

static s64 hc_vcpu_online(struct vcpu *v, const struct svm_gprs *a)
{
	struct vcpu *t = vcpu_arg(v, a->a0);
	int r;

	if (!t)
		return -EINVAL; /* no such vCPU */
	r = vcpu_set_online(t);
	if (!r)
		vcpu_kick(t);
	return r;
}

void guest_counters(const struct guest *g, struct hc_counters *c)
{
	static const u8 map[EK_NR] = {
		[EK_CPUID] = 1,	    [EK_VMMCALL] = 2,	[EK_IOIO] = 3,
		[EK_MSR] = 4,	    [EK_HLT] = 5,	[EK_PAUSE] = 6,
		[EK_NPF] = 7,	    [EK_INTR] = 8,	[EK_NMI] = 9,
		[EK_SHUTDOWN] = 10, [EK_SVM_INSN] = 11, [EK_OTHER] = 12,
	};
	unsigned long long *f = &c->exits_total;

	_Static_assert(sizeof(*c) == 13 * sizeof(u64), "hc_counters layout");
	memset(c, 0, sizeof(*c));
	for (u32 i = 0; i < g->nr_vcpus; i++) {
		const struct vcpu *t = g->vcpus[i];

		c->exits_total += t->stats.exits;
		for (unsigned k = 0; k < EK_NR; k++)
			f[map[k]] += t->stats.count[k];
	}
}

static s64 hc_get_counters(struct vcpu *v, const struct svm_gprs *a)
{
	struct hc_counters c;
	void *p;
	int r;

	if (a->a1 < sizeof(c))
		return -EINVAL;
	r = guest_mem_range(v->guest, a->a0, sizeof(c), 8, &p);
	if (r)
		return r;
	if (!p)
		return -EFAULT;
	guest_counters(v->guest, &c);
	memcpy(p, &c, sizeof(c));
	return sizeof(c);
}

/* The ABI's errno for a hypervisor one; codes the ABI does not have
 * become HC_EINVAL. */
static s64 hc_result(s64 r)
{
	switch (r) {
	case -EPERM:
		return -HC_EPERM;
	case -ENOENT:
		return -HC_ENOENT;
	case -E2BIG:
		return -HC_E2BIG;
	case -EFAULT:
		return -HC_EFAULT;
	case -EBUSY:
		return -HC_EBUSY;
	case -EINVAL:
		return -HC_EINVAL;
	case -ENOSYS:
		return -HC_ENOSYS;
	default:
		return r < 0 ? -HC_EINVAL : r;
	}
}

static s64 hc_vcpu_info(struct vcpu *v, const struct svm_gprs *a)
{
	(void)a;
	return v->id | ((s64)v->guest->nr_vcpus << 32);
}

/* HC_EXIT has no slot: it does not return to the guest. */
static const hc_fn_t hc_table[] = {
	[HC_CONSOLE_WRITE] = hc_console_write,
	[HC_REPORT] = hc_report,
	[HC_VCPU_START] = hc_vcpu_start,
	[HC_VCPU_OFFLINE] = hc_vcpu_offline,
	[HC_VCPU_ONLINE] = hc_vcpu_online,
	[HC_GET_COUNTERS] = hc_get_counters,
	[HC_TEST_PLAN] = hc_test_plan,
	[HC_VCPU_INFO] = hc_vcpu_info,
};

/* Not a table call: CPL > 0, HC_EXIT, unknown numbers. */
static __attribute__((noinline, cold)) enum exit_action
hc_other(struct vcpu *v, struct vmcb_save *s)
{
	s64 ret = -ENOSYS;

	if (s->cpl != 0) {
		ret = -EPERM; /* only the guest kernel may call */
	} else if (s->rax == HC_EXIT) {
		guest_console_flush(v);
		guest_stop(v->guest, (s64)v->gprs.a0, false,
			   "exited with status %lld", (long long)v->gprs.a0);
		return EXIT_LEAVE;
	}
	s->rax = (u64)hc_result(ret);
	return vcpu_skip_insn(v) ? EXIT_RESUME : EXIT_LEAVE;
}

/* Every VMMCALL: one bounds check and a table call; the -E* -> -HC_E*
 * translation only for errors. */
enum exit_action hypercall_handle(struct vcpu *v)
{
	struct vmcb_save *s = &v->vmcb->save;
	u64 nr = s->rax;
	hc_fn_t fn;
	s64 ret;

	if (__builtin_expect(s->cpl != 0 || nr >= ARRAY_SIZE(hc_table) ||
				     !hc_table[nr],
			     0))
		return hc_other(v, s);
	fn = hc_table[nr];
	ret = fn(v, &v->gprs);
	s->rax = (u64)(__builtin_expect(ret >= 0, 1) ? ret : hc_result(ret));
	/* The exit is VMMCALL (0F 01 D9): a known length. */
	vcpu_step_known(v, 3);
	return EXIT_RESUME;
}
