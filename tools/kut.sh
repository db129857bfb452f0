#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/kut.sh - kvm-unit-tests on bare QEMU TCG and under minhv, side by
# side (make kut). Builds the suite (tools/kut-build.sh), then runs
# tools/kut.py: KUT_TESTS="setjmp memory ..." or arguments pick a subset.
# Exit 0 when every test that ran got the same result both ways.
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=$("$here/kut-build.sh")
rc=$?
[ -n "$out" ] && echo "$out"
[ $rc = 0 ] || exit $rc
exec python3 "$here/kut.py" ${KUT_TESTS:-} "$@"
