// SPDX-License-Identifier: GPL-2.0-only
/* hv/svm/exit_table.c - the one table of #VMEXIT codes minhv handles: code,
 * printed name, counter bucket and handler (APM vol 2, appendix C), and
 * the dispatcher that looks an exit up in it. */
#include "hv/svm/exit.h"
#include "hv/vmcb/exit_decode.h"
#include "include/minhv/hypercall_abi.h"
#include "hv/guest/guest.h"

/* One line per handled exit: X(CPUID, CPUID, exit_cpuid) is code
 * VMEXIT_CPUID, name "CPUID", counter EK_CPUID. Codes below EXIT_DIRECT
 * (exit.h) are found through a byte index, so the table of rows stays
 * small: a pointer in an EFI image costs a 24-byte relocation. */
#define EXIT_DIRECT_LIST(X)                   \
	X(INTR, INTR, exit_intr)              \
	X(NMI, NMI, exit_intr)                \
	X(IRET, OTHER, vlapic_exit_iret)      \
	X(CR8_WRITE, OTHER, vlapic_exit_cr8)  \
	X(CPUID, CPUID, exit_cpuid)           \
	X(PAUSE, PAUSE, exit_pause)           \
	X(HLT, HLT, exit_hlt)                 \
	X(INVLPGA, SVM_INSN, exit_svm_insn)   \
	X(IOIO, IOIO, exit_ioio)              \
	X(MSR, MSR, exit_msr)                 \
	X(SHUTDOWN, SHUTDOWN, exit_shutdown)  \
	X(VMRUN, SVM_INSN, exit_svm_insn)     \
	X(VMMCALL, VMMCALL, hypercall_handle) \
	X(VMLOAD, SVM_INSN, exit_svm_insn)    \
	X(VMSAVE, SVM_INSN, exit_svm_insn)    \
	X(STGI, SVM_INSN, exit_svm_insn)      \
	X(CLGI, SVM_INSN, exit_svm_insn)      \
	X(SKINIT, SVM_INSN, exit_svm_insn)    \
	X(INVD, OTHER, exit_cache_insn)       \
	X(WBINVD, OTHER, exit_cache_insn)     \
	X(MONITOR, OTHER, exit_svm_insn)      \
	X(MWAIT, OTHER, exit_svm_insn)        \
	X(XSETBV, OTHER, exit_xsetbv)         \
	X(EXCP_DB, OTHER, exit_exception)     \
	X(EXCP_NP, OTHER, exit_exception)     \
	X(EXCP_SS, OTHER, exit_exception)     \
	X(EXCP_GP, OTHER, exit_exception)     \
	X(EXCP_PF, OTHER, exit_exception)     \
	X(EXCP_AC, OTHER, exit_exception)     \
	X(EXCP_MC, OTHER, exit_exception)
/* Codes of EXIT_DIRECT and above, looked up by exit_row(). */
#define EXIT_LARGE_LIST(X)    \
	X(NPF, NPF, exit_npf) \
	X(INVALID, OTHER, exit_invalid)

#define ROW_ID(c, k, fn) ROW_##c,
enum { ROW_UNKNOWN, EXIT_DIRECT_LIST(ROW_ID) EXIT_LARGE_LIST(ROW_ID) ROWS };
_Static_assert(ROWS <= 256, "a row index is a byte");

#define ROW(c, k, fn)                                                         \
	[ROW_##c] = {                                                         \
		.code = VMEXIT_##c, .name = #c, .kind = EK_##k, .handler = fn \
	},
/* Row 0: every code without a row of its own; dump, stop the guest. */
const struct exit_entry exit_rows[ROWS] = {
	[ROW_UNKNOWN] = { .name = "?",
			  .kind = EK_OTHER,
			  .handler = exit_unexpected },
	EXIT_DIRECT_LIST(ROW) EXIT_LARGE_LIST(ROW)
};

/* Direct codes -> row; 0 (ROW_UNKNOWN) for the codes minhv does not
 * handle, so the run loop's dispatch needs no test for an empty slot. */
#define INDEX(c, k, fn) [VMEXIT_##c] = ROW_##c,
const u8 exit_row_of[EXIT_DIRECT] = { EXIT_DIRECT_LIST(INDEX) };
_Static_assert(VMEXIT_NPF >= EXIT_DIRECT, "NPF is a large code");

static unsigned exit_row(u64 code)
{
	if (code < EXIT_DIRECT)
		return exit_row_of[code];
	if (code == VMEXIT_NPF)
		return ROW_NPF;
	/* QEMU 10.0.2 writes VMEXIT_INVALID as 32 bits (docs/SVM.md). */
	if (exit_is_invalid(code))
		return ROW_INVALID;
	return ROW_UNKNOWN;
}

const struct exit_entry *exit_lookup(u64 code)
{
	return &exit_rows[exit_row(code)];
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
