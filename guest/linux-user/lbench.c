// SPDX-License-Identifier: GPL-2.0-only
/* guest/linux-user/lbench.c - the Linux workloads of issue 25's figures
 * (tools/linux_stages.py bench), ordinary Linux user space built with host
 * gcc -static into the busybox userland as /bin/lbench:
 *   lbench forkexec N        N times fork + execve(/bin/lbench nop) + wait
 *   lbench pipe N [A B]      N one-byte round trips between two processes
 *                            over two pipes, pinned to CPUs A and B if given
 *   lbench nop               exit 0 (the program forkexec runs)
 *   lbench now               "lbench: now_ns=T", CLOCK_MONOTONIC (a shell
 *                            line brackets a command with two of them)
 *   lbench tsc               "lbench: tsc=T", RDTSC: under QEMU the TSC
 *                            starts at 0 at reset, so this is the time from
 *                            power-on, firmware and hypervisor included
 *                            (under -icount shift=5: 32 x instructions)
 * The first two print one line, "lbench: <name> n=N ns=T ns_per=T/N", timed with
 * CLOCK_MONOTONIC (Linux's clocksource: the TSC, which under QEMU TCG and
 * minhv follows the host's). A busybox shell loop would not do: busybox
 * runs its own applets without an exec. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static unsigned long long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (unsigned long long)hi << 32 | lo;
}

static void report(const char *name, long n, long long ns)
{
	printf("lbench: %s n=%ld ns=%lld ns_per=%lld\n", name, n, ns, ns / n);
}

static int die(const char *what)
{
	fprintf(stderr, "lbench: %s: %s\n", what, strerror(errno));
	return 1;
}

static int pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static int forkexec(long n, const char *self)
{
	char *argv[] = { (char *)self, "nop", NULL };
	char *envp[] = { NULL };
	long long t0 = now_ns();

	for (long i = 0; i < n; i++) {
		int st;
		pid_t p = fork();

		if (p < 0)
			return die("fork");
		if (p == 0) {
			execve(self, argv, envp);
			_exit(127);
		}
		if (waitpid(p, &st, 0) != p || !WIFEXITED(st) ||
		    WEXITSTATUS(st) != 0) {
			fprintf(stderr,
				"lbench: child %ld failed (status %#x)\n", i,
				st);
			return 1;
		}
	}
	report("forkexec", n, now_ns() - t0);
	return 0;
}

static int pingpong(long n, int cpu_a, int cpu_b)
{
	int to_child[2], to_parent[2], st;
	char c = 'x';
	long long t0;
	pid_t p;

	if (pipe(to_child) || pipe(to_parent))
		return die("pipe");
	p = fork();
	if (p < 0)
		return die("fork");
	if (p == 0) {
		if (cpu_b >= 0 && pin(cpu_b))
			_exit(2);
		for (long i = 0; i < n; i++) {
			if (read(to_child[0], &c, 1) != 1 ||
			    write(to_parent[1], &c, 1) != 1)
				_exit(3);
		}
		_exit(0);
	}
	if (cpu_a >= 0 && pin(cpu_a))
		return die("sched_setaffinity");
	t0 = now_ns();
	for (long i = 0; i < n; i++) {
		if (write(to_child[1], &c, 1) != 1 ||
		    read(to_parent[0], &c, 1) != 1)
			return die("pipe round trip");
	}
	t0 = now_ns() - t0;
	if (waitpid(p, &st, 0) != p || !WIFEXITED(st) || WEXITSTATUS(st)) {
		fprintf(stderr, "lbench: pipe child failed (status %#x)\n", st);
		return 1;
	}
	report(cpu_a >= 0 ? "pipe_pinned" : "pipe", n, t0);
	return 0;
}

int main(int argc, char **argv)
{
	long n = argc > 2 ? atol(argv[2]) : 0;

	if (argc >= 2 && !strcmp(argv[1], "nop"))
		return 0;
	if (argc == 2 && !strcmp(argv[1], "now"))
		return printf("lbench: now_ns=%lld\n", now_ns()) < 0;
	if (argc == 2 && !strcmp(argv[1], "tsc"))
		return printf("lbench: tsc=%llu\n", rdtsc()) < 0;
	if (argc == 3 && !strcmp(argv[1], "forkexec") && n > 0)
		return forkexec(n, "/bin/lbench");
	if ((argc == 3 || argc == 5) && !strcmp(argv[1], "pipe") && n > 0)
		return pingpong(n, argc == 5 ? atoi(argv[3]) : -1,
				argc == 5 ? atoi(argv[4]) : -1);
	fprintf(stderr,
		"usage: lbench forkexec N | pipe N [CPU_A CPU_B] | nop | now | "
		"tsc\n");
	return 2;
}
