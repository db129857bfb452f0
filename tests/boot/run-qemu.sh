#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/run-qemu.sh - boot minhv.efi under QEMU + OVMF once.
# Builds a throw-away ESP directory (fat:rw:), writes \minhv\minhv.cfg from
# --opts, captures the serial console, and exits with minhv's status:
# 0 pass, 1 fail, 2 QEMU/timeout/harness error.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
name=run smp=4 cpu="EPYC,+x2apic" mem=1024 opts="" cmdline="" timeout=120
machine="q35" extra=() log="" console=0 efi="$top/build/minhv.efi"
files=() accel=tcg image="" monitor="" sock=""

usage() {
	cat <<USAGE
usage: $0 [--name N] [--smp N] [--cpu MODEL] [--mem MiB] [--machine M]
          [--opts "k=v ..."] [--cmdline "k=v ..."] [--file SRC:ESP-PATH]
          [--timeout S] [--log FILE] [--accel tcg|kvm] [--console]
          [--serial-socket PATH] [--monitor SOCKET] [-- extra QEMU args]
  --opts     written to \\minhv\\minhv.cfg on the ESP
  --cmdline  passed as UEFI load options (through startup.nsh and the shell)
  --console  serial on this terminal (make run) instead of a log file
  --serial-socket PATH  serial on a Unix socket QEMU listens on (and still
             logged to --log): QEMU waits for a client (tools/serial_drive.py)
             before it starts the machine
  --image    boot a disk image (make image) instead of a generated ESP
  --monitor  the QEMU monitor (HMP) on this Unix socket, e.g. to inject
             "mce" and "nmi" while minhv runs (tests/boot/lib.sh monitor_cmd)
USAGE
}

while [ $# -gt 0 ]; do
	case "$1" in
	--name) name=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--cpu) cpu=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--machine) machine=$2; shift 2 ;;
	--opts) opts=$2; shift 2 ;;
	--cmdline) cmdline=$2; shift 2 ;;
	--file) files+=("$2"); shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--efi) efi=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	--console) console=1; shift ;;
	--monitor) monitor=$2; shift 2 ;;
	--serial-socket) sock=$2; shift 2 ;;
	--) shift; extra=("$@"); break ;;
	-h|--help) usage; exit 0 ;;
	*) echo "run-qemu: unknown argument '$1'" >&2; usage >&2; exit 2 ;;
	esac
done

code=""
for c in /usr/share/OVMF/OVMF_CODE_4M.fd /usr/share/OVMF/OVMF_CODE.fd; do
	[ -f "$c" ] && { code=$c; break; }
done
[ -n "$code" ] || { echo "run-qemu: no OVMF firmware found (apt-get install ovmf)" >&2; exit 2; }
vars=${code/CODE/VARS}
[ -f "$efi" ] || { echo "run-qemu: $efi not built (make all)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/minhv-$name.XXXXXX")
trap 'rm -rf "$work"' EXIT
esp=$work/esp
mkdir -p "$esp/EFI/BOOT" "$esp/minhv"
cp "$vars" "$work/vars.fd"
if [ -n "$cmdline" ]; then
	# Load options need a shell: no BOOTX64.EFI, so OVMF falls back to
	# its UEFI shell, which runs startup.nsh.
	cp "$efi" "$esp/minhv.efi"
	printf 'fs0:\r\n\\minhv.efi %s\r\n' "$cmdline" >"$esp/startup.nsh"
else
	cp "$efi" "$esp/EFI/BOOT/BOOTX64.EFI"
fi
# A guest that never ends is stopped with a reason before QEMU is killed;
# a test's own guest_time_ms= comes later and wins.
opts="guest_time_ms=100000${opts:+ $opts}"
printf '%s\n' "$opts" >"$esp/minhv/minhv.cfg"
for f in "${files[@]+"${files[@]}"}"; do
	src=${f%%:*} dst=${f#*:}
	mkdir -p "$esp/$(dirname "$dst")"
	cp "$src" "$esp/$dst"
done

args=(-machine "$machine" -accel "$accel" -cpu "$cpu" -smp "$smp" -m "$mem"
	-drive "if=pflash,format=raw,readonly=on,file=$code"
	-drive "if=pflash,format=raw,file=$work/vars.fd"
	-device isa-debug-exit,iobase=0xf4,iosize=0x04
	-display none -no-reboot -nic none)
if [ -n "$image" ]; then
	cp "$image" "$work/disk.img"
	args+=(-drive "format=raw,file=$work/disk.img")
else
	args+=(-drive "format=raw,file=fat:rw:$esp")
fi
[ -n "$log" ] || log=$work/serial.log
mon=(-monitor none)
[ -n "$monitor" ] && mon=(-monitor "unix:$monitor,server,nowait")
if [ "$console" = 1 ]; then
	args+=(-serial stdio "${mon[@]}")
elif [ -n "$sock" ]; then
	# A driver reads and types on the serial line; QEMU still logs all
	# the machine writes to it, which the pass check below reads.
	args+=(-chardev "socket,id=ser0,path=$sock,server=on,wait=on,logfile=$log,logappend=off"
		-serial chardev:ser0 "${mon[@]}")
else
	args+=(-serial "file:$log" "${mon[@]}")
fi

# TCG warns once per CPU about EPYC features it does not emulate (the same
# list for every CPU), so keep it off the terminal.
if [ "$console" = 1 ]; then
	# On the terminal and in $log: the pass check below reads the log.
	timeout --foreground -k 5 "$timeout" qemu-system-x86_64 "${args[@]}" \
		"${extra[@]+"${extra[@]}"}" </dev/null \
		2> >(grep -v "TCG doesn't support requested feature" >&2) |
		tee "$log"
	rc=${PIPESTATUS[0]}
else
	timeout --foreground -k 5 "$timeout" qemu-system-x86_64 "${args[@]}" \
		"${extra[@]+"${extra[@]}"}" </dev/null \
		2> >(grep -v "TCG doesn't support requested feature" >&2)
	rc=$?
fi
# isa-debug-exit: QEMU exits (value << 1) | 1; minhv writes 0 pass, 1 fail.
# QEMU itself also exits 1 when it dies (e.g. "Bad icount read"): a pass is
# status 1 *and* minhv's own last word, so a crash is never one.
case $rc in
1)
	if grep -q 'minhv: exit: pass' "$log"; then
		exit 0
	fi
	echo "run-qemu: $name: QEMU exited 1 without minhv's 'exit: pass' (QEMU error?)" >&2
	exit 2
	;;
3) exit 1 ;;
124|137) echo "run-qemu: $name: timed out after ${timeout}s" >&2; exit 2 ;;
*) echo "run-qemu: $name: QEMU exited with $rc" >&2; exit 2 ;;
esac
