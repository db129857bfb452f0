#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-only
# tools/linux-userland.sh - the user side of `make linux`, as a Debian user
# has it: Debian's busybox-static (apt-get download, tools/apt-deb.sh) with
# its applet links, guest/linux-user/ (/init, inittab, rcS, profile, and
# /bin/lbench from lbench.c, host gcc -static), and
#   initrd  build/linux/user-initrd.cpio.gz: that userland plus the kernel
#           modules the disk needs (virtio_pci, virtio_mmio, virtio_blk,
#           ext4 and what they depend on, from the kernel's own package,
#           tools/linux-kernel.sh --deb; order and modules.dep by
#           tools/kmod-deps.py), newc cpio by tools/newc.py (no root);
#   disk    build/linux/root.img: an ext4 file system (mke2fs -d, no root,
#           no loop device) holding the same userland as the root, and
#           /data: files of known content with their SHA256SUMS
#           (tools/linux_data.py).
# Usage: linux-userland.sh initrd|disk. Prints the file's path.
# Exit status: 0 ok; 3 a package cannot be had (reason on stderr); 1 other.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
out=${LINUX_DIR:-build/linux}
what=${1:?usage: linux-userland.sh initrd|disk}
src=guest/linux-user
# Loaded by /init in this order, each after what it depends on.
MODULES="virtio_pci virtio_mmio virtio_blk ext4"
DISK_MB=32

# busybox: /bin/busybox of the package, its applets as symbolic links.
bbdeb=$(LINUX_DIR=$out tools/apt-deb.sh busybox-static) || exit $?
bb=$out/busybox
if [ ! -x "$bb/bin/busybox" ] || [ "$bbdeb" -nt "$bb/bin/busybox" ]; then
	rm -rf "$bb"
	dpkg-deb -x "$bbdeb" "$bb"
	touch "$bb/bin/busybox"
fi
# The applet list (sbin/init, bin/sh, ...) from busybox itself: it runs on
# the x86-64 build host as in the guest (a static binary).
applets=$("$bb/bin/busybox" --list-full) ||
	{ echo "linux-userland: cannot run $bb/bin/busybox --list-full" >&2; exit 1; }

mkdir -p "$out/user"
lbench=$out/user/lbench
if [ ! -x "$lbench" ] || [ "$src/lbench.c" -nt "$lbench" ]; then
	gcc -static -O2 -Wall -Wextra -Werror -o "$lbench" "$src/lbench.c" ||
		{ echo "linux-userland: cannot build a static lbench (glibc static libs?)" >&2; exit 1; }
fi
console=$out/user/console-1m.txt
if [ ! -s "$console" ] || [ tools/linux_data.py -nt "$console" ]; then
	python3 tools/linux_data.py console "$console"
fi

# common LIST: the newc list of the userland both images share.
common() {
	local d a
	for d in bin sbin usr usr/bin usr/sbin usr/share usr/share/minhv etc \
		etc/init.d dev proc sys tmp root mnt newroot lib; do
		echo "dir /$d 0755"
	done
	echo "file /bin/busybox 0755 $bb/bin/busybox"
	for a in $applets; do
		[ "$a" = bin/busybox ] || echo "slink /$a 0777 /bin/busybox"
	done
	echo "file /bin/lbench 0755 $lbench"
	echo "file /etc/inittab 0644 $src/inittab"
	echo "file /etc/init.d/rcS 0755 $src/rcS"
	echo "file /etc/profile 0644 $src/profile"
	echo "file /etc/passwd 0644 $out/user/passwd"
	echo "file /etc/group 0644 $out/user/group"
	echo "file /usr/share/minhv/console-1m.txt 0644 $console"
}
echo 'root:x:0:0:root:/root:/bin/sh' >"$out/user/passwd"
echo 'root:x:0:' >"$out/user/group"

# fresh FILE INPUT...: FILE exists and is newer than every input.
fresh() {
	local f=$1
	shift
	[ -s "$f" ] && [ -z "$(find "$@" -newer "$f" 2>/dev/null | head -n1)" ]
}
inputs=("$src" tools/linux-userland.sh tools/newc.py tools/linux_data.py
	tools/kmod-deps.py "$bb/bin/busybox" "$lbench" "$console")

case $what in
initrd)
	kdeb=$(LINUX_DIR=$out tools/linux-kernel.sh --deb 2>/dev/null) && krc=0 || krc=$?
	mods=$out/modules
	list=$out/user/initrd.list
	{
		common
		echo "file /init 0755 $src/init"
		echo "nod /dev/console 0600 c 5 1"
	} >"$list"
	if [ $krc = 0 ]; then
		if [ ! -f "$mods/stamp" ] || [ "$(cat "$mods/stamp")" != "$kdeb $MODULES" ]; then
			rm -rf "$mods"
			mkdir -p "$mods"
			# Only the directories these modules live in: the whole
			# package unpacks to 400 MB.
			dpkg-deb --fsys-tarfile "$kdeb" | tar -x -C "$mods" --wildcards \
				'./lib/modules/*/kernel/drivers/virtio/*' \
				'./lib/modules/*/kernel/drivers/block/*' \
				'./lib/modules/*/kernel/crypto/*' \
				'./lib/modules/*/kernel/arch/x86/crypto/*' \
				'./lib/modules/*/kernel/fs/ext4/*' \
				'./lib/modules/*/kernel/fs/jbd2/*' \
				'./lib/modules/*/kernel/fs/mbcache.ko' \
				'./lib/modules/*/kernel/lib/*'
			rel=$(ls "$mods/lib/modules")
			python3 tools/kmod-deps.py --dep "$mods/modules.dep" \
				"$mods/lib/modules/$rel" $MODULES >"$mods/modules.load"
			echo "$kdeb $MODULES" >"$mods/stamp"
		fi
		rel=$(ls "$mods/lib/modules")
		{
			echo "dir /lib/modules 0755"
			echo "dir /lib/modules/$rel 0755"
			echo "file /lib/modules/$rel/modules.load 0644 $mods/modules.load"
			echo "file /lib/modules/$rel/modules.dep 0644 $mods/modules.dep"
			awk -v rel="$rel" -v m="$mods" '{
				n = split($0, p, "/"); d = ""
				for (i = 1; i < n; i++) {
					d = d "/" p[i]
					if (!(d in seen)) { seen[d] = 1; print "dir /lib/modules/" rel d " 0755" }
				}
				print "file /lib/modules/" rel "/" $0 " 0644 " m "/lib/modules/" rel "/" $0
			}' "$mods/modules.load"
		} >>"$list"
	else
		echo "linux-userland: no kernel package (LINUX_IMAGE=?): no modules in the initramfs; the disk needs virtio_blk and ext4 built in" >&2
	fi
	if fresh "$out/user-initrd.cpio.gz" "${inputs[@]}" ${mods:+"$mods/stamp"}; then
		echo "$out/user-initrd.cpio.gz"
		exit 0
	fi
	python3 tools/newc.py "$list" | gzip -9n >"$out/user-initrd.cpio.gz.part"
	mv "$out/user-initrd.cpio.gz.part" "$out/user-initrd.cpio.gz"
	echo "$out/user-initrd.cpio.gz"
	;;
disk)
	PATH=$PATH:/usr/sbin:/sbin
	command -v mke2fs >/dev/null 2>&1 ||
		{ echo "linux-userland: no mke2fs (apt-get install e2fsprogs, or tools/setup.sh)" >&2; exit 1; }
	if fresh "$out/root.img" "${inputs[@]}"; then
		echo "$out/root.img"
		exit 0
	fi
	tree=$out/user/disk
	rm -rf "$tree"
	mkdir -p "$tree"
	# The newc list as a directory tree for mke2fs -d.
	common | while read -r kind name mode path; do
		case $kind in
		dir) mkdir -p "$tree$name" && chmod "$mode" "$tree$name" ;;
		file) cp "$path" "$tree$name" && chmod "$mode" "$tree$name" ;;
		slink) ln -s "$path" "$tree$name" ;;
		esac
	done
	mkdir -p "$tree/data"
	python3 tools/linux_data.py data "$tree/data"
	echo "the ext4 root of make linux (tools/linux-userland.sh)" >"$tree/etc/minhv-disk"
	rm -f "$out/root.img.part"
	mke2fs -q -F -t ext4 -L minhv-root -E root_owner=0:0 -d "$tree" \
		"$out/root.img.part" "${DISK_MB}M" >&2 ||
		{ echo "linux-userland: mke2fs -d failed (e2fsprogs older than 1.43?)" >&2; exit 1; }
	mv "$out/root.img.part" "$out/root.img"
	rm -rf "$tree"
	echo "$out/root.img"
	;;
*)
	echo "usage: linux-userland.sh initrd|disk" >&2
	exit 1
	;;
esac
