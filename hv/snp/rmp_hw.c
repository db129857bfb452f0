// SPDX-License-Identifier: GPL-2.0-only
/* hv/snp/rmp_hw.c - the hardware RMP back end: the real RMPUPDATE, PSMASH and
 * RMPOPT instructions (APM vol 3; AMD pub. 69201) and the RMPOPT_BASE MSR. */
#include "hv/snp/rmp.h"
#include "arch/cpu.h"
#include "arch/msr.h"

static void hw_set_base(u64 val)
{
	wrmsr(MSR_AMD_RMPOPT_BASE, val);
}

const struct rmp_ops rmp_hw_ops = {
	.name = "hardware (RMPUPDATE/PSMASH/RMPOPT instructions)",
	.update = rmpupdate_insn,
	.psmash = psmash_insn,
	.opt = rmpopt_insn,
	.set_base = hw_set_base,
	.forget_opt = NULL,
};
