/* hv/svm/exit_table.c - the one table of #VMEXIT codes minhv handles: code,
 * printed name, counter bucket and handler (APM vol 2, appendix C), and
 * the dispatcher that looks an exit up in it. */
#include "hv/svm/exit.h"
#include "hv/svm/exit_decode.h"
#include "include/minhv/hypercall_abi.h"
#include "hv/guest/guest.h"

/* Codes below EXIT_DIRECT (exit.h) index the table directly; the few
 * larger ones (NPF, INVALID) get the slots after it, chosen by
 * exit_slot(). */
enum { SLOT_NPF = EXIT_DIRECT, SLOT_INVALID, EXIT_SLOTS };

/* One line per handled exit: EXIT(CPUID, CPUID, exit_cpuid) is code
 * VMEXIT_CPUID, name "CPUID", counter EK_CPUID. */
#define EXIT_AT(slot, c, k, fn)                                               \
	[slot] = {                                                            \
		.code = VMEXIT_##c, .name = #c, .kind = EK_##k, .handler = fn \
	}
#define EXIT(c, k, fn) EXIT_AT(VMEXIT_##c, c, k, fn)

/* Every direct slot has a handler: codes minhv does not handle get the
 * row exit_lookup() gives them (exit_unknown), so the run loop's dispatch
 * (exit_dispatch_fast()) needs no test for an empty slot. The rows below
 * override the range, as in Linux's syscall tables. */
#define EXIT_NONE                                                         \
	{                                                                 \
		.name = "?", .kind = EK_OTHER, .handler = exit_unexpected \
	}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Woverride-init"
const struct exit_entry exit_table[EXIT_SLOTS] = {
	[0 ... EXIT_DIRECT - 1] = EXIT_NONE,
	EXIT(INTR, INTR, exit_intr),
	EXIT(NMI, NMI, exit_intr),
	EXIT(VINTR, OTHER, vlapic_exit_vintr),
	EXIT(IRET, OTHER, vlapic_exit_iret),
	EXIT(CPUID, CPUID, exit_cpuid),
	EXIT(PAUSE, PAUSE, exit_pause),
	EXIT(HLT, HLT, exit_hlt),
	EXIT(INVLPGA, SVM_INSN, exit_svm_insn),
	EXIT(IOIO, IOIO, exit_ioio),
	EXIT(MSR, MSR, exit_msr),
	EXIT(SHUTDOWN, SHUTDOWN, exit_shutdown),
	EXIT(VMRUN, SVM_INSN, exit_svm_insn),
	EXIT(VMMCALL, VMMCALL, hypercall_handle),
	EXIT(VMLOAD, SVM_INSN, exit_svm_insn),
	EXIT(VMSAVE, SVM_INSN, exit_svm_insn),
	EXIT(STGI, SVM_INSN, exit_svm_insn),
	EXIT(CLGI, SVM_INSN, exit_svm_insn),
	EXIT(SKINIT, SVM_INSN, exit_svm_insn),
	EXIT(INVD, OTHER, exit_cache_insn),
	EXIT(WBINVD, OTHER, exit_cache_insn),
	EXIT(XSETBV, OTHER, exit_xsetbv),
	EXIT(EXCP_DB, OTHER, exit_exception),
	EXIT(EXCP_AC, OTHER, exit_exception),
	EXIT(EXCP_MC, OTHER, exit_exception),
	EXIT_AT(SLOT_NPF, NPF, NPF, exit_npf),
	EXIT_AT(SLOT_INVALID, INVALID, OTHER, exit_invalid),
};
#pragma GCC diagnostic pop
_Static_assert(VMEXIT_NPF >= EXIT_DIRECT, "NPF needs its own slot");

/* Every code without an entry: dump, stop the guest. */
static const struct exit_entry exit_unknown = EXIT_NONE;

static unsigned exit_slot(u64 code)
{
	if (code < EXIT_DIRECT)
		return code;
	if (code == VMEXIT_NPF)
		return SLOT_NPF;
	/* QEMU 10.0.2 writes VMEXIT_INVALID as 32 bits (docs/SVM.md). */
	if (exit_is_invalid(code))
		return SLOT_INVALID;
	return EXIT_SLOTS;
}

const struct exit_entry *exit_lookup(u64 code)
{
	unsigned s = exit_slot(code);

	if (s < EXIT_SLOTS && exit_table[s].handler != exit_unexpected)
		return &exit_table[s];
	return &exit_unknown;
}

const char *exit_name(u64 code)
{
	return exit_lookup(code)->name;
}

enum exit_kind exit_kind_of(u64 code)
{
	return exit_lookup(code)->kind;
}

/* Codes past the direct slots, or a direct slot without a handler. */
enum exit_action exit_dispatch_slow(struct vcpu *v, u64 code)
{
	const struct exit_entry *e = exit_lookup(code);

	v->stats.exits++;
	v->stats.count[e->kind]++;
	return e->handler(v);
}

/* The run loop has its own copy inline (exit_dispatch_fast()). */
enum exit_action exit_dispatch(struct vcpu *v)
{
	return exit_dispatch_fast(v, v->vmcb->control.exit_code);
}
