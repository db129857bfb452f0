#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/setup.sh - install what minhv needs to build and boot (Debian/Ubuntu, apt);
# tools/setup.sh --bench adds what `make bench` needs (gnuplot).
# Derives the backports mirror from the machine's own apt sources; never names a host.
set -eu

need_cmds="gcc make nasm objcopy mcopy mformat sgdisk prove qemu-system-x86_64 python3 gzip clang-format"
pkgs="build-essential gnu-efi nasm ovmf mtools dosfstools gdisk libcmocka-dev perl python3 gzip e2fsprogs clang-format"
# --bench (make bench): also gnuplot, for tools/bench.sh's PNG plots.
if [ "${1:-}" = --bench ]; then
	need_cmds="$need_cmds gnuplot"
	pkgs="$pkgs gnuplot-nox"
fi

# QEMU's TCG gained x2APIC in 9.x; Debian 12's own 7.2 lacks it.
qemu_ok() {
	command -v qemu-system-x86_64 >/dev/null 2>&1 || return 1
	v=$(qemu-system-x86_64 --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p' | head -n1)
	[ -n "$v" ] && [ "$v" -ge 9 ]
}

have_all() {
	for c in $need_cmds; do command -v "$c" >/dev/null 2>&1 || return 1; done
	[ -f /usr/include/efi/efi.h ] || return 1
	[ -f /usr/include/cmocka.h ] || return 1
	# make linux builds its /init with gcc -static (glibc's libc.a) and
	# its ext4 disk with mke2fs -d (in sbin, which a user's PATH may lack).
	[ -f "$(gcc -print-file-name=libc.a)" ] || return 1
	PATH="$PATH:/usr/sbin:/sbin" command -v mke2fs >/dev/null 2>&1 || return 1
	ls /usr/share/OVMF/OVMF_CODE*.fd >/dev/null 2>&1 || return 1
	qemu_ok
}

have_all && exit 0

manual() {
	echo "minhv setup: $1" >&2
	echo "Install by hand: $pkgs and a qemu-system-x86 >= 9.0 (TCG x2APIC)," >&2
	echo "e.g. on Debian 12 from bookworm-backports: apt-get install -t bookworm-backports qemu-system-x86" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || manual "not root; cannot install packages"
command -v apt-get >/dev/null 2>&1 || manual "no apt-get on this machine"
. /etc/os-release
codename=${VERSION_CODENAME:-}
[ -n "$codename" ] || manual "cannot tell the distribution codename from /etc/os-release"

# The URI that serves "$codename" in the existing sources, one-line or deb822.
mirror_uri() {
	{
		cat /etc/apt/sources.list 2>/dev/null
		cat /etc/apt/sources.list.d/*.list 2>/dev/null
	} | awk -v c="$codename" '$1 == "deb" {
		i = 2; if ($2 ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
		if ($(i + 1) == c) { print $i; exit }
	}'
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk -v c="$codename" '
		function flush() { if (ok && uri != "") { print uri; found = 1 } ok = 0; uri = "" }
		/^[ \t]*$/ { flush(); next }
		tolower($1) == "uris:" { uri = $2 }
		tolower($1) == "suites:" { for (i = 2; i <= NF; i++) if ($i == c) ok = 1 }
		END { flush() }' "$f"
	done
}

backports_configured() {
	grep -rqsE "(^|[[:space:]])${codename}-backports([[:space:]]|$)" /etc/apt/sources.list /etc/apt/sources.list.d/
}

export DEBIAN_FRONTEND=noninteractive
apt_opts="-y -q -o Dpkg::Use-Pty=0"

if ! backports_configured; then
	uri=$(mirror_uri | head -n1)
	[ -n "$uri" ] || manual "no apt source for '$codename' found to derive a backports mirror from"
	echo "minhv setup: adding ${codename}-backports from $uri"
	echo "deb $uri ${codename}-backports main" >/etc/apt/sources.list.d/minhv-backports.list
fi
apt-get update -q
# shellcheck disable=SC2086
apt-get install $apt_opts --no-install-recommends $pkgs
qemu_ok || apt-get install $apt_opts --no-install-recommends -t "${codename}-backports" qemu-system-x86 ||
	apt-get install $apt_opts --no-install-recommends qemu-system-x86
qemu_ok || manual "qemu-system-x86_64 >= 9.0 is still missing after install"
have_all || manual "some tools are still missing after install"
echo "minhv setup: ready ($(qemu-system-x86_64 --version | head -n1))"
