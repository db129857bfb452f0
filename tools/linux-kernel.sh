#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/linux-kernel.sh - the Linux guest kernel for `make linux`: Debian's own
# linux-image-amd64, resolved through apt to its versioned image package,
# downloaded with `apt-get download` (the machine's own apt sources, no host
# named here) and cached as build/linux/vmlinuz. LINUX_IMAGE=<bzImage> uses
# another kernel instead. Prints the path of the kernel on stdout.
# Exit status: 0 ok; 3 the kernel cannot be had (reason on stderr; boot
# tests SKIP with it); 1 any other error.
set -eu

out=${LINUX_DIR:-build/linux}
unavailable() {
	echo "linux-kernel: $*" >&2
	exit 3
}

if [ -n "${LINUX_IMAGE:-}" ]; then
	[ -f "$LINUX_IMAGE" ] || unavailable "LINUX_IMAGE=$LINUX_IMAGE: no such file"
	echo "$LINUX_IMAGE"
	exit 0
fi
if [ -s "$out/vmlinuz" ]; then
	echo "$out/vmlinuz"
	exit 0
fi
for c in apt-cache apt-get dpkg-deb; do
	command -v "$c" >/dev/null 2>&1 || unavailable "no $c on this machine (not Debian/Ubuntu?); set LINUX_IMAGE=<bzImage>"
done

# linux-image-amd64 is a metapackage: its Depends names the image package.
pkg=$(apt-cache depends linux-image-amd64 2>/dev/null |
	awk '$1 == "Depends:" && $2 ~ /^linux-image-[0-9]/ { print $2; exit }')
[ -n "$pkg" ] || unavailable "apt knows no linux-image-amd64 (apt-get update? no Debian sources?)"
ver=$(apt-cache show "$pkg" 2>/dev/null | awk '$1 == "Version:" { print $2; exit }')
echo "linux-kernel: $pkg ${ver:-?}" >&2

mkdir -p "$out"
tmp=$(mktemp -d "$out/dl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt's sandbox user cannot write into a root-owned build tree; the
# download itself needs no root.
if ! (cd "$tmp" && apt-get -q -o APT::Sandbox::User=root download "$pkg" >&2); then
	unavailable "apt-get download $pkg failed (no network or no mirror reachable)"
fi
deb=$(ls "$tmp"/*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || unavailable "apt-get download $pkg produced no .deb"
dpkg-deb -x "$deb" "$tmp/x"
img=$(ls "$tmp"/x/boot/vmlinuz-* 2>/dev/null | head -n1)
[ -n "$img" ] || unavailable "$pkg has no boot/vmlinuz-*"
cp "$img" "$out/vmlinuz.part"
mv "$out/vmlinuz.part" "$out/vmlinuz"
echo "${pkg} ${ver:-}" >"$out/vmlinuz.version"
echo "$out/vmlinuz"
