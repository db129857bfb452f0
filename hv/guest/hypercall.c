/* hv/guest/hypercall.c - the hypervisor side of the VMMCALL ABI
 * (include/minhv/hypercall_abi.h, docs/HYPERCALLS.md; APM vol 2, 15.13.3). Number in
 * RAX, arguments RDI RSI RDX R10 R8, result in RAX. Every guest pointer
 * goes through guest_mem.c before it is touched. Handlers return -E*
 * (hv/errno.h) like the rest of minhv; hc_result() turns them into the
 * ABI's -HC_E* in RAX, here and nowhere else. */
#include "hv/errno.h"
#include "hv/svm/exit.h"
#include "hv/guest/guest.h"
#include "lib/string.h"

struct hc_args {
	u64 a0, a1, a2, a3, a4;
};

static s64 hc_console_write(struct vcpu *v, const struct hc_args *a)
{
	void *p;
	int r;

	if (a->a1 > HC_MAX_CONSOLE_LEN)
		return -E2BIG;
	r = guest_mem_range(v->guest, a->a0, a->a1, 1, &p);
	if (r)
		return r;
	vcpu_console_put(v, p, a->a1);
	return (s64)a->a1;
}

static bool name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (*s <= ' ' || *s > '~' || *s == '#')
			return false;
	return true;
}

static s64 hc_report(struct vcpu *v, const struct hc_args *a)
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
		if (diag[i] == '\n' || diag[i] == '\r' || diag[i] == '#')
			diag[i] = ' ';
	guest_report(v->guest, name, (enum hc_result)a->a1, diag);
	return 0;
}

static struct vcpu *vcpu_arg(struct vcpu *v, u64 id)
{
	return id < v->guest->nr_vcpus ? v->guest->vcpus[id] : NULL;
}

static s64 hc_vcpu_start(struct vcpu *v, const struct hc_args *a)
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
		return -EINVAL;
	if (t->state != VCPU_IDLE)
		return -EBUSY;
	t->vmcb->save.rip = a->a1;
	t->vmcb->save.rsp = a->a2;
	t->gprs.rdi = a->a3;
	return vcpu_launch(t);
}

static s64 hc_vcpu_offline(struct vcpu *v, const struct hc_args *a)
{
	struct vcpu *t = vcpu_arg(v, a->a0);
	int r;

	if (!t)
		return -EINVAL; /* no such vCPU */
	r = vcpu_set_offline(t);
	if (!r && t != v) {
		vcpu_kick(t);
		vcpu_wait_out(t); /* synchronous: t runs no more */
	}
	return r;
}

static s64 hc_vcpu_online(struct vcpu *v, const struct hc_args *a)
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

		c->exits_total += t->exits;
		for (unsigned k = 0; k < EK_NR; k++)
			f[map[k]] += t->count[k];
	}
}

static s64 hc_get_counters(struct vcpu *v, const struct hc_args *a)
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

enum exit_action hypercall_handle(struct vcpu *v)
{
	struct vmcb_save *s = &v->vmcb->save;
	struct hc_args a = { v->gprs.rdi, v->gprs.rsi, v->gprs.rdx, v->gprs.r10,
			     v->gprs.r8 };
	s64 ret;

	if (s->cpl != 0) {
		ret = -EPERM; /* only the guest kernel may call */
	} else {
		switch (s->rax) {
		case HC_CONSOLE_WRITE:
			ret = hc_console_write(v, &a);
			break;
		case HC_REPORT:
			ret = hc_report(v, &a);
			break;
		case HC_VCPU_START:
			ret = hc_vcpu_start(v, &a);
			break;
		case HC_VCPU_OFFLINE:
			ret = hc_vcpu_offline(v, &a);
			break;
		case HC_VCPU_ONLINE:
			ret = hc_vcpu_online(v, &a);
			break;
		case HC_GET_COUNTERS:
			ret = hc_get_counters(v, &a);
			break;
		case HC_EXIT:
			vcpu_console_flush(v);
			guest_stop(v->guest, (s64)a.a0, false,
				   "exited with status %lld", (long long)a.a0);
			return EXIT_LEAVE;
		case HC_VCPU_INFO:
			ret = v->id | ((s64)v->guest->nr_vcpus << 32);
			break;
		default:
			ret = -ENOSYS;
		}
	}
	s->rax = (u64)hc_result(ret);
	return vcpu_skip_insn(v) ? EXIT_RESUME : EXIT_LEAVE;
}
