#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tools/linux_stages.py - Linux as its users run it (issue 25), each stage
# one boot of Debian's kernel with the busybox userland
# (tools/linux-userland.sh), `console=ttyS0` and nothing else on the
# command line, driven over the serial line (tools/serial_drive.py), on
#   bare   QEMU -kernel/-initrd/-append, q35, TCG, -cpu EPYC,+x2apic, the
#          disk as virtio-blk-pci (LINUX_BARE_VIRTIO=mmio: -M microvm,
#          acpi=on and virtio-blk-device, the DSDT's LNRO0005 minhv would
#          declare), poweroff ends QEMU with status 0, reboot resets it;
#   minhv  the same files on the ESP (tests/boot/run-qemu.sh), minhv options
#          guest= initrd= cmdline="console=ttyS0" disk= vcpus=, pass = minhv's
#          own pass status.
# Stages (tools/linux-stages.sh runs them; tests/boot/50-linux.t too):
#   boot      1 vCPU: the kernel runs /init, the modules load, busybox init
#             starts the shell; output only (/init's lines go to /dev/kmsg)
#   shell     1 vCPU: type echo, arithmetic, uname -a, cat /proc/cpuinfo
#   smp       4 vCPUs and the disk: 4 CPUs online, 4 parallel jobs pinned
#             one per CPU, 1 MiB (--console-kib) to /dev/console arrives
#             whole, sleep 5
#             within 2 % of the host's clock, the ext4 root on /dev/vda
#             with every file's SHA-256 right (and a write read back)
#   reboot    1 vCPU: `reboot` comes back to a shell that answers
#   poweroff  1 vCPU: `poweroff` ends the run with the pass status
#   user      1 vCPU and the disk: shell's checks, 64 KiB to the console,
#             sleep 5, the disk's checks, then reboot (the root is the disk
#             again), then poweroff, in one machine (what
#             tests/boot/50-linux.t runs: one QEMU, two kernel boots)
#   all       the same on 4 vCPUs with all of smp's checks
#   autoreboot, autopoweroff  the same two typed by rcS itself (a second
#             archive in the initramfs adds /etc/rc.auto): reset and S5
#             checked before serial input works
#   bench     the figures of docs/PERFORMANCE.md: boot to the shell, console
#             bytes/s, fork+exec x2000, pipe ping-pong, as TSV
# Usage: linux_stages.py --target bare|minhv --kernel K --initrd I --disk D
#        [--out DIR] [--vcpus N (bench)] [--timeout S] [--efi minhv.efi]
#        STAGE...
# Prints "linux-stages: ok|FAIL - <target> <stage>: <check>" lines; exit
# status 0 when every check of every stage passed, 1 otherwise, 2 harness.
import argparse
import gzip
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # no __pycache__ in tools/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import linux_data  # noqa: E402
from serial_drive import Serial, Timeout  # noqa: E402

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CMDLINE = "console=ttyS0"
GUEST_MEM_MIB = 256
# minhv's options besides the guest's own: guest_mem= matches bare QEMU's
# -m (the pool follows); nothing else (no watchdog_ms=, pool=, or
# guest_console_rate=: the defaults fit a Linux guest).
MINHV_OPTS = os.environ.get("LINUX_MINHV_OPTS",
                            "guest_mem=%dM" % GUEST_MEM_MIB)
# LINUX_ICOUNT=shift=5,align=off,sleep=off: both machines under -icount,
# where the guest's clocks count instructions (the bench's exact figures:
# TSC / 32 = instructions; host-clock figures then mean nothing).
ICOUNT = (["-icount", os.environ["LINUX_ICOUNT"]]
          if os.environ.get("LINUX_ICOUNT") else [])
STAGE_VCPUS = {"boot": 1, "shell": 1, "smp": 4, "reboot": 1, "poweroff": 1,
               "user": 1, "all": 4}
STAGE_DISK = {"smp", "all", "user"}


def host_tsc_khz():
    """The host's TSC rate (kHz), which a TCG guest's RDTSC counts at."""
    with open("/proc/cpuinfo") as f:
        for line in f:
            if line.startswith("cpu MHz"):
                return int(float(line.split(":")[1]) * 1000)
    sys.exit("linux-stages: no cpu MHz in /proc/cpuinfo")


class Machine:
    """One boot of the kernel on bare QEMU or under minhv, its serial line
    on a socket (QEMU waits for us before it starts)."""

    def __init__(self, args, name, vcpus, disk, initrd):
        self.args, self.name, self.vcpus = args, name, vcpus
        self.initrd = initrd
        self.tmp = tempfile.mkdtemp(prefix="minhv-linux-")
        self.sock = os.path.join(self.tmp, "serial.sock")
        self.log = os.path.join(args.out, "%s-%s.log" % (args.target, name))
        self.transcript = self.log[:-4] + ".transcript"
        self.started = time.monotonic()
        timeout = args.timeout
        if args.target == "bare":
            cmd = self.bare_cmd(disk)
        else:
            cmd = self.minhv_cmd(disk, timeout)
        self.stderr = open(self.log[:-4] + ".stderr", "w")
        self.proc = subprocess.Popen(cmd, cwd=TOP, stdin=subprocess.DEVNULL,
                                     stdout=self.stderr, stderr=self.stderr,
                                     start_new_session=True)
        self.serial = None
        try:
            self.serial = Serial(
                self.sock, transcript=self.transcript,
                prefix="user" if args.target == "minhv" else None,
                connect_timeout=60, alive=lambda: self.proc.poll() is None)
        except Timeout:
            self.stop()
            raise
        self.serial.note("started: %s" % " ".join(cmd))

    def bare_cmd(self, disk):
        a = self.args
        mmio = os.environ.get("LINUX_BARE_VIRTIO", "pci") == "mmio"
        append = CMDLINE
        if mmio:
            # microvm has no PM timer or HPET, and TCG's PIT calibration
            # fails on a loaded host: Linux then cannot rate the TSC and
            # hangs. minhv appends the same option to every Linux guest.
            append += " tsc_early_khz=%d" % host_tsc_khz()
        cmd = ["timeout", "-k", "5", str(a.timeout), "qemu-system-x86_64",
               "-machine", "microvm,acpi=on" if mmio else "q35",
               "-accel", "tcg", "-cpu", "EPYC,+x2apic",
               "-smp", str(self.vcpus), "-m", str(GUEST_MEM_MIB),
               "-kernel", a.kernel, "-initrd", self.initrd,
               "-append", append,
               "-display", "none", "-nic", "none", "-monitor", "none",
               "-chardev", "socket,id=ser0,path=%s,server=on,wait=on,"
               "logfile=%s,logappend=off" % (self.sock, self.log),
               "-serial", "chardev:ser0"] + ICOUNT
        if disk:
            # snapshot=on: the guest's writes go to a temporary overlay,
            # the image stays as built.
            cmd += ["-drive", "file=%s,if=none,id=d0,format=raw,snapshot=on"
                    % a.disk, "-device",
                    "virtio-blk-device,drive=d0" if mmio else
                    "virtio-blk-pci,drive=d0"]
        return cmd

    def minhv_cmd(self, disk, timeout):
        a = self.args
        opts = ('guest=\\linux\\vmlinuz initrd=\\linux\\initrd.gz '
                'cmdline="%s" vcpus=%d guest_time_ms=%d %s'
                % (CMDLINE, self.vcpus, max(timeout - 30, 30) * 1000,
                   MINHV_OPTS))
        cmd = [os.path.join(TOP, "tests/boot/run-qemu.sh"),
               "--efi", a.efi, "--name", "linux-%s" % self.name, "--smp", str(self.vcpus),
               "--mem", "1024", "--timeout", str(timeout), "--log", self.log,
               "--serial-socket", self.sock,
               "--file", "%s:linux/vmlinuz" % a.kernel,
               "--file", "%s:linux/initrd.gz" % self.initrd]
        if disk:
            opts += " disk=\\linux\\root.img"
            cmd += ["--file", "%s:linux/root.img" % a.disk]
        return cmd + ["--opts", opts] + (["--"] + ICOUNT if ICOUNT else [])

    def elapsed(self):
        return time.monotonic() - self.started

    def cpu_s(self):
        """CPU seconds (user + system) the QEMU process of this machine has
        used: on a loaded host, work per CPU-second is the steadier figure
        (the wall clock also counts the time QEMU waited for a core)."""
        tick = os.sysconf("SC_CLK_TCK")
        for pid in os.listdir("/proc"):
            if not pid.isdigit():
                continue
            try:
                with open("/proc/%s/stat" % pid) as f:
                    st = f.read()
            except OSError:
                continue
            comm = st[st.index("(") + 1:st.rindex(")")]
            f = st[st.rindex(")") + 2:].split()
            # f[2] is the process group (field 5 of proc(5)): the machine's
            # session leader started it (start_new_session).
            if comm.startswith("qemu-system") and int(f[2]) == self.proc.pid:
                return (int(f[11]) + int(f[12])) / tick
        return None

    def wait(self, timeout):
        """The machine's exit status, or None if it is still running."""
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            return None

    def stop(self):
        """End the run (a stage that does not end the guest itself)."""
        if self.serial and self.serial.eof:
            self.wait(15)  # the machine ended: let the harness finish
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            if self.wait(15) is None:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait()
        if self.serial:
            self.serial.close()
        self.stderr.close()
        shutil.rmtree(self.tmp, ignore_errors=True)

    def host_says(self, n=6):
        """minhv's last own lines (what it printed about the guest)."""
        return self.serial.host_lines[-n:]


class Stage:
    def __init__(self, target, name):
        self.target, self.name = target, name
        self.failed = 0
        self.figures = []

    def check(self, ok, what, diag=""):
        print("linux-stages: %s - %s %s: %s%s" % (
            "ok" if ok else "FAIL", self.target, self.name, what,
            "" if ok or not diag else " (%s)" % diag), flush=True)
        if not ok:
            self.failed += 1
        return ok

    def note(self, what):
        print("linux-stages: # %s %s: %s" % (self.target, self.name, what),
              flush=True)


def boot_to_shell(st, m, timeout):
    """The kernel's and /init's lines, then the shell answers a command."""
    s = m.serial
    s.expect(r"Run /init as init process", timeout, "the kernel to run /init")
    st.check(True, "the kernel ran /init (%.1f s)" % m.elapsed())
    mo = s.expect(r"minhv-linux: modules: (\d+) loaded(.*)\n", 120,
                  "/init to load the modules")
    st.check(True, "/init loaded %s modules%s" % (mo.group(1), mo.group(2)))
    root = s.expect(r"minhv-linux: root is (.*)\n", 120,
                    "/init to choose the root").group(1)
    s.expect(r"minhv-linux: shell on /dev/console", 120,
             "busybox init to start the shell")
    st.check(True, "busybox init started the shell (root %s, %.1f s)"
             % (root, m.elapsed()))
    return root


def typed(st, m, timeout=60):
    """The shell answers over the serial line (input reaches the guest)."""
    t0 = time.monotonic()
    m.serial.sync(timeout)
    st.check(True, "the shell answers what is typed (%.2f s)"
             % (time.monotonic() - t0))
    return m.elapsed()


def run_ok(st, m, cmd, timeout=60):
    out, status = m.serial.run(cmd, timeout)
    st.check(status == 0, "`%s` exits 0" % cmd, "exit status %d" % status)
    return out


def stage_boot(st, m, a):
    boot_to_shell(st, m, a.timeout)


def stage_shell(st, m, a):
    boot_to_shell(st, m, a.timeout)
    typed(st, m)
    shell_checks(st, m)


def shell_checks(st, m):
    """Typed commands: their output and exit status."""
    out = run_ok(st, m, "echo hello from the serial line")
    st.check(out == "hello from the serial line\n", "echo prints its words",
             repr(out))
    out = run_ok(st, m, "echo $((6 * 7))")
    st.check(out.strip() == "42", "the shell computes 6 * 7 = 42", repr(out))
    out, status = m.serial.run("false")
    st.check(status == 1, "`false` exits 1", "exit status %d" % status)
    out = run_ok(st, m, "uname -a")
    st.check(re.match(r"Linux linux 6\.\S+ #1 SMP .* x86_64 GNU/Linux\n$",
                      out) is not None, "uname -a: Linux 6.x x86_64",
             repr(out))
    out = run_ok(st, m, "cat /proc/cpuinfo")
    cpus = re.findall(r"^processor\s*: (\d+)$", out, re.M)
    st.check(cpus == [str(i) for i in range(m.vcpus)],
             "/proc/cpuinfo lists %d CPU(s)" % m.vcpus, repr(cpus))
    st.check(re.search(r"^vendor_id\s*: AuthenticAMD$", out, re.M)
             is not None, "/proc/cpuinfo: vendor AuthenticAMD")
    st.check(re.search(r"^flags\s*: .*\bx2apic\b", out, re.M) is not None,
             "/proc/cpuinfo: flags include x2apic")


def stage_user(st, m, a):
    """One vCPU and the disk, in one machine: the shell, 64 KiB to the
    console, sleep 5, the ext4 root's manifest and a write, then reboot
    (the disk is the root again), then poweroff. What
    tests/boot/50-linux.t runs: one QEMU, two kernel boots."""
    root = boot_to_shell(st, m, a.timeout)
    typed(st, m)
    shell_checks(st, m)
    console(st, m, 1024)
    sleep5(st, m)
    disk(st, m, root)
    reboot_poweroff(st, m, a)


def reboot_poweroff(st, m, a):
    m.serial.sendline("reboot")
    root = rebooted(st, m, a)
    st.check(root.startswith("/dev/vda ext4"),
             "after the reboot the root is the virtio disk again", repr(root))
    typed(st, m)
    m.serial.sendline("poweroff")
    powered_off(st, m, a)


def stage_all(st, m, a):
    """Every user stage in one machine, 4 vCPUs and the disk: the shell,
    smp's checks, then reboot (the disk is the root again), then
    poweroff. What tests/boot/50-linux.t runs: one QEMU, two kernel
    boots."""
    root = boot_to_shell(st, m, a.timeout)
    typed(st, m)
    shell_checks(st, m)
    smp_checks(st, m, root)
    reboot_poweroff(st, m, a)


def stage_smp(st, m, a):
    root = boot_to_shell(st, m, a.timeout)
    typed(st, m)
    smp_checks(st, m, root)


def smp_checks(st, m, root):
    out = run_ok(st, m, "grep -c ^processor /proc/cpuinfo; nproc")
    st.check(out.split() == ["4", "4"], "4 CPUs online", repr(out))
    # Four jobs, each pinned to its own CPU, each hashing 4 MiB of zeros.
    # Field 39 of /proc/self/stat: the CPU cut itself ran on.
    out = run_ok(st, m, "for c in 0 1 2 3; do taskset -c $c sh -c "
                 "'dd if=/dev/zero bs=64k count=64 2>/dev/null | md5sum; "
                 "cut -d\" \" -f39 /proc/self/stat' >/tmp/j$c & "
                 "done; wait; cat /tmp/j0 /tmp/j1 /tmp/j2 /tmp/j3", 300)
    want = hashlib.md5(bytes(4 << 20)).hexdigest()
    lines = out.split("\n")
    sums = [l.split()[0] for l in lines[0::2] if l]
    where = [l.strip() for l in lines[1::2] if l.strip()]
    st.check(sums == [want] * 4, "4 parallel jobs each hashed 4 MiB right",
             repr(out))
    st.check(where == ["0", "1", "2", "3"],
             "each job ran on the CPU it was pinned to", repr(where))
    console(st, m, st.console_kib * 1024 // linux_data.CONSOLE_LINE_LEN)
    sleep5(st, m)
    disk(st, m, root)


KMSG_LINE = re.compile(r"\[ *\d+\.\d{6}\] [^\n]*\n")
KMSG_BAD = re.compile(r"soft lockup|hard LOCKUP|BUG|Oops|panic|rcu.*stall|"
                      r"hung_task|blocked for more than")


def console(st, m, lines=linux_data.CONSOLE_LINES):
    """Numbered lines to /dev/console (all of them: 1 MiB): every line
    arrives whole and in order."""
    s = m.serial
    total = lines * linux_data.CONSOLE_LINE_LEN
    what = "1 MiB" if lines == linux_data.CONSOLE_LINES else \
        "%d KiB" % (total >> 10)
    c0 = m.cpu_s()
    t0 = time.monotonic()
    # Bracketed by the guest's own clock too (lbench now into files, read
    # back after): the guest's view, without the typing and the harness.
    out, status = s.run("mkdir -p /tmp && lbench now >/tmp/c0 && "
                        "head -n %d /usr/share/minhv/console-1m.txt "
                        ">/dev/console && lbench now >/tmp/c1" % lines, 600)
    t = time.monotonic() - t0
    c1 = m.cpu_s()
    clk, _ = s.run("cat /tmp/c0 /tmp/c1", 60)
    ns = [int(x) for x in re.findall(r"now_ns=(\d+)", clk)]
    st.check(status == 0, "the %s write to /dev/console ended (%.1f s)"
             % (what, t), "exit status %d" % status)
    # printk writes the 16550 itself, so a kernel message can land
    # anywhere in the stream, inside a line too (a loaded host makes 4
    # vCPUs print the one-time "hrtimer: interrupt took N ns"). It is not
    # part of the data: its lines (printk's "[    s.us] " prefix) come
    # out before the lines are compared, and one that reports a hang or
    # a bug fails the stage on its own.
    kmsgs = KMSG_LINE.findall(out)
    out = KMSG_LINE.sub("", out)
    hung = [k.strip() for k in kmsgs if KMSG_BAD.search(k)]
    st.check(not hung, "no kernel message of a hang or bug during the "
             "write (%d kernel lines in it)" % len(kmsgs), repr(hung[:2]))
    got_lines = out.split("\n")
    good = sum(1 for i, l in enumerate(got_lines[:lines])
               if l == linux_data.console_line(i))
    got = good * linux_data.CONSOLE_LINE_LEN
    bad = [(i, l) for i, l in enumerate(got_lines[:lines])
           if l != linux_data.console_line(i)][:2]
    st.check(got == total and len(out) == total,
             "%d of %d bytes arrived, every line in order (%.0f bytes/s)"
             % (got, total, total / t if t else 0),
             "%d bytes of output; first wrong lines: %r" % (len(out), bad))
    st.figures.append(("console_Bps", "%.0f" % (got / t), "B/s",
                       "%s of 64-byte lines to /dev/console, host clock "
                       "from typing to the end marker" % what))
    if c0 is not None and c1 is not None and c1 > c0:
        st.figures.append(("console_cpu_Bps", "%.0f" % (got / (c1 - c0)),
                           "B/s", "the same write: bytes per CPU-second "
                           "of the QEMU process"))
    if st.check(len(ns) == 2 and ns[1] > ns[0], "the guest timed the write",
                repr(clk)):
        st.figures.append(("console_guest_Bps", "%.0f" % (got * 1e9 / (
            ns[1] - ns[0])), "B/s", "the same write by the guest's "
            "CLOCK_MONOTONIC around it"))


def sleep5(st, m, tries=3):
    """sleep 5 against the host's clock: between the two markers the shell
    prints around it, both seen over the same output path. A guest clock
    that runs wrong is wrong every time; a loaded host can delay one
    marker: up to tries attempts, the first within 2 % passes."""
    s = m.serial
    took = []
    for _ in range(tries):
        s.run("true")
        s._n += 1
        n = s._n
        s.sendline('echo "@@""S%d@@"; sleep 5; echo "@@""E%d:$?@@"'
                   % (n, n))
        s.expect(r"^@@S%d@@\n" % n, 60, "the start of sleep 5")
        t0 = s.match_time
        s.expect(r"@@E%d:0@@" % n, 60, "the end of sleep 5")
        took.append(s.match_time - t0)
        if abs(took[-1] - 5.0) <= 0.1:
            break
    st.check(abs(took[-1] - 5.0) <= 0.1, "sleep 5 took %s s by the host's "
             "clock (5 s +- 2 %%, %d tries at most)"
             % (", ".join("%.3f" % t for t in took), tries))


def disk(st, m, root):
    st.check(root.startswith("/dev/vda ext4"),
             "the root is ext4 on the virtio disk /dev/vda", repr(root))
    out = run_ok(st, m, "awk '$2 == \"/\" { print $1, $3, $4 }' "
                 "/proc/mounts; cat /etc/minhv-disk")
    st.check(out.startswith("/dev/vda ext4 ") and "ext4 root of make linux"
             in out, "/proc/mounts: / is /dev/vda, ext4, the image's own",
             repr(out))
    want = "".join("%s  ./%s\n" % (hashlib.sha256(
        linux_data.stream(n, size)).hexdigest(), n)
        for n, size in linux_data.DATA_FILES)
    out = run_ok(st, m, "cat /data/SHA256SUMS")
    st.check(out == want, "the manifest reads back as written", repr(out))
    out, status = m.serial.run("cd /data && sha256sum -c SHA256SUMS; "
                               "st=$?; cd /; (exit $st)", 300)
    oks = re.findall(r"^\./(\S+): OK$", out, re.M)
    st.check(status == 0 and len(oks) == len(linux_data.DATA_FILES),
             "every file's SHA-256 is right (%d of %d files, %d bytes)"
             % (len(oks), len(linux_data.DATA_FILES),
                sum(sz for _, sz in linux_data.DATA_FILES)),
             "exit status %d: %r" % (status, out[-300:]))
    if " ro," in root:
        st.note("the disk is mounted read-only: no write test")
        return
    # A write, synced, caches dropped, read back from the disk.
    out = run_ok(st, m, "dd if=/data/a.bin of=/w.bin bs=4k 2>/dev/null && "
                 "sync && echo 3 >/proc/sys/vm/drop_caches && "
                 "sha256sum /w.bin && rm /w.bin && sync", 300)
    want = hashlib.sha256(linux_data.stream("a.bin", 1 << 20)).hexdigest()
    # (drop_caches says so on the console, between the lines)
    st.check(re.search("^%s  /w.bin$" % want, out, re.M) is not None,
             "1 MiB written, synced and read back from the disk", repr(out))


def stage_reboot(st, m, a):
    boot_to_shell(st, m, a.timeout)
    typed(st, m)
    m.serial.sendline("reboot")
    rebooted(st, m, a)
    typed(st, m)


def stage_autoreboot(st, m, a):
    """reboot run by rcS itself (/etc/rc.auto): the reset path without
    serial input. It reboots again on every boot; two are enough."""
    boot_to_shell(st, m, a.timeout)
    m.serial.expect(r"minhv-linux: rc.auto: reboot", 60, "rc.auto to run")
    rebooted(st, m, a)


def rebooted(st, m, a):
    m.serial.expect(r"reboot: Restarting system", 120,
                    "the kernel to restart the system")
    st.check(True, "the kernel restarts the system")
    m.serial.expect(r"Linux version 6\.", a.timeout,
                    "the kernel to start again")
    st.check(True, "the kernel starts again (%.1f s)" % m.elapsed())
    return boot_to_shell(st, m, a.timeout)


def stage_poweroff(st, m, a):
    boot_to_shell(st, m, a.timeout)
    typed(st, m)
    m.serial.sendline("poweroff")
    powered_off(st, m, a)


def stage_autopoweroff(st, m, a):
    """poweroff run by rcS itself (/etc/rc.auto): ACPI S5 without serial
    input."""
    boot_to_shell(st, m, a.timeout)
    m.serial.expect(r"minhv-linux: rc.auto: poweroff", 60, "rc.auto to run")
    powered_off(st, m, a)


def powered_off(st, m, a):
    m.serial.expect(r"reboot: Power down", 120, "the kernel to power down")
    st.check(True, "the kernel powers down")
    rc = m.wait(60)
    if a.target == "bare":
        st.check(rc == 0, "QEMU exits with status 0", "status %r" % rc)
    else:
        st.check(rc == 0, "minhv ends the run with its pass status "
                 "(run-qemu.sh 0)", "run-qemu.sh status %r; minhv: %s"
                 % (rc, " | ".join(m.host_says())))


def stage_bench(st, m, a):
    """The figures: boot to the shell, the console, fork+exec, pipes."""
    boot_to_shell(st, m, a.timeout)
    t = typed(st, m)
    st.figures.append(("boot_to_shell_s", "%.2f" % t, "s",
                       "host clock: QEMU started -> the shell answers the "
                       "first typed command (bare: SeaBIOS; minhv: OVMF, "
                       "minhv, then the kernel)"))
    cpu = m.cpu_s()
    if cpu is not None:
        st.figures.append(("boot_to_shell_cpu_s", "%.2f" % cpu, "s",
                           "QEMU's CPU time (user + system) from its start "
                           "to the shell's answer"))
    out = run_ok(st, m, "lbench tsc", 60)
    mo = re.search(r"tsc=(\d+)", out)
    if st.check(mo is not None, "the guest read its TSC", repr(out)):
        st.figures.append(("boot_to_shell_tsc", mo.group(1), "TSC",
                           "guest TSC at the shell: from reset, firmware "
                           "(and minhv) included"))
    console(st, m)
    for cmd, name, what in (
            ("lbench forkexec 2000", "forkexec_ns", "fork+execve+wait, "
             "mean of 2000"),
            ("lbench pipe 2000", "pipe_rtt_ns", "pipe round trip, 2 "
             "processes, mean of 2000"),
            ("lbench pipe 2000 0 1", "pipe_pinned_rtt_ns", "pipe round "
             "trip, processes pinned to CPUs 0 and 1, mean of 2000")):
        if "0 1" in cmd and m.vcpus < 2:
            continue
        c0 = m.cpu_s()
        t0 = time.monotonic()
        out = run_ok(st, m, cmd, 600)
        t = time.monotonic() - t0
        c1 = m.cpu_s()
        mo = re.search(r"ns_per=(\d+)", out)
        st.check(mo is not None, "%s: %s" % (cmd, out.strip()), repr(out))
        if mo:
            st.figures.append((name, mo.group(1), "ns", what
                               + " (CLOCK_MONOTONIC in the guest)"))
            st.figures.append((name.replace("_ns", "_host_s"), "%.2f" % t,
                               "s", what + ", whole command by the host "
                               "clock"))
            if c0 is not None and c1 is not None:
                st.figures.append((name.replace("_ns", "_cpu_s"),
                                   "%.2f" % (c1 - c0), "s", what + ", whole "
                                   "command: CPU time of the QEMU process"))
    # A clean end: minhv then prints the guest's exits by kind.
    m.serial.sendline("poweroff")
    powered_off(st, m, a)
    for line in m.serial.host_lines:
        mo = re.search(r"guest user exits (\d+): (.*?);", line)
        if not mo:
            continue
        st.figures.append(("exits", mo.group(1), "exits", "minhv's count of "
                           "the guest's exits over the whole boot"))
        for kind, n in re.findall(r"(\w[\w-]*) (\d+)", mo.group(2)):
            if kind in ("ioio", "msr", "hlt", "npf", "intr"):
                st.figures.append(("exits_" + kind, n, "exits", "of them "
                                   + kind))


STAGES = {"boot": stage_boot, "shell": stage_shell, "smp": stage_smp,
          "user": stage_user, "all": stage_all,
          "reboot": stage_reboot, "poweroff": stage_poweroff,
          "autoreboot": stage_autoreboot,
          "autopoweroff": stage_autopoweroff, "bench": stage_bench}
# What rcS runs by itself in the auto stages (/etc/rc.auto).
AUTO = {"autoreboot": "reboot", "autopoweroff": "poweroff"}


def auto_initrd(a, tmp, name):
    """The initramfs plus a second archive holding /etc/rc.auto: Linux
    unpacks concatenated (compressed) cpio archives in turn."""
    rc = os.path.join(tmp, "rc.auto")
    with open(rc, "w") as f:
        f.write("#!/bin/sh\nsleep 1\n"
                "echo 'minhv-linux: rc.auto: %s' >/dev/kmsg\n%s\n"
                % (AUTO[name], AUTO[name]))
    lst = os.path.join(tmp, "auto.list")
    with open(lst, "w") as f:
        f.write("dir /etc 0755\nfile /etc/rc.auto 0755 %s\n" % rc)
    cpio = subprocess.run([sys.executable, os.path.join(TOP, "tools/newc.py"),
                           lst], check=True, stdout=subprocess.PIPE).stdout
    out = os.path.join(tmp, "initrd-%s.gz" % name)
    with open(a.initrd, "rb") as base, open(out, "wb") as f:
        f.write(base.read())
        f.write(gzip.compress(cpio, mtime=0))
    return out


def run_stage(a, name):
    st = Stage(a.target, name)
    st.console_kib = a.console_kib
    vcpus = a.vcpus if name == "bench" else STAGE_VCPUS.get(name, 1)
    tmp = tempfile.mkdtemp(prefix="minhv-linux-initrd-")
    initrd = auto_initrd(a, tmp, name) if name in AUTO else a.initrd
    try:
        m = Machine(a, name if name != "bench" else "bench-n%d" % vcpus,
                    vcpus, name in STAGE_DISK, initrd)
    except Timeout as e:
        shutil.rmtree(tmp, ignore_errors=True)
        st.check(False, "the machine started", str(e))
        return False
    try:
        STAGES[name](st, m, a)
    except Timeout as e:
        st.check(False, "timed out", str(e))
        if a.target == "minhv":
            st.note("minhv's last lines: %s" % " | ".join(m.host_says()))
    finally:
        m.stop()
        shutil.rmtree(tmp, ignore_errors=True)
    rc = m.proc.returncode
    st.note("%.1f s, console log %s, transcript %s, run status %s"
            % (m.elapsed(), m.log, m.transcript, rc))
    if name == "bench":
        path = os.path.join(a.out, "bench-%s-n%d.tsv" % (a.target, vcpus))
        with open(path, "w") as f:
            for k, v, unit, how in st.figures:
                f.write("%s.linux.%s.%s.n%d\t%s\t%s\t%s\n"
                        % ("icount" if ICOUNT else "tcg", k, a.target,
                           vcpus, v, unit, how))
        st.note("figures in %s" % path)
    return st.failed == 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--target", choices=["bare", "minhv"], required=True)
    p.add_argument("--kernel", required=True)
    p.add_argument("--initrd", required=True)
    p.add_argument("--disk", required=True)
    p.add_argument("--out", default=os.path.join(TOP, "build/linux/stages"))
    p.add_argument("--timeout", type=int, default=0)
    p.add_argument("--vcpus", type=int, default=4)
    # smp's console write: 1 MiB as issue 25 says; make test writes less
    # (tests/boot/50-linux.t: the 1 MiB takes minutes under nested TCG).
    p.add_argument("--console-kib", type=int, default=1024,
                   choices=range(1, 1025), metavar="1..1024")
    p.add_argument("--efi", default=os.path.join(TOP, "build/minhv.efi"))
    p.add_argument("stages", nargs="+")
    a = p.parse_args()
    for s in a.stages:
        if s not in STAGES:
            sys.exit("linux-stages: no stage %s (%s)"
                     % (s, " ".join(STAGES)))
    if not a.timeout:
        a.timeout = 300 if a.target == "bare" else 900
    a.kernel, a.initrd, a.disk, a.efi = (os.path.abspath(x) for x in
                                         (a.kernel, a.initrd, a.disk, a.efi))
    os.makedirs(a.out, exist_ok=True)
    ok = True
    for s in a.stages:
        ok = run_stage(a, s) and ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
