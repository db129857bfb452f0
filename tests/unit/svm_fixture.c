// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/svm_fixture.c - see svm_fixture.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "arch/msr.h"
#include "hv/smp/ipi.h"
#include "hv/svm/exit.h"
#include "hv/svm/sched_cpu.h"
#include "hv/svm/vlapic_vcpu.h"
#include "tests/doubles/fake_console.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/unit/svm_fixture.h"

struct guest *fx_g;
struct vcpu *fx_v[FX_VCPUS];
static struct vcpu *vptrs[FX_VCPUS];
unsigned fx_launches, fx_kicks, fx_reports, fx_self_kicks;
int fx_launch_ret;
char fx_report[512];

void fx_setup(void)
{
	fake_cpu_reset();
	fake_console_clear();
	memset(&g_features, 0, sizeof(g_features));
	g_features.svm = g_features.npt = g_features.nx = true;
	fx_launches = fx_kicks = fx_reports = fx_self_kicks = 0;
	fx_launch_ret = 0;
	fx_wait_out_ret = 0;
	fx_launch_state = 0;
	fx_report[0] = 0;
	fx_g = calloc(1, sizeof(*fx_g));
	strcpy(fx_g->name, "tg");
	fx_g->asid = 1;
	fx_g->mem_size = FX_MEM;
	fx_g->mem_host = aligned_alloc(4096, FX_MEM);
	memset(fx_g->mem_host, 0, FX_MEM);
	fx_g->nr_vcpus = FX_VCPUS;
	fx_g->vcpus = vptrs;
	for (unsigned i = 0; i < FX_VCPUS; i++) {
		struct vcpu *v = calloc(1, sizeof(*v));

		v->vmcb = aligned_alloc(4096, sizeof(struct vmcb));
		memset(v->vmcb, 0, sizeof(struct vmcb));
		v->vmcb->save.efer = EFER_LME | EFER_LMA | EFER_SVME;
		v->vmcb->save.cr0 = 0x80000011;
		v->vmrun_cr0 = v->vmcb->save.cr0;
		v->vmcb->save.cs.attrib =
			0xa9b; /* 64-bit code, as vmcb_build */
		v->vmcb->save.rflags = 0x202;
		v->vmcb->save.g_pat = 0x0007040600070406ULL;
		v->guest = fx_g;
		v->id = i;
		v->state = VCPU_IDLE;
		vptrs[i] = fx_v[i] = v;
	}
	fx_v[0]->state = VCPU_RUNNING;
	fx_g->live = 1;
}

void fx_teardown(void)
{
	for (unsigned i = 0; i < FX_VCPUS; i++) {
		free(fx_v[i]->vmcb);
		free(fx_v[i]);
	}
	free(fx_g->mem_host);
	free(fx_g);
}

u64 fx_put(u64 gpa, const void *src, size_t n)
{
	memcpy((char *)fx_g->mem_host + gpa, src, n);
	return gpa;
}

void fx_exit(struct vcpu *v, u64 code, u64 info1, u64 info2)
{
	v->vmcb->control.exit_code = code;
	v->vmcb->control.exit_info1 = info1;
	v->vmcb->control.exit_info2 = info2;
	v->vmcb->control.event_inj = 0;
	v->vmcb->save.rip = FX_RIP;
	/* A vector offered through V_IRQ and not taken (V_IRQ as the test
	 * left it) is given back first, as the run loop does
	 * (hv/svm/vcpu_run.c). */
	if (guest_has_platform(v->guest) && (v->vmcb->control.v_intr & V_IRQ))
		vlapic_exit_offer(v);
}

enum exit_action exit_dispatch(struct vcpu *v)
{
	return exit_dispatch_fast(v, v->vmcb->control.exit_code);
}

enum exit_action fx_run(u64 code, u64 info1, u64 info2)
{
	fx_exit(fx_v[0], code, info1, info2);
	return exit_dispatch(fx_v[0]);
}

void fx_msr(u32 msr, bool wr, u64 val)
{
	fx_v[0]->gprs.rcx = msr;
	fx_v[0]->vmcb->save.rax = (u32)val;
	fx_v[0]->gprs.rdx = val >> 32;
	assert_int_equal(fx_run(VMEXIT_MSR, wr, 0), EXIT_RESUME);
}

void fx_expect_gp(void)
{
	assert_int_equal(fx_v[0]->vmcb->control.event_inj, FX_GP_EVENT);
	assert_int_equal(fx_v[0]->vmcb->save.rip, FX_RIP); /* not skipped */
}

void fx_expect_ok(void)
{
	assert_int_equal(fx_v[0]->vmcb->control.event_inj, 0);
	assert_int_equal(fx_v[0]->vmcb->save.rip, FX_RIP + 2);
}

void fx_platform(struct vcpu *v)
{
	fx_g->kind = GUEST_MULTIBOOT; /* a foreign guest: a platform */
	vlapic_init(&v->lapic, &(struct vlapic_config){ .vcpu_id = v->id,
							.bsp = v->id == 0,
							.x2apic = true,
							.maxphyaddr = 48,
							.tsc_khz = 1000000 });
}

void fx_long_mode_pt(struct vcpu *v)
{
	u64 e;

	e = 0x2000 | 3;
	fx_put(0x1000, &e, 8);
	e = 0x3000 | 3;
	fx_put(0x2000, &e, 8);
	e = 0x83; /* 2 MiB page at 0 */
	fx_put(0x3000, &e, 8);
	v->vmcb->save.cr3 = 0x1000;
	v->vmcb->save.cr4 = 0x20; /* PAE */
}

int fx_cmocka_setup(void **state)
{
	(void)state;
	fx_setup();
	return 0;
}

int fx_cmocka_teardown(void **state)
{
	(void)state;
	fx_teardown();
	return 0;
}

/* --- fakes of hv/svm/vcpu_run.c, hv/guest/vcpu_kick.c, hv/smp/ipi.c's
 * self kick, the vLAPIC HLT wait (hv/svm/vlapic_vcpu.c) and
 * hv/guest/report.c --- */
int vcpu_launch(struct vcpu *v)
{
	fx_launches++;
	fx_launch_state = v->state;
	if (fx_launch_ret) {
		v->state = VCPU_IDLE;
		return fx_launch_ret;
	}
	v->state = VCPU_RUNNING;
	fx_g->live++;
	return 0;
}

unsigned int fx_waits_out;
int fx_wait_out_ret;
u32 fx_launch_state;

void ipi_self_kick(void)
{
	fx_self_kicks++;
}

void vlapic_host_timer_rearm(struct vcpu *v, u64 now)
{
	(void)v; /* no host LAPIC timer in a unit test */
	(void)now;
}

void vcpu_kick(struct vcpu *v)
{
	(void)v;
	fx_kicks++;
}

int vcpu_wait_out(struct vcpu *v)
{
	(void)v; /* single-threaded: the target is never in guest mode */
	fx_waits_out++;
	return fx_wait_out_ret;
}

bool vlapic_hlt(struct vcpu *v)
{
	/* No other vCPU can send anything: awake only if already pending. */
	return vlapic_wakeup(&v->lapic, v->vmcb->save.rflags & BIT(9));
}

bool vcpu_pause_yield(struct vcpu *v)
{
	(void)v; /* one vCPU per CPU here: nobody to yield to */
	return false;
}

void guest_kick_cpus(struct guest *g)
{
	(void)g; /* no run queues in a unit test */
}

bool vcpu_wait_wakeup(struct vcpu *v)
{
	/* Nothing else runs in a unit test: report whether already woken. */
	return v->state == VCPU_RUNNING && !v->guest->stopping;
}

void guest_report(struct guest *g, const char *name, enum hc_result r,
		  const char *diag)
{
	(void)g;
	fx_reports++;
	snprintf(fx_report, sizeof(fx_report), "%s|%d|%s", name, (int)r, diag);
}
