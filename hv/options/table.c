// SPDX-License-Identifier: GPL-2.0-only
/* hv/options/table.c - every option minhv accepts, one row each: name,
 * type, field, range or words, default and help. Add an option here. */
#include "hv/options/internal.h"
#include "hv/log.h"

#define FIELD(f) offsetof(struct options, f), sizeof(((struct options *)0)->f)

static const char *const level_words[] = { "err", "warn", "info", "debug",
					   NULL };
static const char *const exit_words[] = { "auto", "qemu", "halt", "reset",
					  NULL };
static const char *const smp_words[] = { "parallel", "serial", NULL };
static const char *const tri_words[] = { "auto", "on", "off", NULL };
static const char *const park_words[] = { "hlt", "mwait", NULL };
static const char *const rmpopt_words[] = { "leader", "all", "both", NULL };
static const char *const yield_words[] = { "none", "any", "directed", NULL };
static const char *const window_words[] = { "static", "dynamic", NULL };
static const char *const reboot_words[] = { "restart", "stop", NULL };

/* The word lists are indexed by the enum values. */
_Static_assert(LOG_ERR == 0 && LOG_DEBUG == 3, "level_words");
_Static_assert(EXIT_AUTO == 0 && EXIT_QEMU == 1 && EXIT_HALT == 2 &&
		       EXIT_RESET == 3,
	       "exit_words");
_Static_assert(BRINGUP_PARALLEL == 0 && BRINGUP_SERIAL == 1, "smp_words");
_Static_assert(TRI_AUTO == 0 && TRI_ON == 1 && TRI_OFF == 2, "tri_words");
_Static_assert(PARK_HLT == 0 && PARK_MWAIT == 1, "park_words");
_Static_assert(RMPOPT_LEADER == 0 && RMPOPT_ALL == 1 && RMPOPT_BOTH == 2,
	       "rmpopt_words");
_Static_assert(PAUSE_YIELD_NONE == 0 && PAUSE_YIELD_ANY == 1 &&
		       PAUSE_YIELD_DIRECTED == 2,
	       "yield_words");
_Static_assert(PAUSE_WINDOW_STATIC == 0 && PAUSE_WINDOW_DYNAMIC == 1,
	       "window_words");
_Static_assert(REBOOT_RESTART == 0 && REBOOT_STOP == 1, "reboot_words");
_Static_assert(sizeof(enum tristate) == sizeof(int), "enums are int-sized");

#define U32_MAX 0xffffffffLL
#define MAX_MB (1LL << 20) /* 1 TiB */

const struct opt_desc opt_table[] = {
	{ "console", OPT_CONSOLE, FIELD(console), .def = CONSOLE_AUTO,
	  .help = "serial console; auto = SPCR when present, else COM1" },
	{ "baud", OPT_UINT, FIELD(baud), 0, 4000000, 0,
	  .help = "console baud rate; 0 = SPCR's, else as firmware set it" },
	{ "loglevel", OPT_ENUM, FIELD(loglevel), .def = LOG_INFO,
	  .words = level_words, .numeric = true,
	  .help = "most detailed messages shown" },
	{ "exit", OPT_ENUM, FIELD(exit), .def = EXIT_AUTO, .words = exit_words,
	  .help = "how a run ends; auto = debug exit under QEMU" },
	{ "smp", OPT_ENUM, FIELD(smp), .def = BRINGUP_PARALLEL,
	  .words = smp_words,
	  .help = "start all APs at once or one after another" },
	{ "maxcpus", OPT_UINT, FIELD(maxcpus), 0, U32_MAX, 0,
	  .help = "use at most N CPUs, boot CPU included; 0 = all" },
	{ "init_delay_us", OPT_INT, FIELD(init_delay_us), -1, 10000000, -1,
	  .auto_word = true,
	  .help = "INIT to SIPI delay; auto = 0 on AMD family >= 0Fh, else 10 ms" },
	{ "ap_timeout_ms", OPT_UINT, FIELD(ap_timeout_ms), 1, 60000, 100,
	  .help = "how long to wait for each AP to check in" },
	{ "ipi_fence", OPT_ENUM, FIELD(ipi_fence), .def = TRI_AUTO,
	  .words = tri_words,
	  .help = "MFENCE;LFENCE before x2APIC MSR writes; auto = Intel only" },
	{ "mtrr_flush", OPT_ENUM, FIELD(mtrr_flush), .def = TRI_AUTO,
	  .words = tri_words,
	  .help = "WBINVD in the MTRR rendezvous; auto = skip when self-snoop" },
	{ "pause_count", OPT_INT, FIELD(pause_count), -1, 0xffff, -1,
	  .auto_word = true,
	  .help = "VMCB PAUSE filter count; auto = 4000 when CPUID has it" },
	{ "pause_threshold", OPT_INT, FIELD(pause_threshold), -1, 0xffff, -1,
	  .auto_word = true,
	  .help = "VMCB PAUSE filter threshold; auto = 1000 when CPUID has it" },
	{ "pause_intercept", OPT_ENUM, FIELD(pause_intercept), .def = TRI_AUTO,
	  .words = tri_words,
	  .help = "intercept PAUSE; auto = only when vCPUs share CPUs" },
	{ "pause_yield", OPT_ENUM, FIELD(pause_yield),
	  .def = PAUSE_YIELD_DIRECTED, .words = yield_words,
	  .help = "a PAUSE exit gives the CPU to: nobody, the next queued vCPU, or one of the same guest" },
	{ "pause_window", OPT_ENUM, FIELD(pause_window),
	  .def = PAUSE_WINDOW_STATIC, .words = window_words,
	  .help = "PAUSE filter count: fixed, or grown on each exit and reset when rescheduled (KVM)" },
	{ "guest", OPT_STR, FIELD(guest), .arg = "\\PATH\\ON\\ESP.ELF",
	  .help = "ELF64 or multiboot guest to load from the ESP; unset = built-in guest" },
	{ "cmdline", OPT_STR, FIELD(cmdline), .arg = "\"ARGS ...\"",
	  .help = "command line handed to a foreign guest (multiboot, Linux)" },
	{ "initrd", OPT_STR, FIELD(initrd), .arg = "\\PATH\\ON\\ESP",
	  .help = "file from the ESP: multiboot module 0, or a Linux initramfs" },
	{ "disk", OPT_STR, FIELD(disk), .arg = "\\PATH\\ON\\ESP",
	  .help = "disk image from the ESP: a foreign guest's virtio disk (in memory)" },
	{ "disk_ro", OPT_BOOL, FIELD(disk_ro), .def = 0,
	  .help = "the virtio disk is read-only" },
	{ "vcpus", OPT_UINT, FIELD(vcpus), 0, 1024, 0,
	  .help = "vCPUs of the guest, more than its CPUs share them; 0 = one per CPU (foreign guests: 1)" },
	{ "cpus", OPT_CPULIST, FIELD(cpus), .arg = "all|N[-M][,N[-M]...]",
	  .help = "CPUs (dense numbers, 0 = boot CPU) the guest's vCPUs run on; all = every online CPU" },
	{ "slice_us", OPT_UINT, FIELD(slice_us), 100, 1000000, 5000,
	  .help = "a vCPU's turn on a CPU that vCPUs share" },
	{ "guest_mem", OPT_SIZE_MB, FIELD(guest_mem_mb), 1, MAX_MB, 0,
	  .auto_word = true,
	  .help = "memory per guest; auto = 16M (built-in guest), 128M (multiboot, Linux)" },
	{ "tests", OPT_STR, FIELD(tests), .arg = "GLOB[,GLOB...]",
	  .help = "scenarios or groups to run; unset = default suite" },
	{ "bench", OPT_BOOL, FIELD(bench), .def = 0,
	  .help = "run the benchmarks" },
	{ "selftests", OPT_BOOL, FIELD(selftests), .def = 1,
	  .help = "boot self-tests (SMP, MTRR, parking, SNP); off = straight to the guest" },
	{ "park", OPT_ENUM, FIELD(park), .def = PARK_HLT, .words = park_words,
	  .help = "how idle CPUs wait" },
	{ "rsb_fill", OPT_ENUM, FIELD(rsb_fill), .def = TRI_AUTO,
	  .words = tri_words,
	  .help = "32 CALLs into the RSB after #VMEXIT; auto = unless AutoIBRS or QEMU TCG" },
	{ "rmpopt", OPT_ENUM, FIELD(rmpopt), .def = RMPOPT_BOTH,
	  .words = rmpopt_words,
	  .help = "RMPOPT after SNP teardown: leader scan, all cores, or both" },
	{ "watchdog_ms", OPT_INT, FIELD(watchdog_ms), -1, 3600000, -1,
	  .auto_word = true,
	  .help = "guest watchdog; 0 = off; auto = 2000 (built-in guest), off (foreign)" },
	{ "guest_time_ms", OPT_UINT, FIELD(guest_time_ms), 0, 86400000, 0,
	  .help = "run-time limit per guest; 0 = unlimited" },
	{ "guest_console_rate", OPT_UINT, FIELD(guest_console_rate), 0,
	  16777216, 65536,
	  .help = "guest console bytes/s (16550 paced, other excess dropped); 0 = unlimited" },
	{ "pool", OPT_SIZE_MB, FIELD(pool_mb), 1, MAX_MB, 0, .auto_word = true,
	  .help = "hypervisor page pool; auto = 64M plus the guest's memory" },
	{ "reboot", OPT_ENUM, FIELD(reboot), .def = REBOOT_RESTART,
	  .words = reboot_words,
	  .help = "a foreign guest's reset: restart it from its image, or stop the run" },
};

const size_t opt_count = ARRAY_SIZE(opt_table);
