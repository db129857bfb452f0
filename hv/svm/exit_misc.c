// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_misc.c - the small exits: HLT, PAUSE, NPF (APM vol 2, 15.25.6),
 * SHUTDOWN (15.13.3 triple fault, or a machine check the guest could not
 * take), SVM instructions from the guest
 * (-> #UD, as on a CPU without SVM), INTR/NMI (15.13.1, 15.17). */
#include "arch/cr.h"
#include "hv/svm/exit.h"
#include "hv/svm/sched_cpu.h"
#include "hv/vmcb/exit_decode.h"
#include "hv/guest/guest.h"
#include "hv/log.h"
#include "hv/guest/mmio.h"
#include "arch/errno.h"
#include "hv/ras/ras.h"
#include "hv/vlapic/vlapic.h"
#include "lib/fmt.h"

enum exit_action exit_hlt(struct vcpu *v)
{
	if (!vcpu_skip_insn(v))
		return EXIT_LEAVE;
	/* A foreign guest's vLAPIC wakes it (hv/svm/vlapic_vcpu.c). */
	if (guest_has_platform(v->guest))
		return vlapic_hlt(v) ? EXIT_RESUME : EXIT_LEAVE;
	/* No virtual interrupts: with IF=0 nothing can ever wake it. */
	if (!(v->vmcb->save.rflags & RFLAGS_IF)) {
		vcpu_set_done(v);
		return EXIT_LEAVE;
	}
	vcpu_set_halted(v);
	return vcpu_wait_wakeup(v) ? EXIT_RESUME : EXIT_LEAVE;
}

/* Intercepted only where vCPUs share CPUs (or pause_intercept=on): the
 * spinner may give its CPU away (pause_yield=, hv/svm/sched_cpu.c). */
enum exit_action exit_pause(struct vcpu *v)
{
	if (!vcpu_skip_insn(v))
		return EXIT_LEAVE;
	return vcpu_pause_yield(v) ? EXIT_LEAVE : EXIT_RESUME;
}

/* The vLAPIC's MMIO ops behind the sync each access needs first (dev is
 * the vCPU): a read the time and TPR from CR8, and no entry work; a
 * write what vlapic_sync_write() says for its register. */
static int lapic_read(void *dev, u64 off, unsigned size, u64 *val)
{
	struct vcpu *v = dev;

	vlapic_sync_read(v);
	return vlapic_mmio_ops.read(&v->lapic, off, size, val);
}

static int lapic_write(void *dev, u64 off, unsigned size, u64 val)
{
	struct vcpu *v = dev;

	vlapic_sync_write(v, (u32)off & ~0xfu);
	return vlapic_mmio_ops.write(&v->lapic, off, size, val);
}

static const struct mmio_ops lapic_ops = { lapic_read, lapic_write };

/* Out of line: the bytes in hex, the guest stopped. */
static __attribute__((noinline, cold)) void
mmio_failed(struct vcpu *v, u64 addr, const char *dev, int r,
	    const struct mmio_bytes *seen)
{
	char hex[3 * INSN_MAX_LEN + 1] = "";

	for (unsigned i = 0; i < seen->n; i++)
		fmt_snprintf(hex + 3 * i, sizeof(hex) - 3 * i, "%02x ",
			     seen->b[i]);
	guest_stop(
		v->guest, -1, true,
		"vCPU %u: %s access at GPA %#llx not emulated (%d), RIP %#llx, bytes [ %s]",
		v->id, dev, (unsigned long long)addr, r,
		(unsigned long long)v->vmcb->save.rip, hex);
}

/* Only an instruction's data access to the final address is a device
 * access minhv emulates (AUDIT D2, B5): EXITINFO1 bit 32 set, bit 33 (a
 * guest page-table walk) and the fetch bit clear, and no event being
 * delivered (EXITINTINFO valid: the fault hit the IDT, a stack or a TSS
 * on the way to a handler, not the instruction at RIP). */
static bool npf_is_data_access(const struct vmcb_control *c)
{
	struct npf_info f;

	exit_npf_decode(c->exit_info1, &f);
	return f.final_gpa && !f.guest_walk && !f.fetch &&
	       !(c->exit_int_info & EVENTINJ_VALID);
}

/* Any other access to a device page stops the guest, saying what it was. */
static __attribute__((noinline, cold)) enum exit_action
not_data_access(struct vcpu *v, u64 addr, const char *dev)
{
	const struct vmcb_control *c = &v->vmcb->control;
	struct npf_info f;
	char why[96];

	exit_npf_decode(c->exit_info1, &f);
	exit_npf_describe(&f, why, sizeof(why));
	guest_stop(v->guest, -1, true,
		   "vCPU %u: %s%s at %s GPA %#llx: not emulated, RIP %#llx",
		   v->id, why,
		   (c->exit_int_info & EVENTINJ_VALID) ? " in event delivery" :
							 "",
		   dev, (unsigned long long)addr,
		   (unsigned long long)v->vmcb->save.rip);
	return EXIT_LEAVE;
}

/* A foreign guest's MMIO devices: its xAPIC page (left unmapped in the
 * NPT) and the platform's (hv/platform/mmio_map.c: the I/O APIC, the HPET,
 * the virtio disk; outside guest RAM), so each access faults here and is
 * emulated from the instruction's bytes. E_NOT_MINE when gpa is in none
 * of them. */
static int device_mmio(struct vcpu *v, u64 addr, enum exit_action *act)
{
	struct mmio_region reg = { vlapic_mmio_base(&v->lapic), PAGE_SIZE,
				   &lapic_ops, v, "local APIC" };
	struct mmio_bytes seen = { 0 };
	bool lapic = addr - reg.base.v < reg.size;
	int r;

	if (!guest_has_platform(v->guest))
		return E_NOT_MINE;
	if (!lapic && platform_mmio_find(&v->guest->plat, addr, &reg))
		return E_NOT_MINE;
	if (!npf_is_data_access(&v->vmcb->control)) {
		*act = not_data_access(v, addr, lapic ? "APIC" : reg.name);
		return 0;
	}
	r = mmio_emulate(v, gpa(addr), &reg, &seen);
	*act = r ? EXIT_LEAVE : EXIT_RESUME;
	if (r)
		mmio_failed(v, addr, reg.name, r, &seen);
	return 0;
}

enum exit_action exit_npf(struct vcpu *v)
{
	struct vmcb_control *c = &v->vmcb->control;
	struct npf_info n;
	enum exit_action act;
	char why[96];

	if (device_mmio(v, c->exit_info2, &act) != E_NOT_MINE)
		return act;
	exit_npf_decode(c->exit_info1, &n);
	exit_npf_describe(&n, why, sizeof(why));
	if (c->exit_info2 >= v->guest->mem_size)
		guest_stop(
			v->guest, -1, true,
			"vCPU %u: nested page fault at GPA %#llx outside guest memory (%#llx bytes): %s, RIP %#llx",
			v->id, (unsigned long long)c->exit_info2,
			(unsigned long long)v->guest->mem_size, why,
			(unsigned long long)v->vmcb->save.rip);
	else
		guest_stop(
			v->guest, -1, true,
			"vCPU %u: unexpected nested page fault at GPA %#llx inside guest memory: %s (info1 %#llx), RIP %#llx",
			v->id, (unsigned long long)c->exit_info2, why,
			(unsigned long long)c->exit_info1,
			(unsigned long long)v->vmcb->save.rip);
	return EXIT_LEAVE;
}

enum exit_action exit_shutdown(struct vcpu *v)
{
	char why[160];

	/* A #MC the guest could not take (its CR4.MCE clear, on a CPU
	 * without HOST_MCE_OVERRIDE; or no IDT entry) ends as a shutdown. */
	if (ras_mce_shutdown(v->id, why, sizeof(why))) {
		guest_stop(v->guest, -1, true, "vCPU %u: %s, at RIP %#llx",
			   v->id, why, (unsigned long long)v->vmcb->save.rip);
		return EXIT_LEAVE;
	}
	guest_stop(v->guest, -1, true,
		   "vCPU %u: triple fault (SHUTDOWN) at RIP %#llx", v->id,
		   (unsigned long long)v->vmcb->save.rip);
	return EXIT_LEAVE;
}

/* SVM instructions (no nested SVM), and MONITOR, MWAIT, MONITORX and
 * MWAITX (the last two exit as the first two): the guest's CPUID has
 * neither SVM nor MONITOR (1:ECX[3]) nor MONITORX (0x80000001:ECX[29]), so
 * #UD as on a CPU without them. KVM does the same for MWAIT when the
 * guest's CPUID lacks it and its "MWAIT never #UD" quirk is off; a native
 * MWAIT would idle the physical CPU behind the host's back (docs/SVM.md). */
enum exit_action exit_svm_insn(struct vcpu *v)
{
	/* A fault: RIP stays on the instruction. */
	vcpu_inject_exception(v, VEC_UD, false, 0);
	return EXIT_RESUME;
}

enum exit_action exit_intr(struct vcpu *v)
{
	(void)v;
	/* Already handled: arch/svm.asm ran VMRUN with host IF=1, so the
	 * interrupt (or NMI) was taken by the host IDT right at its STGI. */
	return EXIT_RESUME;
}

enum exit_action exit_unexpected(struct vcpu *v)
{
	vmcb_dump(v->vmcb);
	guest_stop(v->guest, -1, true, "vCPU %u: unexpected exit %#llx (%s)",
		   v->id, (unsigned long long)v->vmcb->control.exit_code,
		   exit_name(v->vmcb->control.exit_code));
	return EXIT_LEAVE;
}
