#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/linux-kernel.sh - the Linux guest kernel for `make linux`: Debian's own
# linux-image-amd64, resolved through apt to its versioned image package,
# downloaded with `apt-get download` (tools/apt-deb.sh: the machine's own apt
# sources, no host named here; the .deb kept in build/linux/debs/) and
# cached as build/linux/vmlinuz. LINUX_IMAGE=<bzImage> uses another kernel
# instead. Prints the path of the kernel on stdout; with --deb, the path of
# the image package (its modules: tools/linux-userland.sh), which a
# LINUX_IMAGE= kernel does not have (exit 3).
# Exit status: 0 ok; 3 the kernel cannot be had (reason on stderr; boot
# tests SKIP with it); 1 any other error.
set -eu

out=${LINUX_DIR:-build/linux}
unavailable() {
	echo "linux-kernel: $*" >&2
	exit 3
}

want_deb=0
[ "${1:-}" = --deb ] && want_deb=1

if [ -n "${LINUX_IMAGE:-}" ]; then
	[ $want_deb = 0 ] || unavailable "LINUX_IMAGE=$LINUX_IMAGE: no Debian package (no modules)"
	[ -f "$LINUX_IMAGE" ] || unavailable "LINUX_IMAGE=$LINUX_IMAGE: no such file"
	echo "$LINUX_IMAGE"
	exit 0
fi
# The package named in vmlinuz.version is the one its modules must come from.
if [ -s "$out/vmlinuz" ] && [ $want_deb = 0 ]; then
	echo "$out/vmlinuz"
	exit 0
fi
if [ -s "$out/vmlinuz" ] && [ -s "$out/vmlinuz.version" ]; then
	pkg=$(awk '{ print $1; exit }' "$out/vmlinuz.version")
else
	command -v apt-cache >/dev/null 2>&1 || unavailable "no apt-cache on this machine (not Debian/Ubuntu?); set LINUX_IMAGE=<bzImage>"
	# linux-image-amd64 is a metapackage: its Depends names the image package.
	pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
		awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }')
	[ -n "$pkg" ] || unavailable "apt knows no linux-image-amd64 (apt-get update? no Debian sources?)"
fi
ver=$(apt-cache show "$pkg" 2>/dev/null | awk '$1 == "Version:" { print $2; exit }' || true)
echo "linux-kernel: $pkg ${ver:-?}" >&2

deb=$(LINUX_DIR=$out "$(dirname "$0")/apt-deb.sh" "$pkg") || exit $?
if [ $want_deb = 1 ]; then
	echo "$deb"
	exit 0
fi
tmp=$(mktemp -d "$out/x.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
dpkg-deb -x "$deb" "$tmp/x"
img=$(ls "$tmp"/x/boot/vmlinuz-* 2>/dev/null | head -n1)
[ -n "$img" ] || unavailable "$pkg has no boot/vmlinuz-*"
cp "$img" "$out/vmlinuz.part"
mv "$out/vmlinuz.part" "$out/vmlinuz"
echo "${pkg} ${ver:-}" >"$out/vmlinuz.version"
echo "$out/vmlinuz"
