/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/svm/exit_io.h - the IOIO exit's two halves (exit_io.c: ports,
 * exit_io_str.c: INS/OUTS), for each other, and the run loop's COM1 fast
 * path ahead of both (exit_com1_fast()). */
#ifndef MINHV_HV_SVM_EXIT_IO_H
#define MINHV_HV_SVM_EXIT_IO_H

#include "arch/types.h"
#include "arch/uart_regs.h"
#include "arch/vmcb.h"
#include "hv/guest/guest.h"
#include "hv/platform/platform.h"
#include "hv/vmcb/exit_decode.h"

/* One access to the guest's port io->port of io->size bytes: its
 * platform devices, COM1 as the guest console, else all ones / dropped. */
void port_out(struct vcpu *v, const struct ioio_info *io, u32 val);
u32 port_in(struct vcpu *v, const struct ioio_info *io);

/* INS/OUTS: done (RIP steps over it), more to do (RIP stays: the REP
 * goes on, or an exception was injected), or the guest was stopped. */
enum str_result { STR_DONE, STR_MORE, STR_BAD };
enum str_result string_io(struct vcpu *v, const struct ioio_info *io);

/* The run loop's first look at a foreign guest's IOIO exit, before the
 * V_IRQ give-back and the exit table: a byte IN or OUT at COM1's
 * registers that uart_fast() carries out whole (Linux's console: THR for
 * each byte, IIR, LSR and MSR for each FIFO load). It moves no IRQ line,
 * so an interrupt offered at the entry and not taken (IF=0 in the 8250
 * handler) stays offered as it was: nothing in the vLAPIC changed for
 * it, and an entry with work gives it back itself
 * (vlapic_inject_pending()). Not with an event in EXITINTINFO or TF set
 * (their paths are the general ones); counted as the table would. */
static inline bool exit_com1_fast(struct vcpu *v)
{
	struct vmcb *vm = v->vmcb;
	u64 e = vm->control.exit_info1;
	u16 off = (u16)((u16)(e >> 16) - UART_COM1_PORT);

	if ((e & (IOIO_INFO_STR | IOIO_INFO_SZ8)) != IOIO_INFO_SZ8 ||
	    off >= UART_NR_PORTS ||
	    (vm->control.exit_int_info & EVENTINJ_VALID) ||
	    (vm->save.rflags & RFLAGS_TF) ||
	    !uart_fast(&v->guest->plat, v->id, off, e & IOIO_INFO_IN,
		       &vm->save.rax))
		return false;
	v->stats.exits++;
	v->stats.count[EK_IOIO]++;
	vcpu_insn_complete(v, vm->control.exit_info2);
	return true;
}

#endif
