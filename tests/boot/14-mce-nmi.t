#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/14-mce-nmi.t - machine checks and NMIs injected through the
# QEMU monitor (HMP "mce CPU BANK STATUS MCGSTATUS ADDR MISC" and "nmi"),
# as a BMC or failing hardware would deliver them. QEMU's "nmi" arrives
# through LINT1, which only CPU 0 leaves unmasked. The guest is
# guest/mb-hostile/mce_spin.asm, one vCPU spinning on CPU 0; CPU 1 stays
# parked in host mode.
# - An NMI in host mode (CPU 0 early in the boot, before the IPI layer)
#   and one while the guest runs (an NMI exit): counted and logged, never
#   fatal.
# - A #MC on CPU 1 in host mode, twice: logged, its bank and MCIP cleared
#   (with MCIP left set the second one would reset the machine, in QEMU as
#   on a CPU), and minhv carries on (RIPV).
# - A #MC on CPU 0 while the guest runs: TCG delivers it into the guest
#   (it checks no #MC intercept there), which has no IDT: a triple fault,
#   a SHUTDOWN exit with MCIP set, which real hardware also gives for a
#   guest with CR4.MCE clear. That guest stops with a machine-check
#   reason; the run goes on to its summary and fails on exactly those.
# - A #MC without RIPV in host mode: the run stops with a clear message.
. "$(dirname "$0")/lib.sh"

UC="0xb000000000000000" # MCi_STATUS: VAL UC EN
bin=$top/build/mb-hostile/mce_spin.bin
# No limit, watchdog or console rate: nothing ticks, so the spinning vCPU
# never leaves guest mode by itself and the injections find it there (a
# guest the #MC misses runs into the QEMU timeout instead).
spin=(--smp 2 --timeout 90 --file "$bin:mb/mce_spin.bin" --opts
	"guest=\\mb\\mce_spin.bin guest_mem=16M guest_time_ms=0 watchdog_ms=0 guest_console_rate=0")
t0=$SECONDS

# Only these results failed; every other one is ok.
only_failures() { # result-name...
	local bad
	bad=$(grep -E '^not ok [0-9]+ ' "$LOG" | awk '{ print $4 }' |
		grep -vxF -f <(printf '%s\n' "$@"))
	_ok "$([ -z "$bad" ] && echo 0 || echo 1)" \
		"nothing else failed (only: $*)" "also failed: $bad"
}

boot_bg mce-nmi "${spin[@]}"
wait_log '^mce: CR4.MCE on' 120
_ok $? "minhv took over; its #MC and NMI handlers are in place"
monitor_cmd "nmi" >/dev/null # CPU 0, host mode, early in the boot
wait_log 'unexpected NMI 1 on CPU 0' 20
_ok $? "host: an NMI is logged"
wait_log 'mce_spin: CR4.MCE on, spinning' 120
_ok $? "the guest spins on CPU 0"
monitor_cmd "mce 1 1 $UC 0x5 0x1000 0" >/dev/null
wait_log '^error: mce: CPU 1 bank 1: ' 20
_ok $? "host: a #MC on parked CPU 1 is logged with its bank"
monitor_cmd "mce 1 2 $UC 0x5 0 0" >/dev/null
wait_log '^error: mce: CPU 1 bank 2: ' 20
_ok $? "host: a second #MC on CPU 1 is taken too (MCIP was cleared)"
monitor_cmd "nmi" >/dev/null # CPU 0, guest mode
wait_log 'unexpected NMI 2 on CPU 0' 20
_ok $? "guest: an NMI while the guest runs is logged"
monitor_cmd "mce 0 3 $UC 0x5 0 0" >/dev/null
boot_wait
expect_rc 1 "the run ends by itself, with the fail status"
expect_log '^warning: nmi: unexpected NMI 1 on CPU 0 at minhv.efi\+0x[0-9a-f]+, port 61h (0|0x[0-9a-f]+) \(unknown source\): counted, not fatal' \
	"host: the NMI is logged with the port 61h reason, not fatal"
expect_log '^error: mce: CPU 1: machine check in host mode at RIP 0x[0-9a-f]+: MCG_STATUS 0x5, 1 banks' \
	"host: MCG_STATUS logged (RIPV MCIP)"
expect_log '^error: mce: CPU 1 bank 1: STATUS 0xb000000000000000 ADDR 0 MISC 0' \
	"host: MCi_STATUS logged (ADDR only with ADDRV)"
expect_log 'mce: CPU 1: cleared; RIPV set: carrying on' "host: minhv carried on"
# (TCG may take an NMI exit twice for one NMI: at least one.)
expect_log '^svm: guest user exits [0-9]+: .* nmi [1-9][0-9]* shutdown 1 ' \
	"guest: the NMI was an NMI exit, the #MC a SHUTDOWN exit"
expect_log '^error: mce: CPU 0: machine check while vCPU 0 ran \(SHUTDOWN with MCIP' \
	"guest: the machine check is logged as the guest's"
expect_log '^error: mce: CPU 0 bank 3: STATUS 0xb000000000000000' \
	"guest: with its bank"
expect_log '^error: guest user stopped: vCPU 0: machine check \(SHUTDOWN' \
	"guest: that guest is stopped with a machine-check reason"
expect_log '^ras: machine checks: 2 in host mode, 1 in guests; unexpected NMIs: 2' \
	"the summary counts the #MCs and the NMIs"
expect_ktap_fail svm.guest_run
expect_ktap_fail ras.machine_check
expect_ktap_ok svm.pool_restored
only_failures svm.guest_run multiboot.exit_status ras.machine_check
expect_log '^minhv: exit: fail' "minhv ended the run itself"

boot_bg mce-noripv "${spin[@]}"
wait_log 'mce_spin: CR4.MCE on, spinning' 120
_ok $? "no RIPV: the guest runs, CPU 1 is parked"
monitor_cmd "mce 1 0 $UC 0x4 0 0" >/dev/null
boot_wait
expect_rc 1 "no RIPV: the run stops with the fail status"
expect_log '^error: mce: CPU 1 bank 0: STATUS 0xb000000000000000' \
	"no RIPV: the bank is logged first"
expect_log 'fatal trap on CPU 1 .*\(#MC without RIPV: cannot continue\)' \
	"no RIPV: the message says why"

echo "# 14-mce-nmi.t: $((SECONDS - t0)) s"
done_testing
