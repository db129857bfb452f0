#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/apt-deb.sh - one Debian package file for `make linux`, fetched with
# `apt-get download` from the machine's own apt sources (no host named
# here, no root needed) and kept in build/linux/debs/ so a second run (or
# CI with a cached build/) fetches nothing. Usage: apt-deb.sh PACKAGE
# (an exact binary package name, e.g. busybox-static). Prints the .deb's path.
# Exit status: 0 ok; 3 the package cannot be had (reason on stderr: no apt,
# no network, unknown package); 1 any other error.
set -eu

pkg=${1:?usage: apt-deb.sh PACKAGE}
dir=${LINUX_DIR:-build/linux}/debs
unavailable() {
	echo "apt-deb: $*" >&2
	exit 3
}

mkdir -p "$dir"
# apt-get download names the file <name>_<version>_<arch>.deb (an epoch's
# colon escaped as %3a); the first one in the cache is the one used.
have=$(ls "$dir/${pkg}"_*.deb 2>/dev/null | head -n1)
if [ -n "$have" ]; then
	echo "$have"
	exit 0
fi
for c in apt-get dpkg-deb; do
	command -v "$c" >/dev/null 2>&1 || unavailable "no $c on this machine (not Debian/Ubuntu?)"
done
tmp=$(mktemp -d "$dir/dl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# apt's sandbox user cannot write into a root-owned build tree.
if ! (cd "$tmp" && apt-get -q -o APT::Sandbox::User=root download "$pkg" >&2); then
	unavailable "apt-get download $pkg failed (no network, no mirror reachable, or apt-get update needed)"
fi
deb=$(ls "$tmp"/*.deb 2>/dev/null | head -n1)
[ -n "$deb" ] || unavailable "apt-get download $pkg produced no .deb"
mv "$deb" "$dir/"
echo "$dir/${deb##*/}"
