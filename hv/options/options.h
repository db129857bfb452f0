/* SPDX-License-Identifier: GPL-2.0-only */
/* hv/options/options.h - minhv's options: key=value tokens from the UEFI load
 * options and from \minhv\minhv.cfg on the ESP, parsed into one struct. */
#ifndef MINHV_HV_OPTIONS_OPTIONS_H
#define MINHV_HV_OPTIONS_OPTIONS_H

#include "arch/types.h"
#include "hv/stop.h"

enum bringup_mode { BRINGUP_PARALLEL, BRINGUP_SERIAL };
enum tristate { TRI_AUTO, TRI_ON, TRI_OFF };
/* AUTO: SPCR when present, else COM1 0x3f8. */
enum console_kind { CONSOLE_AUTO, CONSOLE_IO, CONSOLE_MMIO };
enum park_mode { PARK_HLT, PARK_MWAIT };
enum rmpopt_sched { RMPOPT_LEADER, RMPOPT_ALL, RMPOPT_BOTH };
/* pause_yield= (hv/sched: enum sched_yield has the same values). */
enum pause_yield_opt {
	PAUSE_YIELD_NONE,
	PAUSE_YIELD_ANY,
	PAUSE_YIELD_DIRECTED
};
enum pause_window_opt { PAUSE_WINDOW_STATIC, PAUSE_WINDOW_DYNAMIC };
/* What a foreign guest's reset does: rebuild and run it again (QEMU's
 * default), or end the run there (QEMU's -no-reboot). */
enum reboot_mode { REBOOT_RESTART, REBOOT_STOP };

struct options {
	/* console=auto|com1|com2|com3|com4|io:0x2f8|mmio:0xfedc9000 */
	enum console_kind console;
	u64 console_addr; /* I/O port or MMIO address; 0 with AUTO */
	u32 baud; /* baud=115200; 0 = SPCR's rate, else as firmware set it */
	int loglevel; /* loglevel=err|warn|info|debug or 0..3, default info */
	enum exit_method exit; /* exit=auto|qemu|halt|reset (hv/stop.h) */
	enum bringup_mode smp; /* smp=parallel|serial, default parallel */
	u32 maxcpus; /* maxcpus=N, 0 = all */
	s64 init_delay_us; /* init_delay_us=N, -1 = auto (vendor rule) */
	u32 ap_timeout_ms; /* ap_timeout_ms=N, default 100 */
	enum tristate ipi_fence; /* ipi_fence=auto|on|off */
	enum tristate mtrr_flush; /* mtrr_flush=auto|on|off (on = always) */
	/* -1 = auto (4000 / 1000 when CPUID has the filter) */
	s32 pause_count, pause_threshold;
	enum tristate pause_intercept; /* pause_intercept=auto|on|off */
	enum pause_yield_opt pause_yield; /* none|any|directed (default) */
	enum pause_window_opt pause_window; /* static (default)|dynamic */
	char guest[128]; /* guest=\path\on\esp.elf, "" = built-in guest */
	char cmdline[512]; /* cmdline="..." for a multiboot guest */
	char initrd[128]; /* initrd=\path\on\esp: multiboot module 0 */
	char disk[128]; /* disk=\path\on\esp: a virtio disk's image */
	bool disk_ro; /* disk_ro=0|1: the disk refuses writes */
	u32 vcpus; /* vcpus=N; 0 = one per CPU of cpus= (ELF64), 1 (foreign) */
	char cpus[128]; /* cpus=all|N[-M][,...]: the guest's CPUs; "" = all */
	u32 slice_us; /* slice_us=N: a vCPU's turn on a shared CPU */
	/* guest_mem=128M etc.; 0 = auto: 16 MiB for minhv's own guest, 128
	 * MiB for a foreign one (run_guest_mem_mb(), hv/run/run.h) */
	u32 guest_mem_mb;
	char tests[256]; /* tests=glob,glob,group; "" = default suite */
	bool bench; /* bench=0|1 */
	bool selftests; /* selftests=on|off: the boot self-tests, default on */
	enum park_mode park; /* park=hlt|mwait */
	/* rsb_fill=auto|on|off: the RSB fill after #VMEXIT (hv/park/
	 * spec_ctrl_policy.c); auto = unless AutoIBRS or QEMU TCG */
	enum tristate rsb_fill;
	enum rmpopt_sched rmpopt; /* rmpopt=leader|all|both, default both */
	s32 watchdog_ms; /* watchdog_ms=N, 0 = off, -1 = auto (run.c) */
	u32 guest_time_ms; /* guest_time_ms=N, default 0 = unlimited */
	u32 guest_console_rate; /* bytes/s of guest console, 0 = unlimited */
	/* pool=N; 0 = auto: 64 MiB plus the guest's memory (boot/) */
	u32 pool_mb;
	enum reboot_mode reboot; /* reboot=restart|stop */
};

/* The options in force, filled by boot/ before the hand-off. */
extern struct options g_options;

void options_defaults(struct options *o);
/* Parse text[0..len): key=value tokens separated by whitespace (NUL counts
 * as whitespace; inside "..." whitespace is part of the token and the
 * quotes are not part of the value, so cmdline="a b" works); a token starting with '#' comments out the rest of its
 * line. source names where the text came from ("load options",
 * "\\minhv\\minhv.cfg") in messages. Each unknown key, missing '=', empty
 * or malformed value, out-of-range number, too-long string and unknown
 * word is one pr_err line naming the source and the key. Returns the
 * number of errors (0 = ok); later keys override earlier ones. */
int options_parse(struct options *o, const char *text, size_t len,
		  const char *source);
/* pr_info: the options whose value differs from the default. */
void options_print(const struct options *o);
/* pr_info: every option, its values, default and help line. */
void options_help(void);

/* cpus= (cpulist.c): "" or "all" is every CPU. */
bool cpulist_all(const char *s);
/* Walk a CPU list: 1 with the next range [*lo, *hi] (CPU numbers, dense
 * indices) and *s moved past it, 0 at its end (at once for "all"),
 * -EINVAL when malformed (syntax: N or N-M with N <= M, separated by
 * ','). */
int cpulist_next(const char **s, u32 *lo, u32 *hi);

#endif
