#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""tools/kut.py - run kvm-unit-tests x86 tests on bare QEMU (TCG) and under
minhv (tests/boot/run-qemu.sh, the .flat on the ESP as guest=), print a
side-by-side table, write build/kut/results.json and keep each minhv
console log in build/kut/logs/. Called by tools/kut.sh."""
import json, os, re, shlex, subprocess, sys, time

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KUT = os.path.join(TOP, "build", "kut")
SRC = os.path.join(KUT, "src")
LOGS = os.path.join(KUT, "logs")
DEFAULT_CPU = "EPYC,+x2apic"
DEFAULT_MEM = 128  # MiB, QEMU's default
# What minhv does not emulate: those tests are listed, not run.
NA_FILES = {"svm.flat": "nested virtualisation (SVM)",
            "svm_npt.flat": "nested virtualisation (SVM)",
            "svm_pause.flat": "nested virtualisation (SVM)",
            "vmx.flat": "nested virtualisation (VMX)"}
NA_PARAMS = [("pci-testdev", "needs pci-testdev"),
             ("-device", "needs a device minhv does not emulate")]
# The suite's x86/run gives every test QEMU's pc-testdev (data port 0xe0,
# IRQ lines at 0x2000 + n, 64 KiB at 0xff000000) next to isa-debug-exit;
# minhv's multiboot platform has the same device (hv/platform/testdev.c),
# so the bare column gets it too, as the suite runs them.
PC_TESTDEV = ["-device", "pc-testdev"]


def parse_cfg(path):
    tests, cur = [], None
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        m = re.match(r"^\[(.+)\]$", line)
        if m:
            cur = {"name": m.group(1)}
            tests.append(cur)
            continue
        if cur is not None and "=" in line:
            k, v = line.split("=", 1)
            v = v.strip()
            if len(v) >= 2 and v[0] == v[-1] and v[0] in "'\"":
                v = v[1:-1]
            cur[k.strip()] = v
    return tests


def split_params(qp):
    """-cpu, -smp, -m from qemu_params; the rest as a list."""
    args = shlex.split(qp.replace("`", ""))
    cpu, smp, mem, rest = None, 1, DEFAULT_MEM, []
    i = 0
    while i < len(args):
        a = args[i]
        nxt = args[i + 1] if i + 1 < len(args) else ""
        if a == "-cpu":
            cpu = nxt; i += 2; continue
        if a == "-smp":
            smp = int(re.match(r"(\d+)", nxt.replace("cpus=", "")).group(1))
            i += 2; continue
        if a == "-m":
            mem = int(re.match(r"(\d+)", nxt).group(1)); i += 2; continue
        rest.append(a); i += 1
    return cpu, smp, mem, rest


def na_reason(t):
    if t.get("arch", "x86_64") not in ("x86_64",):
        return "arch %s only" % t["arch"]
    if t.get("file") in NA_FILES:
        return NA_FILES[t["file"]]
    if t.get("accel") == "kvm":
        return "needs KVM"
    qp = t.get("qemu_params", "") + " " + t.get("extra_params", "")
    if re.search(r"-cpu\s+host\b", qp):
        return "needs KVM (-cpu host)"
    if "-enable-kvm" in qp:
        return "needs KVM (-enable-kvm)"
    for pat, why in NA_PARAMS:
        if pat in qp:
            return why
    return None


def verdict(result):
    """The suite's own verdict (scripts/runtime.bash): a FAIL is a FAIL
    whether or not the guest printed its summary before it ended. A guest
    minhv stopped, an ERROR or a TIMEOUT stays what it is."""
    return "FAIL" if result == "FAIL(nosummary)" else result


def result_of(status, text):
    """isa-debug-exit status (v << 1) | 1: 1 pass; 77 (what the suite's
    scripts/runtime.bash reads as skip) or (77 << 1) | 1 skip."""
    if status == 1:
        # QEMU's own errors exit 1 too (the isa-debug-exit pass value):
        # a pass needs the guest to have run.
        if not [l for l in text.splitlines()
                if l.strip() and not l.startswith("qemu-system")]:
            return "ERROR(qemu)"
        return "PASS"
    if status in (77, (77 << 1) | 1):
        return "SKIP"
    m = re.search(r"SUMMARY: .*", text)
    return "FAIL" if m else "FAIL(nosummary)"


# KUT_ICOUNT=1: both columns under -icount shift=5 (TSC = 32 x instructions,
# exact), for the vmexit_* figures in docs/PERFORMANCE.md.
ICOUNT = (["-icount", "shift=5,align=off,sleep=off"]
          if os.environ.get("KUT_ICOUNT") == "1" else [])
# KUT_BARE=0: the minhv column only (tests/boot/60-kut.t, for tests whose
# bare run cannot finish); nothing is compared, and the exit status is 0
# only when every minhv result is PASS or SKIP.
BARE = os.environ.get("KUT_BARE", "1") != "0"


def figures(text):
    """vmexit.c's "name cycles" lines: {name: TSC per operation}."""
    out = {}
    for m in re.finditer(r"^(?:\[\S+\] )?([a-z][a-z0-9_]*) (\d+)\s*$", text,
                         re.M):
        out[m.group(1)] = int(m.group(2))
    return out


def run_bare(t, cpu, smp, mem, rest, tmo):
    cmd = ["timeout", "-k", "5", str(tmo), "qemu-system-x86_64",
           "-nodefaults", "-display", "none", "-serial", "stdio",
           "-no-reboot", "-accel", "tcg", "-cpu", cpu or DEFAULT_CPU,
           "-smp", str(smp), "-m", str(mem),
           "-device", "isa-debug-exit,iobase=0xf4,iosize=0x4"] + PC_TESTDEV + [
           "-kernel", os.path.join(SRC, "x86", t["file"]),
           "-append", t.get("test_args", "")] + rest + ICOUNT
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    text = p.stdout.decode(errors="replace")
    with open(os.path.join(LOGS, t["name"] + ".bare.log"), "w") as f:
        f.write(text)
    if p.returncode in (124, 137):
        return "TIMEOUT", text
    return result_of(p.returncode, text), text


def run_minhv(t, cpu, smp, mem, tmo):
    log = os.path.join(LOGS, t["name"] + ".minhv.log")
    flat = t["file"]
    # minhv needs SVM and NPT from the outer CPU model.
    ocpu = (cpu or DEFAULT_CPU) + ",+svm,+npt"
    args = t.get("test_args", "").replace('"', "")
    # No run-time limit of minhv's own (run-qemu.sh sets one for the boot
    # tests): the cfg's timeout decides, as on bare QEMU.
    opts = ('guest=\\kut\\%s cmdline="%s" guest_mem=%dM pool=%dM '
            'watchdog_ms=0 guest_time_ms=0 vcpus=%d' %
            (flat, args, mem, mem + 64, smp))
    cmd = [os.path.join(TOP, "tests", "boot", "run-qemu.sh"),
           "--name", "kut-" + t["name"], "--smp", str(smp), "--cpu", ocpu,
           "--mem", str(mem + 512), "--timeout", str(tmo + 60),
           "--log", log, "--opts", opts,
           "--file", "%s:kut/%s" % (os.path.join(SRC, "x86", flat), flat)]
    if ICOUNT:
        cmd += ["--"] + ICOUNT
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       stdin=subprocess.DEVNULL)
    err = p.stdout.decode(errors="replace")
    text = open(log, errors="replace").read() if os.path.exists(log) else ""
    if "timed out" in err:
        return "TIMEOUT", text
    m = re.search(r"^svm: guest \S+: exit status (-?\d+)( \(stopped by minhv\))?",
                  text, re.M)
    if not m:
        return "ERROR(no guest)", text
    if m.group(2):
        return "FAIL(minhv stop)", text
    guest = "\n".join(l for l in text.splitlines() if l.startswith("["))
    return result_of(int(m.group(1)), guest), text


def main():
    want = [a for a in sys.argv[1:] if a]
    os.makedirs(LOGS, exist_ok=True)
    tests = parse_cfg(os.path.join(SRC, "x86", "unittests.cfg"))
    if want:
        unknown = set(want) - {t["name"] for t in tests}
        if unknown:
            print("kut: unknown tests: " + " ".join(sorted(unknown)))
            return 2
        tests = [t for t in tests if t["name"] in want]
    results, same = [], True
    counts = {"same": 0, "differ": 0, "timeout": 0, "n/a": 0,
              "minhv only": 0}
    print("%-24s %-16s %-16s %7s  %s" % ("test", "bare QEMU", "minhv",
                                        "time", "note"))
    for t in tests:
        why = na_reason(t)
        row = {"test": t["name"], "file": t.get("file"),
               "args": t.get("test_args", "")}
        if why:
            row.update(bare="n/a", minhv="n/a", reason=why, seconds=0)
            print("%-24s %-16s %-16s %7s  %s" % (t["name"], "n/a", "n/a",
                                                "", why))
            results.append(row)
            counts["n/a"] += 1
            continue
        cpu, smp, mem, rest = split_params(t.get("qemu_params", "") + " " +
                                           t.get("extra_params", ""))
        if "smp" in t:  # the cfg's own smp = N key
            smp = int(re.match(r"(\d+)", t["smp"]).group(1))
        tmo = int(re.match(r"(\d+)", t.get("timeout", "90")).group(1))
        t0 = time.time()
        if BARE:
            bare, btext = run_bare(t, cpu, smp, mem, rest, tmo)
        else:
            bare, btext = "not run", ""
        t1 = time.time()
        mh, mtext = run_minhv(t, cpu, smp, mem, tmo)
        t2 = time.time()
        note = ""
        if bare == "TIMEOUT":
            # Bare QEMU did not finish: nothing to compare with, never
            # counted as same (whatever minhv did).
            note = ("timeout both ways" if mh == "TIMEOUT" else
                    "bare QEMU timed out")
        elif verdict(bare) != verdict(mh) and BARE:
            same = False
            note = "DIFFERS"
        elif not BARE and mh not in ("PASS", "SKIP"):
            same = False  # nothing to compare with: only a pass passes
        row.update(bare=bare, minhv=mh, same=BARE and not note,
                   bare_s=round(t1 - t0, 1),
                   minhv_s=round(t2 - t1, 1), smp=smp, note=note)
        if t["name"].startswith("vmexit"):
            row.update(bare_tsc=figures(btext), minhv_tsc=figures(mtext),
                       icount=bool(ICOUNT))
        print("%-24s %-16s %-16s %6.0fs  %s" % (t["name"], bare, mh,
                                               t2 - t0, note), flush=True)
        results.append(row)
        counts["differ" if note == "DIFFERS" else
               "timeout" if note else
               "same" if BARE else "minhv only"] += 1
    rows = [r for r in results if r.get("bare_tsc") or r.get("minhv_tsc")]
    if rows:
        div = 32 if ICOUNT else 1
        print("\nvmexit figures (%s per operation)" %
              ("instructions, -icount shift=5" if ICOUNT else "TSC cycles"))
        for r in rows:
            for k in sorted(set(r["bare_tsc"]) | set(r["minhv_tsc"])):
                b, m = r["bare_tsc"].get(k), r["minhv_tsc"].get(k)
                print("  %-20s %-20s bare %8s  minhv %8s" % (
                    r["test"], k, "-" if b is None else b // div,
                    "-" if m is None else m // div))
    with open(os.path.join(KUT, "results.json"), "w") as f:
        json.dump(results, f, indent=1)
    print("kut: %d tests: %d same, %d differ, %d where bare QEMU timed out,"
          " %d n/a%s" % (len(results), counts["same"], counts["differ"],
                         counts["timeout"], counts["n/a"],
                         ", %d run under minhv only" % counts["minhv only"]
                         if counts["minhv only"] else ""))
    print("kut: results in build/kut/results.json, logs in build/kut/logs/")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
