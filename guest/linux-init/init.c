/* guest/linux-init/init.c - /init of the initramfs `make linux` boots: Linux
 * user space (host gcc -static), not part of the freestanding guest. It
 * mounts /proc and /dev, prints a marker, the CPU count and a few checks to
 * the kernel log (/dev/kmsg: printk reaches the serial console synchronously,
 * while the tty path needs UART interrupts minhv does not deliver yet), then
 * ends the guest through the isa-debug-exit port: value 0 when every check
 * passed (exit status 1), 1 otherwise (exit status 3), as QEMU reports a
 * write of v as (v << 1) | 1. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#define DEBUG_EXIT_PORT 0xf4

static int kmsg = -1;
static int failures;

static void say(const char *fmt, ...)
{
	char line[512];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "minhv-init: ");
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(line) - 1)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	if (kmsg < 0 || write(kmsg, line, n) != n)
		(void)!write(1, line, n);
}

static void check(int ok, const char *name, const char *detail)
{
	say("%s %s%s%s", ok ? "ok" : "not ok", name, detail[0] ? ": " : "",
	    detail);
	if (!ok)
		failures++;
}

static int cpuinfo_cpus(void)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");
	int n = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "processor", 9))
			n++;
	fclose(f);
	return n;
}

/* 1 when "name" appears in /proc/cmdline. */
static int on_cmdline(const char *name)
{
	char buf[1024] = "";
	int fd = open("/proc/cmdline", O_RDONLY), n;

	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	return strstr(buf, name) != NULL;
}

static void end_guest(unsigned int value)
{
	say("ending the guest: isa-debug-exit value %u", value);
	if (ioperm(DEBUG_EXIT_PORT, 4, 1)) {
		say("ioperm(%#x) failed: %s", DEBUG_EXIT_PORT, strerror(errno));
		return;
	}
	outl(value, DEBUG_EXIT_PORT);
}

int main(void)
{
	char detail[256];
	struct utsname u;
	struct stat st;
	long online;
	int procs, proc_ok;

	mkdir("/proc", 0555);
	mkdir("/dev", 0755);
	proc_ok = !mount("proc", "/proc", "proc", 0, NULL);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) &&
	    stat("/dev/kmsg", &st))
		mknod("/dev/kmsg", S_IFCHR | 0600, makedev(1, 11));
	kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	say("hello from /init (pid %d)", (int)getpid());
	check(getpid() == 1, "pid1", "");
	check(proc_ok, "proc_mounted", proc_ok ? "" : strerror(errno));
	online = sysconf(_SC_NPROCESSORS_ONLN);
	procs = cpuinfo_cpus();
	say("cpus: sysconf(_SC_NPROCESSORS_ONLN) %ld, /proc/cpuinfo %d", online,
	    procs);
	snprintf(detail, sizeof(detail), "online %ld, cpuinfo %d", online,
		 procs);
	check(online >= 1 && procs == online, "cpu_count", detail);
	if (uname(&u) == 0) {
		snprintf(detail, sizeof(detail), "%s %s %s", u.sysname,
			 u.release, u.machine);
		check(!strcmp(u.sysname, "Linux") &&
			      !strcmp(u.machine, "x86_64"),
		      "uname", detail);
	} else {
		check(0, "uname", strerror(errno));
	}
	check(on_cmdline("console=ttyS0"), "cmdline", "console=ttyS0 present");
	check(kmsg >= 0, "kmsg", kmsg >= 0 ? "" : strerror(errno));
	say("%s: %d check(s) failed", failures ? "FAIL" : "PASS", failures);
	sync();
	end_guest(failures ? 1 : 0);
	/* Still here: no debug-exit device. PID 1 must not exit. */
	for (;;)
		pause();
}
