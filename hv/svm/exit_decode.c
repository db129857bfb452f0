/* hv/svm/exit_decode.c - EXITINFO decoding and RIP advance (APM vol 2, 15.7.1
 * NRIP, 15.10.2 IOIO, 15.11 MSR, 15.25.6 NPF). No state, no side effects. */
#include "hv/svm/exit_decode.h"
#include "lib/fmt.h"

void exit_ioio_decode(u64 e, struct ioio_info *io)
{
	io->in = e & BIT(0);
	io->str = e & BIT(2);
	io->rep = e & BIT(3);
	io->size = (e & BIT(4)) ? 1 : (e & BIT(5)) ? 2 : (e & BIT(6)) ? 4 : 0;
	io->addr_bits = (e & BIT(7)) ? 16 :
			(e & BIT(8)) ? 32 :
			(e & BIT(9)) ? 64 :
				       0;
	io->seg = (e >> 10) & 7;
	io->port = (u16)(e >> 16);
}

void exit_npf_decode(u64 e, struct npf_info *n)
{
	n->present = e & BIT(0);
	n->write = e & BIT(1);
	n->user = e & BIT(2);
	n->rsvd = e & BIT(3);
	n->fetch = e & BIT(4);
	n->final_gpa = e & BIT(32);
	n->guest_walk = e & BIT(33);
}

const char *exit_npf_describe(const struct npf_info *n, char *buf, size_t len)
{
	fmt_snprintf(buf, len, "%s %s%s%s",
		     n->fetch ? "fetch from" :
		     n->write ? "write to" :
				"read of",
		     n->rsvd	? "page with reserved bits set" :
		     n->present ? "protected page" :
				  "unmapped page",
		     n->guest_walk ? " during a guest page-table walk" : "",
		     n->final_gpa ? " (final address)" : "");
	return buf;
}

unsigned exit_insn_len_fallback(u64 code)
{
	switch (code) {
	case VMEXIT_CPUID: /* 0F A2 */
	case VMEXIT_PAUSE: /* F3 90 */
	case VMEXIT_MSR: /* 0F 32 / 0F 30 */
	case VMEXIT_INVD: /* 0F 08 */
	case VMEXIT_WBINVD: /* 0F 09; WBNOINVD (F3 0F 09) needs NRIP */
		return 2;
	case VMEXIT_VMMCALL: /* 0F 01 D9 */
	case VMEXIT_XSETBV: /* 0F 01 D1 */
		return 3;
	case VMEXIT_HLT: /* F4 */
		return 1;
	default:
		return 0;
	}
}

bool exit_next_rip(const struct vmcb *v, bool has_nrip, u64 *next)
{
	const struct vmcb_control *c = &v->control;
	unsigned len;

	if (c->exit_code == VMEXIT_IOIO) {
		*next = c->exit_info2;
		return true;
	}
	/* A CPU that advertises NRIP but left 0 (a broken model) falls back. */
	if (has_nrip && c->next_rip) {
		*next = c->next_rip;
		return true;
	}
	len = exit_insn_len_fallback(c->exit_code);
	*next = v->save.rip + len;
	return len != 0;
}

const char *exit_name(u64 code)
{
	switch (code) {
	case VMEXIT_INTR:
		return "INTR";
	case VMEXIT_NMI:
		return "NMI";
	case VMEXIT_CPUID:
		return "CPUID";
	case VMEXIT_PAUSE:
		return "PAUSE";
	case VMEXIT_HLT:
		return "HLT";
	case VMEXIT_INVLPGA:
		return "INVLPGA";
	case VMEXIT_IOIO:
		return "IOIO";
	case VMEXIT_MSR:
		return "MSR";
	case VMEXIT_SHUTDOWN:
		return "SHUTDOWN";
	case VMEXIT_VMRUN:
		return "VMRUN";
	case VMEXIT_VMMCALL:
		return "VMMCALL";
	case VMEXIT_VMLOAD:
		return "VMLOAD";
	case VMEXIT_VMSAVE:
		return "VMSAVE";
	case VMEXIT_STGI:
		return "STGI";
	case VMEXIT_CLGI:
		return "CLGI";
	case VMEXIT_SKINIT:
		return "SKINIT";
	case VMEXIT_NPF:
		return "NPF";
	case VMEXIT_INVD:
		return "INVD";
	case VMEXIT_EXCP_DB:
		return "#DB";
	case VMEXIT_EXCP_AC:
		return "#AC";
	case VMEXIT_EXCP_MC:
		return "#MC";
	case VMEXIT_WBINVD:
		return "WBINVD";
	case VMEXIT_XSETBV:
		return "XSETBV";
	case VMEXIT_INVALID:
	case VMEXIT_INVALID_32:
		return "INVALID";
	default:
		return "?";
	}
}

enum exit_kind exit_kind_of(u64 code)
{
	switch (code) {
	case VMEXIT_CPUID:
		return EK_CPUID;
	case VMEXIT_VMMCALL:
		return EK_VMMCALL;
	case VMEXIT_IOIO:
		return EK_IOIO;
	case VMEXIT_MSR:
		return EK_MSR;
	case VMEXIT_HLT:
		return EK_HLT;
	case VMEXIT_PAUSE:
		return EK_PAUSE;
	case VMEXIT_NPF:
		return EK_NPF;
	case VMEXIT_INTR:
		return EK_INTR;
	case VMEXIT_NMI:
		return EK_NMI;
	case VMEXIT_SHUTDOWN:
		return EK_SHUTDOWN;
	case VMEXIT_VMRUN:
	case VMEXIT_VMLOAD:
	case VMEXIT_VMSAVE:
	case VMEXIT_STGI:
	case VMEXIT_CLGI:
	case VMEXIT_SKINIT:
	case VMEXIT_INVLPGA:
		return EK_SVM_INSN;
	default:
		return EK_OTHER;
	}
}
