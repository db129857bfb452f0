// SPDX-License-Identifier: GPL-2.0-only
/* tests/unit/test_options.c - option parsing (hv/options/): every type,
 * defaults, overrides, comments, and the exact message for each error. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "arch/errno.h"
#include "hv/log.h"
#include "hv/options/options.h"
#include "hv/options/internal.h"
#include "tests/doubles/fake_console.h"

#define CFG "\\minhv\\minhv.cfg"

static struct options o;

static int setup(void **s)
{
	(void)s;
	options_defaults(&o);
	fake_console_clear();
	g_loglevel = LOG_INFO;
	return 0;
}

static int P(const char *text)
{
	return options_parse(&o, text, strlen(text), "load options");
}

/* One bad token: exactly one error line, exactly this message, and the
 * option keeps its previous value. */
#define EXPECT_ERR(text, msg)                                                 \
	do {                                                                  \
		struct options before_;                                       \
		options_defaults(&o);                                         \
		before_ = o;                                                  \
		fake_console_clear();                                         \
		assert_int_equal(P(text), 1);                                 \
		assert_string_equal(fake_console_text(),                      \
				    "error: minhv: load options: " msg "\n"); \
		assert_memory_equal(&o, &before_, sizeof(o));                 \
	} while (0)

static void test_defaults(void **s)
{
	(void)s;
	memset(&o, 0x5a, sizeof(o));
	options_defaults(&o);
	assert_int_equal(o.console, CONSOLE_AUTO);
	assert_int_equal(o.console_addr, 0);
	assert_int_equal(o.baud, 0);
	assert_int_equal(o.loglevel, LOG_INFO);
	assert_int_equal(o.exit, EXIT_AUTO);
	assert_int_equal(o.smp, BRINGUP_PARALLEL);
	assert_int_equal(o.maxcpus, 0);
	assert_int_equal(o.init_delay_us, -1);
	assert_int_equal(o.ap_timeout_ms, 100);
	assert_int_equal(o.ipi_fence, TRI_AUTO);
	assert_int_equal(o.mtrr_flush, TRI_AUTO);
	assert_int_equal(o.pause_count, -1);
	assert_int_equal(o.pause_threshold, -1);
	assert_int_equal(o.pause_intercept, TRI_AUTO);
	assert_int_equal(o.pause_yield, PAUSE_YIELD_DIRECTED);
	assert_int_equal(o.pause_window, PAUSE_WINDOW_STATIC);
	assert_string_equal(o.cpus, "");
	assert_int_equal(o.slice_us, 5000);
	assert_string_equal(o.guest, "");
	assert_int_equal(o.guest_mem_mb, 0); /* auto: by the guest's kind */
	assert_string_equal(o.tests, "");
	assert_false(o.bench);
	assert_true(o.selftests);
	assert_int_equal(o.park, PARK_HLT);
	assert_int_equal(o.rmpopt, RMPOPT_BOTH);
	assert_int_equal(o.rsb_fill, TRI_AUTO);
	assert_int_equal(o.watchdog_ms, -1); /* auto */
	assert_int_equal(o.guest_time_ms, 0);
	assert_int_equal(o.guest_console_rate, 65536);
	assert_int_equal(o.pool_mb, 0); /* auto: 64M + the guest's memory */
	assert_int_equal(o.reboot, REBOOT_RESTART);
	assert_int_equal(P(""), 0);
	assert_int_equal(P(" \t\r\n"), 0);
	assert_string_equal(fake_console_text(), "");
}

static void test_every_option(void **s)
{
	(void)s;
	assert_int_equal(
		P("console=mmio:0xfedc9000 baud=9600 loglevel=debug "
		  "exit=qemu smp=serial maxcpus=0x120 "
		  "init_delay_us=10000 ap_timeout_ms=250 "
		  "ipi_fence=on mtrr_flush=off pause_count=3000 "
		  "pause_threshold=128 pause_intercept=on "
		  "guest=\\minhv\\g.elf guest_mem=1G "
		  "tests=ipi*,mtrr,smp.parallel bench=yes selftests=off park=mwait "
		  "rmpopt=leader rsb_fill=off watchdog_ms=0 pool=128M guest_time_ms=1500 guest_console_rate=0 "
		  "reboot=stop disk=\\linux\\root.img disk_ro=on "
		  "pause_yield=any pause_window=dynamic cpus=0-3,8 slice_us=250"),
		0);
	assert_string_equal(fake_console_text(), "");
	assert_int_equal(o.console, CONSOLE_MMIO);
	assert_int_equal(o.console_addr, 0xfedc9000);
	assert_int_equal(o.baud, 9600);
	assert_int_equal(o.loglevel, LOG_DEBUG);
	assert_int_equal(o.exit, EXIT_QEMU);
	assert_int_equal(o.smp, BRINGUP_SERIAL);
	assert_int_equal(o.maxcpus, 288);
	assert_int_equal(o.init_delay_us, 10000);
	assert_int_equal(o.ap_timeout_ms, 250);
	assert_int_equal(o.ipi_fence, TRI_ON);
	assert_int_equal(o.mtrr_flush, TRI_OFF);
	assert_int_equal(o.pause_count, 3000);
	assert_int_equal(o.pause_threshold, 128);
	assert_int_equal(o.pause_intercept, TRI_ON);
	assert_string_equal(o.guest, "\\minhv\\g.elf");
	assert_int_equal(o.guest_mem_mb, 1024);
	assert_string_equal(o.tests, "ipi*,mtrr,smp.parallel");
	assert_true(o.bench);
	assert_false(o.selftests);
	assert_int_equal(o.park, PARK_MWAIT);
	assert_int_equal(o.rmpopt, RMPOPT_LEADER);
	assert_int_equal(o.rsb_fill, TRI_OFF);
	assert_int_equal(o.watchdog_ms, 0);
	assert_int_equal(o.guest_time_ms, 1500);
	assert_int_equal(o.guest_console_rate, 0);
	assert_int_equal(o.pool_mb, 128);
	assert_int_equal(o.pause_yield, PAUSE_YIELD_ANY);
	assert_int_equal(o.pause_window, PAUSE_WINDOW_DYNAMIC);
	assert_string_equal(o.cpus, "0-3,8");
	assert_int_equal(o.slice_us, 250);
	assert_int_equal(o.reboot, REBOOT_STOP);
	/* auto for the sizes: 0, and back to it after a number. */
	assert_int_equal(P("pool=auto guest_mem=auto"), 0);
	assert_int_equal(o.pool_mb, 0);
	assert_int_equal(o.guest_mem_mb, 0);
	assert_string_equal(o.disk, "\\linux\\root.img");
	assert_true(o.disk_ro);
}

/* cpus=: all, numbers and ranges; walked range by range; malformed lists
 * are errors that name the option. */
static void test_cpus(void **s)
{
	const char *p = "0-3,8,10-10";
	u32 lo = 99, hi = 99;

	(void)s;
	assert_int_equal(cpulist_next(&p, &lo, &hi), 1);
	assert_int_equal(lo, 0);
	assert_int_equal(hi, 3);
	assert_int_equal(cpulist_next(&p, &lo, &hi), 1);
	assert_int_equal(lo, 8);
	assert_int_equal(hi, 8);
	assert_int_equal(cpulist_next(&p, &lo, &hi), 1);
	assert_int_equal(lo, 10);
	assert_int_equal(hi, 10);
	assert_int_equal(cpulist_next(&p, &lo, &hi), 0);
	p = "all";
	assert_int_equal(cpulist_next(&p, &lo, &hi), 0);
	assert_true(cpulist_all("all"));
	assert_true(cpulist_all(""));
	assert_false(cpulist_all("0"));
	for (unsigned i = 0; i < 7; i++) {
		static const char *const bad[] = { "3-1", "1,",	  "-1",	    "x",
						   "1-",  "1,,2", "9999999" };

		p = bad[i];
		while (cpulist_next(&p, &lo, &hi) > 0)
			;
		assert_int_equal(cpulist_next(&p, &lo, &hi), -EINVAL);
	}
	assert_int_equal(P("cpus=all"), 0);
	assert_string_equal(o.cpus, "all");
	assert_int_equal(P("cpus=\"\""), 0);
	assert_string_equal(o.cpus, "");
	assert_int_equal(P("cpus=2"), 0);
	assert_string_equal(o.cpus, "2");
	EXPECT_ERR(
		"cpus=3-1",
		"option 'cpus': '3-1' is not a CPU list (all|N[-M][,N[-M]...])");
	EXPECT_ERR(
		"cpus=0,,1",
		"option 'cpus': '0,,1' is not a CPU list (all|N[-M][,N[-M]...])");
	EXPECT_ERR("slice_us=50",
		   "option 'slice_us': 50 is out of range (100..1000000)");
	EXPECT_ERR(
		"pause_yield=some",
		"option 'pause_yield': 'some' is not one of none|any|directed");
}

static void test_console_forms(void **s)
{
	static const struct {
		const char *text;
		enum console_kind kind;
		u64 addr;
	} c[] = {
		{ "console=com1", CONSOLE_IO, 0x3f8 },
		{ "console=com2", CONSOLE_IO, 0x2f8 },
		{ "console=com3", CONSOLE_IO, 0x3e8 },
		{ "console=com4", CONSOLE_IO, 0x2e8 },
		{ "console=io:0x2f8", CONSOLE_IO, 0x2f8 },
		{ "console=io:1016", CONSOLE_IO, 1016 },
		{ "console=io:0xffff", CONSOLE_IO, 0xffff },
		{ "console=mmio:0xFEDC9000", CONSOLE_MMIO, 0xfedc9000 },
		{ "console=mmio:0x10000000000", CONSOLE_MMIO, 1ULL << 40 },
		{ "console=auto", CONSOLE_AUTO, 0 },
	};

	(void)s;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		o.console = 77;
		o.console_addr = 77;
		assert_int_equal(P(c[i].text), 0);
		assert_int_equal(o.console, c[i].kind);
		assert_int_equal(o.console_addr, c[i].addr);
	}
}

static void test_words_and_numbers(void **s)
{
	static const char *const levels[] = { "err", "warn", "info", "debug" };
	static const char *const exits[] = { "auto", "qemu", "halt", "reset" };
	static const char *const yes[] = { "1", "on", "yes", "true" };
	static const char *const no[] = { "0", "off", "no", "false" };
	char t[64];

	(void)s;
	for (int i = 0; i < 4; i++) {
		snprintf(t, sizeof(t), "loglevel=%s", levels[i]);
		assert_int_equal(P(t), 0);
		assert_int_equal(o.loglevel, i);
		snprintf(t, sizeof(t), "loglevel=%d", 3 - i);
		assert_int_equal(P(t), 0);
		assert_int_equal(o.loglevel, 3 - i);
		snprintf(t, sizeof(t), "exit=%s", exits[i]);
		assert_int_equal(P(t), 0);
		assert_int_equal(o.exit, i);
		snprintf(t, sizeof(t), "bench=%s", yes[i]);
		assert_int_equal(P(t), 0);
		assert_true(o.bench);
		snprintf(t, sizeof(t), "bench=%s", no[i]);
		assert_int_equal(P(t), 0);
		assert_false(o.bench);
	}
	assert_int_equal(P("smp=parallel park=hlt rmpopt=all"), 0);
	assert_int_equal(o.smp, BRINGUP_PARALLEL);
	assert_int_equal(o.park, PARK_HLT);
	assert_int_equal(o.rmpopt, RMPOPT_ALL);
	assert_int_equal(P("rmpopt=both ipi_fence=off mtrr_flush=on"), 0);
	assert_int_equal(o.rmpopt, RMPOPT_BOTH);
	assert_int_equal(o.ipi_fence, TRI_OFF);
	assert_int_equal(o.mtrr_flush, TRI_ON);
	assert_int_equal(P("ipi_fence=auto pause_intercept=off"), 0);
	assert_int_equal(o.ipi_fence, TRI_AUTO);
	assert_int_equal(o.pause_intercept, TRI_OFF);
	assert_int_equal(P("rsb_fill=on"), 0);
	assert_int_equal(o.rsb_fill, TRI_ON);
	assert_int_equal(P("rsb_fill=auto"), 0);
	assert_int_equal(o.rsb_fill, TRI_AUTO);

	/* "auto" and -1 mean the same for the auto-able numbers. */
	assert_int_equal(P("init_delay_us=5 pause_count=0 pause_threshold=0"),
			 0);
	assert_int_equal(o.init_delay_us, 5);
	assert_int_equal(o.pause_count, 0);
	assert_int_equal(
		P("init_delay_us=auto pause_count=-1 pause_threshold=auto"), 0);
	assert_int_equal(o.init_delay_us, -1);
	assert_int_equal(o.pause_count, -1);
	assert_int_equal(o.pause_threshold, -1);
	assert_int_equal(P("pause_count=0xffff init_delay_us=10000000"), 0);
	assert_int_equal(o.pause_count, 65535);
	assert_int_equal(o.init_delay_us, 10000000);
	assert_int_equal(
		P("maxcpus=4294967295 baud=115200 watchdog_ms=3600000"), 0);
	assert_int_equal(o.maxcpus, 4294967295u);
	assert_int_equal(P("maxcpus=0X1f"), 0);
	assert_int_equal(o.maxcpus, 31);
	assert_int_equal(o.baud, 115200);
	assert_int_equal(o.watchdog_ms, 3600000);
	assert_int_equal(P("watchdog_ms=auto"), 0);
	assert_int_equal(o.watchdog_ms, -1);
	assert_string_equal(fake_console_text(), "");
}

static void test_sizes(void **s)
{
	static const struct {
		const char *v;
		u32 mb;
	} c[] = {
		{ "16M", 16 },		{ "16m", 16 },	 { "32", 32 },
		{ "1G", 1024 },		{ "2g", 2048 },	 { "2048K", 2 },
		{ "1024k", 1 },		{ "0x10M", 16 }, { "1024G", 1 << 20 },
		{ "1048576", 1 << 20 },
	};
	char t[64];

	(void)s;
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		snprintf(t, sizeof(t), "guest_mem=%s pool=%s", c[i].v, c[i].v);
		assert_int_equal(P(t), 0);
		assert_int_equal(o.guest_mem_mb, c[i].mb);
		assert_int_equal(o.pool_mb, c[i].mb);
	}
}

static void test_strings(void **s)
{
	char t[300];

	(void)s;
	memset(t, 0, sizeof(t));
	strcpy(t, "guest=");
	memset(t + 6, 'a', 127);
	assert_int_equal(P(t), 0);
	assert_int_equal(strlen(o.guest), 127);
	strcpy(t, "tests=");
	memset(t + 6, 'b', 255);
	assert_int_equal(P(t), 0);
	assert_int_equal(strlen(o.tests), 255);
	assert_int_equal(P("guest=x.elf"), 0);
	assert_string_equal(o.guest, "x.elf");
	/* '=' after the first belongs to the value. */
	assert_int_equal(P("tests=a=b"), 0);
	assert_string_equal(o.tests, "a=b");
}

static void test_overrides_and_sources(void **s)
{
	static const char cfg[] = "maxcpus=8 smp=serial\nguest=\\a.elf\n";

	(void)s;
	assert_int_equal(options_parse(&o, cfg, strlen(cfg), CFG), 0);
	assert_int_equal(P("maxcpus=2 guest=\\b.elf maxcpus=3"), 0);
	assert_int_equal(o.maxcpus, 3);
	assert_int_equal(o.smp, BRINGUP_SERIAL);
	assert_string_equal(o.guest, "\\b.elf");
}

static void test_comments_and_whitespace(void **s)
{
	static const char cfg[] = "# minhv.cfg\n"
				  "maxcpus=4 # at most four\n"
				  "#smp=serial\n"
				  "\tpark=mwait\r\n"
				  "   # bogus=1 also a comment\n"
				  "#\n"
				  "pool=32M";
	/* UEFI load options: a NUL terminator inside the length. */
	static const char lo[] = "bench=1\0";

	(void)s;
	assert_int_equal(options_parse(&o, cfg, strlen(cfg), CFG), 0);
	assert_int_equal(o.maxcpus, 4);
	assert_int_equal(o.smp, BRINGUP_PARALLEL);
	assert_int_equal(o.park, PARK_MWAIT);
	assert_int_equal(o.pool_mb, 32);
	assert_int_equal(options_parse(&o, lo, sizeof(lo), "load options"), 0);
	assert_true(o.bench);
	/* Only len bytes are read: the rest of the buffer is not parsed. */
	assert_int_equal(options_parse(&o, "maxcpus=7 foo", 9, "load options"),
			 0);
	assert_int_equal(o.maxcpus, 7);
	assert_string_equal(fake_console_text(), "");
}

/* Quoted values keep their spaces (cfg file and UEFI command line). */
static void test_quoted_values(void **s)
{
	(void)s;
	assert_int_equal(P("cmdline=\"a b  c\" vcpus=2 initrd=\\k\\env"), 0);
	assert_string_equal(o.cmdline, "a b  c");
	assert_int_equal(o.vcpus, 2);
	assert_string_equal(o.initrd, "\\k\\env");
	assert_int_equal(P("cmdline=\"\""), 0);
	assert_string_equal(o.cmdline, "");
	assert_int_equal(P("guest=\"x y\"z"), 0); /* quotes inside a token */
	assert_string_equal(o.guest, "\"x y\"z");
	EXPECT_ERR("cmdline=\"a b", "'cmdline=\"a b' has no closing '\"'");
}

static void test_errors_keys(void **s)
{
	(void)s;
	EXPECT_ERR("foo", "unknown option 'foo'");
	EXPECT_ERR("foo=1", "unknown option 'foo'");
	EXPECT_ERR("MAXCPUS=1", "unknown option 'MAXCPUS'");
	EXPECT_ERR("maxcpus", "option 'maxcpus': missing '=' and a value");
	EXPECT_ERR("maxcpus=", "option 'maxcpus': empty value");
	EXPECT_ERR("guest=", "option 'guest': empty value");
	EXPECT_ERR("=5", "'=5' has no option name before '='");
}

static void test_errors_numbers(void **s)
{
	(void)s;
	EXPECT_ERR("maxcpus=x12", "option 'maxcpus': 'x12' is not a number");
	EXPECT_ERR("maxcpus=12x", "option 'maxcpus': '12x' is not a number");
	EXPECT_ERR("maxcpus=0x", "option 'maxcpus': '0x' is not a number");
	EXPECT_ERR("maxcpus=-1", "option 'maxcpus': '-1' is not a number");
	EXPECT_ERR(
		"maxcpus=4294967296",
		"option 'maxcpus': 4294967296 is out of range (0..4294967295)");
	EXPECT_ERR(
		"maxcpus=99999999999999999999999",
		"option 'maxcpus': 99999999999999999999999 is out of range (0..4294967295)");
	EXPECT_ERR(
		"maxcpus=0x10000000000000000",
		"option 'maxcpus': 0x10000000000000000 is out of range (0..4294967295)");
	EXPECT_ERR("ap_timeout_ms=0",
		   "option 'ap_timeout_ms': 0 is out of range (1..60000)");
	EXPECT_ERR("ap_timeout_ms=60001",
		   "option 'ap_timeout_ms': 60001 is out of range (1..60000)");
	EXPECT_ERR("pause_count=65536",
		   "option 'pause_count': 65536 is out of range (-1..65535)");
	EXPECT_ERR("init_delay_us=-2",
		   "option 'init_delay_us': -2 is out of range (-1..10000000)");
	EXPECT_ERR(
		"init_delay_us=-9223372036854775809",
		"option 'init_delay_us': -9223372036854775809 is out of range (-1..10000000)");
	EXPECT_ERR("init_delay_us=-",
		   "option 'init_delay_us': '-' is not a number");
	EXPECT_ERR("init_delay_us=AUTO",
		   "option 'init_delay_us': 'AUTO' is not a number");
	EXPECT_ERR("maxcpus=auto", "option 'maxcpus': 'auto' is not a number");
	EXPECT_ERR("baud=fast", "option 'baud': 'fast' is not a number");
	EXPECT_ERR(
		"watchdog_ms=3600001",
		"option 'watchdog_ms': 3600001 is out of range (-1..3600000)");
}

static void test_errors_words(void **s)
{
	(void)s;
	EXPECT_ERR("smp=fast",
		   "option 'smp': 'fast' is not one of parallel|serial");
	EXPECT_ERR("smp=Serial",
		   "option 'smp': 'Serial' is not one of parallel|serial");
	EXPECT_ERR(
		"loglevel=4",
		"option 'loglevel': '4' is not one of err|warn|info|debug or 0..3");
	EXPECT_ERR(
		"loglevel=verbose",
		"option 'loglevel': 'verbose' is not one of err|warn|info|debug or 0..3");
	EXPECT_ERR(
		"exit=poweroff",
		"option 'exit': 'poweroff' is not one of auto|qemu|halt|reset");
	EXPECT_ERR("ipi_fence=1",
		   "option 'ipi_fence': '1' is not one of auto|on|off");
	EXPECT_ERR("park=pause",
		   "option 'park': 'pause' is not one of hlt|mwait");
	EXPECT_ERR("rmpopt=none",
		   "option 'rmpopt': 'none' is not one of leader|all|both");
	EXPECT_ERR("rsb_fill=1",
		   "option 'rsb_fill': '1' is not one of auto|on|off");
	EXPECT_ERR(
		"bench=2",
		"option 'bench': '2' is not a boolean (0|1|on|off|yes|no|true|false)");
	EXPECT_ERR(
		"bench=y",
		"option 'bench': 'y' is not a boolean (0|1|on|off|yes|no|true|false)");
}

static void test_errors_sizes(void **s)
{
	(void)s;
	EXPECT_ERR("pool=1536K",
		   "option 'pool': '1536K' is not a whole number of MiB");
	EXPECT_ERR("pool=1K",
		   "option 'pool': '1K' is not a whole number of MiB");
	EXPECT_ERR("pool=0", "option 'pool': 0 is out of range (1M..1048576M)");
	EXPECT_ERR("pool=0G",
		   "option 'pool': 0G is out of range (1M..1048576M)");
	EXPECT_ERR("guest_mem=1025G",
		   "option 'guest_mem': 1025G is out of range (1M..1048576M)");
	/* (2^34 + 1) GiB wraps to 1 GiB in 64 bits. */
	EXPECT_ERR(
		"guest_mem=17179869185G",
		"option 'guest_mem': 17179869185G is out of range (1M..1048576M)");
	EXPECT_ERR("guest_mem=2T",
		   "option 'guest_mem': '2T' is not a size (N, NK, NM, NG)");
	EXPECT_ERR("guest_mem=M",
		   "option 'guest_mem': 'M' is not a size (N, NK, NM, NG)");
	EXPECT_ERR("guest_mem=-1M",
		   "option 'guest_mem': '-1M' is not a size (N, NK, NM, NG)");
}

static void test_errors_strings_and_console(void **s)
{
	char t[300];

	(void)s;
	memset(t, 0, sizeof(t));
	strcpy(t, "guest=");
	memset(t + 6, 'a', 128);
	EXPECT_ERR(
		t,
		"option 'guest': value is too long (128 characters, at most 127)");
	strcpy(t, "tests=");
	memset(t + 6, 'b', 256);
	EXPECT_ERR(
		t,
		"option 'tests': value is too long (256 characters, at most 255)");

	EXPECT_ERR(
		"console=com5",
		"option 'console': 'com5' is not one of auto|com1|com2|com3|com4|io:PORT|mmio:ADDR");
	EXPECT_ERR(
		"console=io:0x10000",
		"option 'console': I/O address 0x10000 is out of range (1..0xffff)");
	EXPECT_ERR(
		"console=io:0",
		"option 'console': I/O address 0 is out of range (1..0xffff)");
	EXPECT_ERR("console=mmio:0",
		   "option 'console': MMIO address 0 is out of range (not 0)");
	EXPECT_ERR("console=io:zz", "option 'console': 'zz' is not a number");
	EXPECT_ERR("console=mmio:", "option 'console': '' is not a number");
}

/* A long bad token is quoted back cut to 64 characters. */
static void test_long_token_quoted_short(void **s)
{
	char t[300], want[200];

	(void)s;
	memset(t, 0, sizeof(t));
	memset(t, 'k', 200);
	assert_int_equal(P(t), 1);
	snprintf(want, sizeof(want),
		 "error: minhv: load options: unknown option '%.64s'\n", t);
	assert_string_equal(fake_console_text(), want);

	fake_console_clear();
	memcpy(t, "smp=", 4);
	assert_int_equal(P(t), 1);
	snprintf(
		want, sizeof(want),
		"error: minhv: load options: option 'smp': '%.64s' is not one of parallel|serial\n",
		t + 4);
	assert_string_equal(fake_console_text(), want);
}

static void test_multiple_errors(void **s)
{
	static const char cfg[] = "maxcpus=x12 smp=serial\n"
				  "foo=1 # comment=bad\n"
				  "pool=3 park\n"
				  "ap_timeout_ms=0 bench=1\n";

	(void)s;
	assert_int_equal(options_parse(&o, cfg, strlen(cfg), CFG), 4);
	assert_string_equal(
		fake_console_text(),
		"error: minhv: \\minhv\\minhv.cfg: option 'maxcpus': 'x12' is not a number\n"
		"error: minhv: \\minhv\\minhv.cfg: unknown option 'foo'\n"
		"error: minhv: \\minhv\\minhv.cfg: option 'park': missing '=' and a value\n"
		"error: minhv: \\minhv\\minhv.cfg: option 'ap_timeout_ms': 0 is out of range (1..60000)\n");
	/* The good tokens between the bad ones still took effect. */
	assert_int_equal(o.smp, BRINGUP_SERIAL);
	assert_int_equal(o.pool_mb, 3);
	assert_true(o.bench);
	assert_int_equal(o.maxcpus, 0);
	assert_int_equal(o.ap_timeout_ms, 100);
}

static void test_print(void **s)
{
	(void)s;
	options_print(&o);
	assert_string_equal(fake_console_text(), "options: all defaults\n");

	fake_console_clear();
	assert_int_equal(P("maxcpus=4 smp=serial console=com2 pool=1G "
			   "pause_count=auto init_delay_us=0 bench=1 "
			   "guest=\\g.elf loglevel=2"),
			 0);
	options_print(&o);
	assert_string_equal(
		fake_console_text(),
		"options: console=com2 smp=serial maxcpus=4 init_delay_us=0 guest=\\g.elf bench=1\n"
		"options: pool=1024M\n");

	fake_console_clear();
	options_defaults(&o);
	assert_int_equal(P("console=mmio:0xfedc9000 baud=115200"), 0);
	options_print(&o);
	assert_string_equal(fake_console_text(),
			    "options: console=mmio:0xfedc9000 baud=115200\n");
}

static void test_help(void **s)
{
	char want[64];

	(void)s;
	options_help();
	for (size_t i = 0; i < opt_count; i++) {
		snprintf(want, sizeof(want), "\n  %s=", opt_table[i].name);
		if (!fake_console_has(want))
			fail_msg("help lacks %s:\n%s", opt_table[i].name,
				 fake_console_text());
	}
	assert_true(fake_console_has(
		"  smp=parallel|serial\n      start all APs at once or one after another; default parallel\n"));
	assert_true(fake_console_has("  ap_timeout_ms=N (1..60000)\n"));
	assert_true(fake_console_has(
		"  pause_count=auto|N (-1..65535)\n      VMCB PAUSE filter count; auto = 4000 when CPUID has it; default auto\n"));
	assert_true(fake_console_has(
		"  pool=auto|SIZE[K|M|G] (1M..1048576M)\n      hypervisor page pool; auto = 64M plus the guest's memory; default auto\n"));
	assert_true(fake_console_has(
		"  reboot=restart|stop\n      a foreign guest's reset: restart it from its image, or stop the run; default restart\n"));
	assert_true(fake_console_has("  guest=\\PATH\\ON\\ESP.ELF\n"));
	assert_true(fake_console_has("; default unset\n"));
	assert_true(
		fake_console_has("  loglevel=err|warn|info|debug or 0..3\n"));
	assert_true(fake_console_has(
		"  console=auto|com1..com4|io:PORT|mmio:ADDR\n"));
	assert_true(fake_console_has("  bench=0|1\n"));
	assert_true(fake_console_has(
		"  selftests=0|1\n      boot self-tests (SMP, MTRR, parking, SNP); off = straight to the guest; default 1\n"));
}

/* The table has one row per struct options field that is an option. */
static void test_table_sane(void **s)
{
	(void)s;
	/* + guest_time_ms, guest_console_rate, rsb_fill, selftests, reboot,
	 * disk, disk_ro; + pause_yield, pause_window, cpus, slice_us (issue
	 * 27) */
	assert_int_equal(opt_count, 35);
	for (size_t i = 0; i < opt_count; i++) {
		assert_non_null(opt_table[i].help);
		assert_true(opt_table[i].off + opt_table[i].size <=
			    sizeof(struct options));
		for (size_t j = 0; j < i; j++)
			assert_string_not_equal(opt_table[i].name,
						opt_table[j].name);
	}
}

int main(void)
{
#define T(f) cmocka_unit_test_setup(f, setup)
	const struct CMUnitTest tests[] = {
		T(test_defaults),
		T(test_every_option),
		T(test_cpus),
		T(test_console_forms),
		T(test_words_and_numbers),
		T(test_sizes),
		T(test_strings),
		T(test_overrides_and_sources),
		T(test_comments_and_whitespace),
		T(test_quoted_values),
		T(test_errors_keys),
		T(test_errors_numbers),
		T(test_errors_words),
		T(test_errors_sizes),
		T(test_errors_strings_and_console),
		T(test_long_token_quoted_short),
		T(test_multiple_errors),
		T(test_print),
		T(test_help),
		T(test_table_sane),
	};

	return cmocka_run_group_tests_name("options", tests, NULL, NULL);
}
