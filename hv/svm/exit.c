/* hv/svm/exit.c - the one #VMEXIT dispatcher: count the exit, switch on the
 * 64-bit exit code (APM vol 2, appendix C), call one handler. */
#include "hv/svm/exit.h"
#include "hv/svm/exit_decode.h"
#include "include/minhv/hypercall_abi.h"
#include "hv/guest/guest.h"

enum exit_action exit_dispatch(struct vcpu *v)
{
	u64 code = v->vmcb->control.exit_code;

	v->stats.exits++;
	v->stats.count[exit_kind_of(code)]++;
	switch (code) {
	case VMEXIT_CPUID:
		return exit_cpuid(v);
	case VMEXIT_VMMCALL:
		return hypercall_handle(v);
	case VMEXIT_IOIO:
		return exit_ioio(v);
	case VMEXIT_MSR:
		return exit_msr(v);
	case VMEXIT_HLT:
		return exit_hlt(v);
	case VMEXIT_PAUSE:
		return exit_pause(v);
	case VMEXIT_NPF:
		return exit_npf(v);
	case VMEXIT_INTR:
	case VMEXIT_NMI:
		return exit_intr(v);
	case VMEXIT_SHUTDOWN:
		return exit_shutdown(v);
	case VMEXIT_VMRUN:
	case VMEXIT_VMLOAD:
	case VMEXIT_VMSAVE:
	case VMEXIT_STGI:
	case VMEXIT_CLGI:
	case VMEXIT_SKINIT:
	case VMEXIT_INVLPGA:
		return exit_svm_insn(v);
	case VMEXIT_EXCP_DB:
	case VMEXIT_EXCP_AC:
	case VMEXIT_EXCP_MC:
		return exit_exception(v);
	case VMEXIT_INVD:
	case VMEXIT_WBINVD:
		return exit_cache_insn(v);
	case VMEXIT_XSETBV:
		return exit_xsetbv(v);
	case VMEXIT_INVALID:
	case VMEXIT_INVALID_32:
		return exit_invalid(v);
	default:
		return exit_unexpected(v);
	}
}
