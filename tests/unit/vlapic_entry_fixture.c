// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/vlapic_entry_fixture.c - the rig of the vLAPIC entry suites:
 * the guest, the fake clock and the host timer's starts
 * (vlapic_entry_fixture.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "arch/apicdef.h"
#include "arch/msr.h"
#include "hv/run/run.h"
#include "hv/svm/vlapic_vcpu.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_trap.h"
#include "tests/unit/run_fixture.h"
#include "tests/unit/vlapic_entry_fixture.h"

struct guest *ve_g;
struct vcpu *ve_v;
u64 ve_now;
unsigned ve_arms;
u64 ve_wait_step;
u64 ve_last_init;
bool ve_post_at_start;
bool ve_tick_at_start;

static u64 clock_now(void)
{
	return ve_now;
}

/* Every start of the host timer for the guest's: host_at is stored first
 * and interrupts are off, so a short count that fires at once clears the
 * host_at of this start, never a stale one (a stale host_at made the next
 * wait park with no timer running: a lost wake-up of sti; hlt). */
static void count_arms(u32 msr, u64 val)
{
	if (msr != X2APIC_MSR(APIC_REG_TIMER_INIT) || !val)
		return;
	ve_arms++;
	ve_last_init = val;
	if (val == WD_TICKS)
		return; /* the watchdog's tick */
	assert_false(fake_cpus[fake_cpu_current()].irq_enabled);
	assert_true(ve_v->lapic.c.host_at != 0);
	ve_now += ve_wait_step; /* time passes while the host waits */
	if (ve_tick_at_start) /* its interrupt, once the starter's IF is on */
		fake_idt[VEC_TIMER](NULL);
	if (ve_post_at_start) { /* another CPU's interrupt ends the wait */
		ve_post_at_start = false;
		vlapic_deliver(&ve_v->lapic, APIC_DM_FIXED, VEC, false);
	}
}

/* A multiboot guest whose vCPU 0 has its vLAPIC software-enabled. */
int ve_setup(void **s)
{
	struct guest_params p;

	(void)s;
	rf_setup(1, 0);
	ve_now = 0;
	ve_arms = 0;
	ve_wait_step = 0;
	ve_last_init = 0;
	ve_post_at_start = false;
	ve_tick_at_start = false;
	fake_rdtsc_hook = clock_now;
	p = rf_params(GUEST_MULTIBOOT, 1);
	assert_int_equal(guest_create(&p, &ve_g), 0);
	ve_v = ve_g->vcpus[0];
	assert_int_equal(vlapic_reg_write(&ve_v->lapic, APIC_REG_SVR,
					  APIC_SVR_ENABLE | 0xff),
			 0);
	fake_wrmsr_hook = count_arms;
	return 0;
}

int ve_teardown(void **s)
{
	(void)s;
	guest_destroy(ve_g);
	rf_teardown();
	return 0;
}

void ve_set_if(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags |= RFLAGS_IF;
}

void ve_clear_if(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags &= ~RFLAGS_IF;
}

/* Another CPU sends VEC to vCPU 0 while it is out of the guest. */
void ve_post(void)
{
	vlapic_deliver(&ve_v->lapic, APIC_DM_FIXED, VEC, false);
}

const struct fake_entry *ve_entry(unsigned i)
{
	return fake_vmrun_entry(i);
}

/* isa-debug-exit, value 0: the guest passed and stops. */
void ve_check_passed(unsigned vmruns)
{
	assert_int_equal(fake_vmrun_count(), vmruns);
	assert_true(ve_g->stopping);
	assert_false(ve_g->failed);
	assert_int_equal(ve_g->exit_status, 1);
	assert_false(ve_v->in_loop);
}

void ve_run_passed(const struct fake_exit *script, unsigned n, unsigned vmruns)
{
	fake_vmrun_script(script, n);
	run_guest(ve_g);
	ve_check_passed(vmruns);
}

bool ve_in_service(u8 vec)
{
	u64 isr;

	assert_int_equal(vlapic_reg_read(&ve_v->lapic,
					 APIC_REG_ISR + (vec / 32) * 0x10,
					 &isr),
			 0);
	return isr & (1u << (vec % 32));
}

u64 ve_offer_of(unsigned i)
{
	return ve_entry(i)->vmcb.control.v_intr & OFFER_MASK;
}

void ve_x2apic_on(void)
{
	ve_v->lapic.cfg.x2apic = true; /* as CPUID says it to a guest with it */
	assert_int_equal(
		vlapic_apic_base_write(&ve_v->lapic,
				       APIC_DEFAULT_BASE | APIC_BASE_EN |
					       APIC_BASE_EXTD | APIC_BASE_BSP),
		0);
}

void ve_sti_hlt(struct vmcb *vm, struct svm_gprs *r, u64 arg)
{
	(void)r;
	(void)arg;
	vm->save.rflags |= RFLAGS_IF;
	vm->control.int_shadow |= INT_SHADOW;
}
