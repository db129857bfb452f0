#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tools/newc.py - write a newc ("070701") cpio archive, the format the Linux
# kernel unpacks as an initramfs (Documentation/driver-api/early-userspace/
# buffer-format.rst), from a list of entries, so device nodes need no root:
#   dir  NAME MODE
#   file NAME MODE HOSTPATH
#   nod  NAME MODE c|b MAJOR MINOR
#   slink NAME MODE TARGET        (a symbolic link to TARGET)
# Usage: newc.py LIST > archive.cpio. Owner root, mtime 0 (reproducible).
import stat
import sys


def header(ino, mode, nlink, size, rmaj, rmin, name):
    fields = [ino, mode, 0, 0, nlink, 0, size, 0, 0, rmaj, rmin,
              len(name) + 1, 0]
    return b"070701" + b"".join(b"%08X" % f for f in fields)


def pad(n):
    return b"\0" * ((4 - n % 4) % 4)


def entry(out, ino, mode, nlink, data, rmaj, rmin, name):
    h = header(ino, mode, nlink, len(data), rmaj, rmin, name)
    h += name.encode() + b"\0"
    out.write(h + pad(len(h)))
    out.write(data + pad(len(data)))


def main():
    out = sys.stdout.buffer
    ino = 1
    with open(sys.argv[1]) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            kind, name, mode = w[0], w[1].lstrip("/"), int(w[2], 8)
            if kind == "dir":
                entry(out, ino, stat.S_IFDIR | mode, 2, b"", 0, 0, name)
            elif kind == "file":
                with open(w[3], "rb") as src:
                    data = src.read()
                entry(out, ino, stat.S_IFREG | mode, 1, data, 0, 0, name)
            elif kind == "slink":
                entry(out, ino, stat.S_IFLNK | mode, 1, w[3].encode(), 0, 0,
                      name)
            elif kind == "nod":
                t = stat.S_IFCHR if w[3] == "c" else stat.S_IFBLK
                entry(out, ino, t | mode, 1, b"", int(w[4]), int(w[5]), name)
            else:
                sys.exit("newc.py: unknown entry kind '%s'" % kind)
            ino += 1
    entry(out, 0, 0, 1, b"", 0, 0, "TRAILER!!!")


main()
