#!/usr/bin/env bash
# tests/boot/50-linux.t - Debian's own kernel (tools/linux-kernel.sh) boots
# as a minhv guest to /init (guest/linux-init) on one vCPU under TCG and
# ends through isa-debug-exit with status 1 (/init's checks passed). SKIP,
# with the reason, when no kernel can be had (no apt, no network).
. "$(dirname "$0")/lib.sh"
cd "$top" || exit 1

reason=$(tools/linux-kernel.sh 2>&1 >/dev/null)
krc=$?
if [ $krc = 3 ]; then
	echo "1..0 # SKIP no Linux kernel: $(printf '%s' "$reason" | tail -n1)"
	exit 0
fi
out=$(tools/linux-run.sh 2>&1)
rc=$?
LOG=build/linux/console.log
_ok "$([ $rc = 0 ] && echo 0 || echo 1)" "make linux passes" \
	"tools/linux-run.sh exited $rc" "$(printf '%s' "$out" | grep -E 'FAIL|error' | head -n 8)"
expect_log 'Run /init as init process' "the kernel ran /init"
expect_log 'minhv-init: hello from /init' "/init printed its marker"
expect_log 'minhv-init: cpus: sysconf\(_SC_NPROCESSORS_ONLN\) 1, /proc/cpuinfo 1' "Linux sees one CPU"
expect_log '^guest user stopped: isa-debug-exit: value 0, exit status 1' "/init ended the guest through port 0xf4 with value 0"
expect_log '^ok [0-9]+ linux.exit_status$' "minhv reports the exit status as a pass"
expect_no_log 'unchecked MSR access error' "no unchecked MSR access in Linux"
expect_no_log '(Kernel panic|Oops|BUG:)' "no kernel panic, oops or BUG"
done_testing
