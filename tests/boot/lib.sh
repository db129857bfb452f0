# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/lib.sh - a tiny TAP producer for boot tests: boot minhv under
# QEMU (run-qemu.sh), then check its exit status, KTAP block and log lines.
# Sourced by tests/boot/*.t; prove runs those.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
logdir=$top/build/boot-logs
mkdir -p "$logdir"
_n=0
_failed=0
LOG=""
RC=""

_ok() { # cond-status description [diagnostics...]
	local st=$1 desc=$2
	shift 2
	_n=$((_n + 1))
	if [ "$st" = 0 ]; then
		echo "ok $_n - $desc"
	else
		echo "not ok $_n - $desc"
		_failed=$((_failed + 1))
		# every line of a diagnostic is a TAP comment
		for d in "$@"; do printf '%s\n' "$d" | sed 's/^/# /'; done
		_log_context
	fi
}

# Once per log, at its first failure: why its guests stopped, the last
# lines the guest printed, then the log's tail (minhv's KTAP summary). A
# failure after it says only where the log is, so that CI's excerpt of
# the output keeps the first failure's context whole.
_ctx_shown=""
_log_context() {
	[ -n "$LOG" ] && [ -f "$LOG" ] || return 0
	if [ "$_ctx_shown" = "$LOG" ]; then
		echo "#   (log: $LOG, shown above)"
		return 0
	fi
	_ctx_shown=$LOG
	grep -E ' stopped: |^minhv: exit: |^not ok [0-9]+ ' "$LOG" | head -n 6 |
		awk '{ print "#   ! " $0 }'
	grep -E '^\[[A-Za-z0-9_.-]+\] ' "$LOG" | tail -n 12 |
		awk '{ print "#   > " $0 }'
	tail -n 25 "$LOG" | awk '{ print "#   | " $0 }'
}

# boot NAME [run-qemu.sh args...]: sets LOG and RC (0 pass, 1 fail, 2 error)
boot() {
	local name=$1
	shift
	LOG=$logdir/$name.log
	rm -f "$LOG"
	"$here/run-qemu.sh" --name "$name" --log "$LOG" "$@" 2>"$LOG.stderr"
	RC=$?
	[ -f "$LOG" ] || touch "$LOG"
	# Strip the firmware's terminal escapes and CRs so patterns are simple.
	sed -i 's/\x1b\[[0-9;=]*[A-Za-z]//g; s/\r//g' "$LOG"
}

# boot_bg NAME [run-qemu.sh args...]: boot() in the background, with the
# QEMU monitor on $MON; then wait_log and monitor_cmd while it runs, and
# boot_wait for LOG and RC.
BG_PID="" MON=""
boot_bg() {
	local name=$1
	shift
	LOG=$logdir/$name.log
	MON=$logdir/$name.mon
	rm -f "$LOG" "$MON"
	"$here/run-qemu.sh" --name "$name" --log "$LOG" --monitor "$MON" "$@" \
		2>"$LOG.stderr" &
	BG_PID=$!
}

boot_wait() {
	wait "$BG_PID"
	RC=$?
	BG_PID=""
	rm -f "$MON"
	[ -f "$LOG" ] || touch "$LOG"
	sed -i 's/\x1b\[[0-9;=]*[A-Za-z]//g; s/\r//g' "$LOG"
}

# wait_log extended-regex seconds: 0 once the running boot's log has a
# matching line; 1 after the time, or when QEMU has ended.
wait_log() {
	local n=0
	while [ "$n" -lt $(($2 * 5)) ]; do
		[ -f "$LOG" ] && tr -d '\r' <"$LOG" | grep -Eq -- "$1" &&
			return 0
		kill -0 "$BG_PID" 2>/dev/null || return 1
		sleep 0.2
		n=$((n + 1))
	done
	return 1
}

# monitor_cmd "HMP command": send it to the running boot's QEMU monitor;
# prints QEMU's answer, fails when the monitor cannot be reached.
monitor_cmd() {
	python3 - "$MON" "$1" <<'PY'
import socket, sys, time
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.settimeout(10)
s.connect(sys.argv[1])
def prompt():
    buf = b""
    while not buf.endswith(b"(qemu) "):
        chunk = s.recv(4096)
        if not chunk:
            break
        buf += chunk
    return buf
prompt()
s.sendall(sys.argv[2].encode() + b"\n")
out = prompt().decode(errors="replace").replace("\r", "")
lines = [l for l in out.split("\n") if l and not l.startswith("(qemu)")]
print("\n".join(lines[1:]))  # the echoed command first
PY
}

expect_rc() { # expected description
	_ok "$([ "$RC" = "$1" ] && echo 0 || echo 1)" "$2" \
		"exit status $RC, expected $1 (0 pass, 1 fail, 2 error)" \
		"$(tail -n 3 "$LOG.stderr" 2>/dev/null)"
}

expect_log() { # extended-regex description
	grep -Eq -- "$1" "$LOG"
	_ok $? "$2" "no line matching /$1/ in $LOG"
}

expect_no_log() { # extended-regex description
	! grep -Eq -- "$1" "$LOG"
	_ok $? "$2" "unexpected line matching /$1/ in $LOG"
}

# ktap_valid description: one KTAP block, plan matches the results, numbers
# run 1..N in order, the totals line agrees, and nothing is "not ok".
ktap_valid() {
	local out
	out=$(awk '
		/^KTAP version 1$/ { inb = 1; nb++; next }
		!inb { next }
		/^1\.\.[0-9]+$/ { plan = substr($0, 4) + 0; hasplan = 1; next }
		/^(not )?ok [0-9]+ / {
			n++
			num = ($1 == "not") ? $3 : $2
			if (num != n) { print "result " n " numbered " num; bad = 1 }
			if ($1 == "not") { print "FAILED: " $0; bad = 1 }
			else if ($0 ~ / # SKIP/) skip++
			else pass++
			next
		}
		/^# Totals: / {
			tot = 1
			split($0, f, /[: ]+/)
			if (f[4] != pass || f[6] != n - pass - skip || f[8] != skip) {
				print "totals line disagrees: " $0 " (pass " pass ", skip " skip ")"; bad = 1
			}
		}
		END {
			if (nb != 1) { print "expected one KTAP block, found " nb; bad = 1 }
			if (!hasplan) { print "no plan line"; bad = 1 }
			else if (plan != n) { print "plan 1.." plan " but " n " results"; bad = 1 }
			if (nb == 1 && !tot) { print "no totals line"; bad = 1 }
			if (n == 0) { print "no results"; bad = 1 }
			exit bad
		}' "$LOG")
	local st=$?
	local IFS=$'\n'
	# shellcheck disable=SC2086
	_ok $st "$1" $out
}

expect_ktap_ok() { # result-name
	grep -Eq "^ok [0-9]+ $1\$" "$LOG"
	_ok $? "KTAP $1 ok" "$(grep -E " $1( |\$)" "$LOG" | head -n 3)"
}

expect_ktap_skip() { # result-name [reason-regex]
	grep -Eq "^ok [0-9]+ $1 # SKIP .*${2:-}" "$LOG"
	_ok $? "KTAP $1 skipped${2:+ ($2)}" "$(grep -E " $1( |\$)" "$LOG" | head -n 3)"
}

expect_ktap_fail() { # result-name
	grep -Eq "^not ok [0-9]+ $1\$" "$LOG"
	_ok $? "KTAP $1 reported as failed" "$(grep -E " $1( |\$)" "$LOG" | head -n 3)"
}

# Call last: the plan goes at the end (TAP allows it), exit status = failures.
done_testing() {
	echo "1..$_n"
	[ "$_failed" = 0 ]
}
