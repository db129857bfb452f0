#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/kut-build.sh - build the pinned kvm-unit-tests (x86_64) into
# build/kut/src. Source: KUT_SRC (a directory or a tarball), else the
# tarball in shared/ beside the clone, else a git clone of upstream at the
# pinned commit. Exit 0 when build/kut/src/x86/*.flat exist; exit 3 with
# one line "kut: no source: ..." when there is no source to build from.
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/.." && pwd)
pin=1da1819e
out=$top/build/kut
src=$out/src
tarball=$(dirname "$top")/shared/kvm-unit-tests-$pin.tar.gz
mkdir -p "$out"

if [ -f "$src/.built" ] && ls "$src"/x86/*.flat >/dev/null 2>&1; then
	exit 0
fi
rm -rf "$src"
from=${KUT_SRC:-}
if [ -z "$from" ] && [ -f "$tarball" ]; then
	from=$tarball
fi
if [ -n "$from" ] && [ -d "$from" ]; then
	cp -a "$from" "$src" || exit 2
elif [ -n "$from" ] && [ -f "$from" ]; then
	mkdir -p "$src"
	tar -xzf "$from" -C "$src" --strip-components=1 || exit 2
elif [ -n "$from" ]; then
	echo "kut: no source: KUT_SRC=$from does not exist"
	exit 3
elif command -v git >/dev/null &&
	git clone -q https://gitlab.com/kvm-unit-tests/kvm-unit-tests.git "$src" 2>/dev/null &&
	git -C "$src" checkout -q "$pin" 2>/dev/null; then
	:
else
	rm -rf "$src"
	echo "kut: no source: no KUT_SRC, no $tarball, and git clone of upstream failed"
	exit 3
fi
cd "$src" || exit 2
echo "kut: building kvm-unit-tests $pin (x86_64) from ${from:-upstream git}"
if ! { ./configure --arch=x86_64 >"$out/build.log" 2>&1 &&
	make -j2 >>"$out/build.log" 2>&1; }; then
	echo "kut: build failed; see $out/build.log"
	tail -n 20 "$out/build.log"
	exit 2
fi
touch .built
