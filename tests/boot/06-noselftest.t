#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tests/boot/06-noselftest.t - `make SELFTEST=0`: minhv built without the
# in-hypervisor self-tests (hv/selftest/ table empty) still boots, runs the
# guest and passes; none of the self-tests' KTAP results appear.
. "$(dirname "$0")/lib.sh"

nsb=build/noselftest
make -s -C "$top" -j2 SELFTEST=0 B=$nsb all >"$logdir/noselftest-build.log" 2>&1
_ok $? "make SELFTEST=0 B=$nsb all builds" \
	"$(tail -n 5 "$logdir/noselftest-build.log")"
nm "$top/$nsb/minhv.so" 2>/dev/null | grep -Eq ' selftest_run$'
_ok $? "the SELFTEST=0 image still has the (empty) stage runner"
! nm "$top/$nsb/minhv.so" 2>/dev/null |
	grep -Eq ' (smp_ktap|mtrr_ktap|park_boot_checks|svm_suite_run|snp_boot_scenario)$'
_ok $? "no self-test is linked into the SELFTEST=0 image"

boot noselftest-smp2 --smp 2 --efi "$top/$nsb/minhv.efi"
expect_rc 0 "SELFTEST=0, smp 2: run passes"
expect_ktap_ok boot.handoff
expect_ktap_ok svm.enable
expect_ktap_ok svm.guest_create
expect_ktap_ok svm.guest_run
expect_ktap_ok svm.guest_reported
expect_ktap_ok svm.pool_restored
expect_log '^guest [a-z]+ stopped: exited with status 0' "the guest ended through HC_EXIT"
expect_no_log '^(not )?ok [0-9]+ ((smp|mtrr|park|hostile|snp)\.|lifecycle)' \
	"no self-test result in the KTAP block"
ktap_valid "SELFTEST=0: KTAP block well formed, all ok"

done_testing
