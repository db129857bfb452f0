// SPDX-License-Identifier: GPL-2.0-only
/* tests/doubles/fake_svm.c - see fake_svm.h. */
#include "arch/msr.h"
#include "tests/doubles/fake_cpu.h"
#include "tests/doubles/fake_svm.h"

void (*fake_vmrun_hook)(struct fake_svm_regs *r);
bool fake_gif = true;
u64 fake_spec_ctrl_at_stgi;

void fake_svm_reset(void)
{
	fake_vmrun_hook = NULL;
	fake_gif = true;
	fake_spec_ctrl_at_stgi = 0;
}

void fake_svm_insn(int op, struct fake_svm_regs *r)
{
	unsigned cpu = fake_cpu_current();

	switch (op) {
	case FAKE_CLGI:
		fake_gif = false;
		fake_trace_note("clgi");
		break;
	case FAKE_STGI:
		fake_spec_ctrl_at_stgi =
			fake_msr_exists(cpu, MSR_SPEC_CTRL) ?
				fake_msr_read(cpu, MSR_SPEC_CTRL) :
				~0ULL;
		fake_gif = true;
		fake_trace_note("stgi");
		break;
	case FAKE_STI:
		fake_cpus[cpu].irq_enabled = true;
		fake_trace_note("sti");
		break;
	case FAKE_CLI:
		fake_cpus[cpu].irq_enabled = false;
		fake_trace_note("cli");
		break;
	case FAKE_VMLOAD:
		fake_trace_note("vmload %#llx", (unsigned long long)r->rax);
		break;
	case FAKE_VMSAVE:
		fake_trace_note("vmsave %#llx", (unsigned long long)r->rax);
		break;
	case FAKE_VMRUN: {
		u64 rax = r->rax;

		fake_trace_note("vmrun %#llx", (unsigned long long)rax);
		if (fake_vmrun_hook)
			fake_vmrun_hook(r);
		r->rax = rax; /* #VMEXIT restores host RAX (APM 15.6) */
		break;
	}
	case FAKE_WRMSR:
		wrmsr((u32)r->rcx, (r->rdx << 32) | (u32)r->rax);
		break;
	case FAKE_RSB_FILL:
		fake_trace_note("rsb fill");
		break;
	default:
		fake_trace_note("unknown svm op %d", op);
		break;
	}
}
