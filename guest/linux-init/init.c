// SPDX-License-Identifier: GPL-2.0-only
/* guest/linux-init/init.c - /init of the initramfs `make linux` boots: Linux
 * user space (host gcc -static), not part of the freestanding guest. It
 * mounts /proc and /dev, prints a marker, the TSC it started at (make bench),
 * the CPU count and a few checks to the kernel log (/dev/kmsg: printk
 * reaches the serial console synchronously, while the tty path needs UART
 * interrupts minhv does not deliver yet), then
 * ends the guest through the isa-debug-exit port: value 0 when every check
 * passed (exit status 1), 1 otherwise (exit status 3), as QEMU reports a
 * write of v as (v << 1) | 1.
 *
 * Stage 2 (minhv.stage=2 on the command line, several vCPUs started by
 * Linux through INIT-SIPI): the CPU count must be minhv's vCPU count (CPUID
 * 0x40000001 ECX), one thread pinned to each CPU must run there, and a
 * 1 s nanosleep must take 1 s +- 10 % by the TSC at the rate minhv measured
 * (CPUID 0x40000010 EAX, kHz; /proc/cpuinfo "cpu MHz" without minhv), and
 * each CPU's APIC ID, initial APIC ID and core ID must be its number, in
 * one package.
 *
 * Stage 3 (minhv.stage=3, more vCPUs than minhv gives the guest CPUs): the
 * stage 2 checks, then the lock-heavy workload of minhv.work=ROUNDS (issue
 * 27, docs/SCHED.md): two threads per CPU, each round taking a contended
 * mutex (futexes), touching and dropping minhv.zap=PAGES pages of its own
 * (default 16; TLB shootdowns that wait for every CPU of the process, as
 * ebizzy's), passing a byte around a ring of pipes (wake-ups, IPIs) and,
 * every few rounds, a fork + exec of /init itself ("child": exits at once)
 * and its waitpid (mm locks); timed with RDTSC (guest TSC: under -icount
 * an exact count, make bench). */
#define _GNU_SOURCE
#include <cpuid.h>
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/io.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <x86intrin.h>

#define DEBUG_EXIT_PORT 0xf4
#define HV_CPUID_BASE 0x40000000u
#define HV_CPUID_FEATURES 0x40000001u /* ECX: the guest's vCPU count */
#define HV_CPUID_TIMING 0x40000010u /* EAX: TSC kHz */
#define MAX_CPUS 64
#define SLEEP_MS 1000
#define SLEEP_TOLERANCE_PCT 10
#define WORK_LOCKS 50 /* mutex rounds per work round */
#define WORK_FORK_EVERY 4 /* a fork + exec every this many rounds */
#define WORK_MAX_THREADS 128
#define WORK_ZAP_PAGES 16 /* pages each thread touches and drops per round */
#define PAGE 4096

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

/* The number after "key" (e.g. "minhv.work=") in /proc/cmdline, or def. */
static long cmdline_num(const char *key, long def)
{
	char buf[1024] = "", *p;
	int fd = open("/proc/cmdline", O_RDONLY), n;

	if (fd < 0)
		return def;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	p = strstr(buf, key);
	return p ? strtol(p + strlen(key), NULL, 10) : def;
}

/* The minhv leaf's EAX..EDX, or 0 when not under minhv or out of range. */
static int minhv_cpuid(unsigned int leaf, unsigned int r[4])
{
	unsigned int a, b, c, d;

	__cpuid(HV_CPUID_BASE, a, b, c, d);
	if (memcmp(&b, "minh", 4) || memcmp(&c, "vmin", 4) || a < leaf)
		return 0;
	__cpuid(leaf, r[0], r[1], r[2], r[3]);
	return 1;
}

/* The TSC rate in kHz: minhv's measurement, else Linux's "cpu MHz". */
static unsigned long tsc_khz(const char **from)
{
	unsigned int r[4];
	char line[256];
	double mhz = 0;
	FILE *f;

	if (minhv_cpuid(HV_CPUID_TIMING, r) && r[0]) {
		*from = "CPUID 0x40000010";
		return r[0];
	}
	*from = "/proc/cpuinfo";
	f = fopen("/proc/cpuinfo", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu MHz : %lf", &mhz) == 1)
			break;
	fclose(f);
	return (unsigned long)(mhz * 1000);
}

struct pinned {
	pthread_t t;
	int cpu; /* where it was pinned */
	int ran_on; /* sched_getcpu() after pinning */
	int err;
};

static void *pinned_main(void *arg)
{
	struct pinned *p = arg;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(p->cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		p->err = errno;
		return NULL;
	}
	sched_yield();
	p->ran_on = sched_getcpu();
	return NULL;
}

/* One thread pinned to each online CPU; each must find itself there. */
static void check_pinned(long cpus)
{
	static struct pinned p[MAX_CPUS];
	char detail[128];
	int n = cpus < MAX_CPUS ? (int)cpus : MAX_CPUS, good = 0;

	for (int i = 0; i < n; i++) {
		p[i] = (struct pinned){ .cpu = i, .ran_on = -1 };
		p[i].err = pthread_create(&p[i].t, NULL, pinned_main, &p[i]);
	}
	for (int i = 0; i < n; i++) {
		if (!p[i].err)
			pthread_join(p[i].t, NULL);
		say("cpu %d: pinned thread ran on cpu %d%s%s", i, p[i].ran_on,
		    p[i].err ? ", error " : "",
		    p[i].err ? strerror(p[i].err) : "");
		good += !p[i].err && p[i].ran_on == i;
	}
	snprintf(detail, sizeof(detail), "%d of %d threads ran on their CPU",
		 good, n);
	check(n >= 1 && good == n, "pinned_threads", detail);
}

/* nanosleep(1 s) measured by the TSC at the rate minhv measured. */
static void check_sleep(void)
{
	struct timespec ts = { SLEEP_MS / 1000, 0 };
	const char *from = "";
	unsigned long khz = tsc_khz(&from);
	unsigned long long t0, t1, ms;
	char detail[160];
	int r;

	t0 = __rdtsc();
	r = nanosleep(&ts, NULL);
	t1 = __rdtsc();
	ms = khz ? (t1 - t0) / khz : 0;
	say("sleep: nanosleep(%d ms) took %llu ms by the TSC at %lu kHz (%s)",
	    SLEEP_MS, ms, khz, from);
	snprintf(detail, sizeof(detail), "%llu ms, want %d +- %d %%", ms,
		 SLEEP_MS, SLEEP_TOLERANCE_PCT);
	check(!r && khz &&
		      ms * 100 >= (unsigned long long)SLEEP_MS *
					  (100 - SLEEP_TOLERANCE_PCT) &&
		      ms * 100 <= (unsigned long long)SLEEP_MS *
					  (100 + SLEEP_TOLERANCE_PCT),
	      "sleep_1s", detail);
}

/* /proc/cpuinfo per CPU: Linux's APIC ID (read from the local APIC, whose
 * ID the MADT gave it), the initial APIC ID (CPUID) and the topology it
 * built from CPUID. minhv numbers everything by vCPU index, one package of
 * single-thread cores: CPU n (MADT order) must read n, n, core n, package
 * 0, whatever APIC IDs the physical CPUs have (issue 23, docs/GUESTS.md). */
static void check_topology(long online)
{
	int cpu = -1, apic = -1, init = -1, pkg = -1, core = -1, sib = -1;
	int cores = -1, n = 0, good = 0;
	char line[256], detail[128];
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (!f) {
		check(0, "topology", "no /proc/cpuinfo");
		return;
	}
	for (;;) {
		char *l = fgets(line, sizeof(line), f);

		/* A blank line (or the end) closes one CPU's block. */
		if ((!l || line[0] == '\n') && cpu >= 0) {
			int ok = apic == cpu && init == cpu && core == cpu &&
				 pkg == 0 && sib == online && cores == online;

			say("topology: cpu %d: apicid %d, initial apicid %d, physical id %d, core id %d, siblings %d, cpu cores %d%s",
			    cpu, apic, init, pkg, core, sib, cores,
			    ok ? "" : " (want n, n, 0, n, N, N)");
			good += ok;
			n++;
			cpu = -1;
		}
		if (!l)
			break;
		sscanf(line, "processor : %d", &cpu);
		sscanf(line, "apicid : %d", &apic);
		sscanf(line, "initial apicid : %d", &init);
		sscanf(line, "physical id : %d", &pkg);
		sscanf(line, "core id : %d", &core);
		sscanf(line, "siblings : %d", &sib);
		sscanf(line, "cpu cores : %d", &cores);
	}
	fclose(f);
	snprintf(
		detail, sizeof(detail),
		"%d of %d CPUs: APIC ID = initial APIC ID = core = CPU, one package",
		good, n);
	check(n == online && good == n, "topology", detail);
}

/* Stage 2: all of minhv's vCPUs online, threads on each, time right. */
static void stage2(long online)
{
	unsigned int r[4];
	char detail[128];

	if (minhv_cpuid(HV_CPUID_FEATURES, r)) {
		snprintf(detail, sizeof(detail), "Linux %ld, minhv vCPUs %u",
			 online, r[2]);
		check(online == (long)r[2], "cpus_match_vcpus", detail);
	} else {
		check(0, "cpus_match_vcpus", "not under minhv (no CPUID leaf)");
	}
	check_pinned(online);
	check_topology(online);
	check_sleep();
}

struct worker {
	pthread_t t;
	int in, out; /* read from in, write to out: a ring of pipes */
	int rounds, zap;
	char *mem; /* zap pages of this thread's own, in the shared mm */
	int forks, fails; /* fails: zap, pipe or fork + exec */
};

static pthread_mutex_t work_lock = PTHREAD_MUTEX_INITIALIZER;
static volatile long work_counter;

/* fork + exec /init child + waitpid: 1 when the child exited 0. */
static int fork_exec(void)
{
	int st = 0;
	pid_t pid = fork();

	if (pid == 0) {
		execl("/init", "init", "child", (char *)NULL);
		_exit(127);
	}
	return pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	       WEXITSTATUS(st) == 0;
}

/* Touch this thread's pages, then drop them: the drop flushes the TLB of
 * every CPU the process runs on and waits for them all (ebizzy's
 * pattern). 1 when the dropped pages read back as zero. */
static int zap_pages(struct worker *w)
{
	if (!w->zap)
		return 1;
	for (int p = 0; p < w->zap; p++)
		w->mem[p * PAGE] = 1;
	return !madvise(w->mem, (size_t)w->zap * PAGE, MADV_DONTNEED) &&
	       !w->mem[0];
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	char b = 1;

	for (int r = 0; r < w->rounds; r++) {
		for (int k = 0; k < WORK_LOCKS; k++) {
			pthread_mutex_lock(&work_lock);
			work_counter++;
			pthread_mutex_unlock(&work_lock);
		}
		w->fails += !zap_pages(w);
		/* Each writes before it reads: the ring never deadlocks. */
		if (write(w->out, &b, 1) != 1 || read(w->in, &b, 1) != 1)
			w->fails++;
		if (r % WORK_FORK_EVERY == 0) {
			w->forks++;
			w->fails += !fork_exec();
		}
	}
	return NULL;
}

/* minhv.work=ROUNDS: the workload above, two threads per CPU. */
static void work(long online, int rounds)
{
	static struct worker w[WORK_MAX_THREADS];
	static int fds[WORK_MAX_THREADS][2];
	int n = (int)(2 * online), started = 0, bad = 0, forks = 0;
	int zap = (int)cmdline_num("minhv.zap=", WORK_ZAP_PAGES);
	char *mem = NULL;
	unsigned long long t0, t1;
	char detail[160];

	if (n > WORK_MAX_THREADS)
		n = WORK_MAX_THREADS;
	for (int i = 0; i < n; i++)
		if (pipe(fds[i])) {
			check(0, "work", "pipe() failed");
			return;
		}
	if (zap < 0)
		zap = 0;
	if (zap) {
		mem = mmap(NULL, (size_t)n * zap * PAGE, PROT_READ | PROT_WRITE,
			   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (mem == MAP_FAILED) {
			check(0, "work", "mmap() failed");
			return;
		}
	}
	work_counter = 0;
	t0 = __rdtsc();
	for (int i = 0; i < n; i++) {
		w[i] = (struct worker){
			.in = fds[i][0],
			.out = fds[(i + 1) % n][1],
			.rounds = rounds,
			.zap = zap,
			.mem = mem ? mem + (size_t)i * zap * PAGE : NULL
		};
		started += !pthread_create(&w[i].t, NULL, worker_main, &w[i]);
	}
	for (int i = 0; i < n; i++) {
		pthread_join(w[i].t, NULL);
		bad += w[i].fails;
		forks += w[i].forks;
	}
	t1 = __rdtsc();
	say("work: %d threads x %d rounds (%d mutex, %d pages dropped, a pipe ring, fork+exec every %d): %d fork+exec, tsc=%llu",
	    n, rounds, WORK_LOCKS, zap, WORK_FORK_EVERY, forks, t1 - t0);
	snprintf(
		detail, sizeof(detail),
		"%d of %d threads, counter %ld of %ld, %d failed zap/pipe/fork/exec",
		started, n, work_counter, (long)n * rounds * WORK_LOCKS, bad);
	check(started == n && work_counter == (long)n * rounds * WORK_LOCKS &&
		      !bad,
	      "work", detail);
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

int main(int argc, char **argv)
{
	/* First thing: make bench's "kernel started /init" point (guest TSC;
	 * under -icount 32 per instruction since reset, docs/PERFORMANCE.md). */
	unsigned long long tsc_start = __rdtsc();
	char detail[256];
	struct utsname u;
	struct stat st;
	long online;
	int procs, proc_ok;

	if (argc > 1 && !strcmp(argv[1], "child"))
		return 0; /* the workload's fork + exec */

	mkdir("/proc", 0555);
	mkdir("/dev", 0755);
	proc_ok = !mount("proc", "/proc", "proc", 0, NULL);
	if (mount("devtmpfs", "/dev", "devtmpfs", 0, NULL) &&
	    stat("/dev/kmsg", &st))
		mknod("/dev/kmsg", S_IFCHR | 0600, makedev(1, 11));
	kmsg = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);

	say("hello from /init (pid %d)", (int)getpid());
	say("tsc=%llu at the start of main", tsc_start);
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
	if (on_cmdline("minhv.stage=2") || on_cmdline("minhv.stage=3")) {
		say("stage %s: %ld CPUs",
		    on_cmdline("minhv.stage=3") ? "3" : "2", online);
		stage2(online);
	}
	if (cmdline_num("minhv.work=", 0) > 0)
		work(online, (int)cmdline_num("minhv.work=", 0));
	say("%s: %d check(s) failed", failures ? "FAIL" : "PASS", failures);
	sync();
	end_guest(failures ? 1 : 0);
	/* Still here: no debug-exit device. PID 1 must not exit. */
	for (;;)
		pause();
}
