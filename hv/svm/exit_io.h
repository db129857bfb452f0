/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/svm/exit_io.h - the IOIO exit's two halves (exit_io.c: ports,
 * exit_io_str.c: INS/OUTS), for each other. */
#ifndef MINHV_HV_SVM_EXIT_IO_H
#define MINHV_HV_SVM_EXIT_IO_H

#include "arch/types.h"
#include "hv/vmcb/exit_decode.h"

struct vcpu;

/* One access to the guest's port io->port of io->size bytes: its
 * platform devices, COM1 as the guest console, else all ones / dropped. */
void port_out(struct vcpu *v, const struct ioio_info *io, u32 val);
u32 port_in(struct vcpu *v, const struct ioio_info *io);

/* INS/OUTS: done (RIP steps over it), more to do (RIP stays: the REP
 * goes on, or an exception was injected), or the guest was stopped. */
enum str_result { STR_DONE, STR_MORE, STR_BAD };
enum str_result string_io(struct vcpu *v, const struct ioio_info *io);

#endif
