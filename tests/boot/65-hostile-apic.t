#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/65-hostile-apic.t - hostile foreign guests against the virtual
# local APIC (guest/mb-hostile/apic_storm.asm): a periodic timer with an
# initial count of 1, and an endless self-IPI flood. Each must slow only
# itself: minhv's run-time limit still stops it, the hypervisor finishes with
# its own results (pool whole again) and the run says fail, never pass.
. "$(dirname "$0")/lib.sh"

for kind in timer ipi; do
	bin=$top/build/mb-hostile/apic_$kind.bin
	boot "apic-$kind" --smp 2 --file "$bin:mb/apic_$kind.bin" \
		--opts "guest=\\mb\\apic_$kind.bin guest_mem=16M guest_time_ms=3000 watchdog_ms=0"
	expect_rc 1 "$kind storm: the run ends, with the fail status"
	expect_log "^svm: guest .* exit status -1 \\(stopped by minhv\\)" \
		"$kind storm: the guest was stopped by minhv"
	expect_log "run-time limit of 3000 ms reached" \
		"$kind storm: the run-time limit stopped it"
	# Its interrupts were delivered: the handler's EOIs are MSR exits.
	expect_log '^svm: guest user exits [0-9]+: .* msr [0-9]{3,} ' \
		"$kind storm: interrupts reached the guest (hundreds of EOIs)"
	expect_ktap_fail svm.guest_run
	expect_ktap_ok svm.pool_restored
	expect_log '^minhv: exit: fail' "$kind storm: the hypervisor ended the run itself"
done
done_testing
