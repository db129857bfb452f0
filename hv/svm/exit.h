/* hv/svm/exit.h - the #VMEXIT handlers that exit_dispatch() (hv/svm/exit.c)
 * calls, one per exit kind; each says whether the vCPU re-enters. */
#ifndef MINHV_HV_EXIT_H
#define MINHV_HV_EXIT_H

#include "hv/guest/vcpu.h"

enum exit_action exit_cpuid(struct vcpu *v); /* exit_cpuid.c */
struct cpuid_regs;
/* What CPUID leaf/sub returns inside the guest. */
void exit_cpuid_leaf(struct vcpu *v, u32 leaf, u32 sub, struct cpuid_regs *r);
enum exit_action exit_msr(struct vcpu *v); /* exit_msr.c */
/* The MSR allow-list: 0, or -1 when the guest gets #GP. */
int exit_msr_read(struct vcpu *v, u32 msr, u64 *val);
int exit_msr_write(struct vcpu *v, u32 msr, u64 val);
enum exit_action exit_ioio(struct vcpu *v); /* exit_io.c */
enum exit_action exit_hlt(struct vcpu *v); /* exit_misc.c ... */
enum exit_action exit_pause(struct vcpu *v);
enum exit_action exit_npf(struct vcpu *v);
enum exit_action exit_shutdown(struct vcpu *v);
enum exit_action exit_svm_insn(struct vcpu *v);
enum exit_action exit_intr(struct vcpu *v);
enum exit_action exit_invalid(struct vcpu *v); /* exit_invalid.c */
enum exit_action exit_cache_insn(struct vcpu *v); /* exit_cache.c */
enum exit_action exit_exception(struct vcpu *v); /* exit_excp.c */
enum exit_action exit_xsetbv(struct vcpu *v); /* exit_xsetbv.c */
enum exit_action exit_unexpected(struct vcpu *v);

/* Wait in the host (HLT with IF=1, OFFLINE) until kicked; false when the
 * guest is stopping. Lives in vcpu.c (needs cpu_relax and the SMP layer);
 * unit tests provide their own. */
bool vcpu_wait_wakeup(struct vcpu *v);

#endif
