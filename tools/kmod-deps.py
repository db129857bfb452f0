#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tools/kmod-deps.py - the kernel modules an initramfs needs, with their
# dependencies, from a Debian linux-image package's lib/modules/<version>/
# (which ships no modules.dep: depmod makes it at install time). Reads each
# module's .modinfo section (depends=, softdep= "pre:", alias=) from the ELF
# file itself, so no kmod is needed on the host.
# Usage: kmod-deps.py MODDIR NAME...   (NAME as in lsmod: virtio_blk)
# Prints one module path (relative to MODDIR) a line, dependencies before
# the modules that need them: the order to insmod them in. With
# --dep FILE also writes FILE in modules.dep format (path: deps...) for
# those modules, so `modprobe` in the guest finds them too.
import os
import struct
import sys


def modinfo(path):
    """The key=value strings of an ELF64 module's .modinfo section."""
    with open(path, "rb") as f:
        d = f.read()
    if d[:4] != b"\x7fELF" or d[4] != 2:
        sys.exit("kmod-deps: %s: not an ELF64 file" % path)
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3A)

    def sec(i):
        # sh_name, sh_type, sh_flags, sh_addr, sh_offset, sh_size
        return struct.unpack_from("<IIQQQQ", d, shoff + i * shentsize)

    stroff = sec(shstrndx)[4]
    for i in range(shnum):
        name, _, _, _, off, size = sec(i)
        end = d.index(b"\0", stroff + name)
        if d[stroff + name:end] == b".modinfo":
            return [s.decode(errors="replace")
                    for s in d[off:off + size].split(b"\0") if s]
    return []


def index(moddir):
    """name -> path, and alias -> [names], for every .ko under MODDIR."""
    paths, aliases = {}, {}
    for root, _, files in os.walk(moddir):
        for fn in sorted(files):
            if not fn.endswith(".ko"):
                continue
            rel = os.path.relpath(os.path.join(root, fn), moddir)
            # lsmod names use _ where file names may use -.
            paths[fn[:-3].replace("-", "_")] = rel
    return paths, aliases


def main():
    args = sys.argv[1:]
    depfile = None
    if len(args) >= 2 and args[0] == "--dep":
        depfile, args = args[1], args[2:]
    if len(args) < 2:
        sys.exit("usage: kmod-deps.py [--dep FILE] MODDIR NAME...")
    moddir, wanted = args[0], args[1:]
    paths, _ = index(moddir)
    info = {}

    def get(name):
        if name not in info:
            if name not in paths:
                sys.exit("kmod-deps: no module %s under %s" % (name, moddir))
            info[name] = modinfo(os.path.join(moddir, paths[name]))
        return info[name]

    def field(name, key):
        return [s.split("=", 1)[1] for s in get(name)
                if s.startswith(key + "=")]

    alias_of = None

    def providers(alias):
        # A softdep names an alias (crypto-crc32c): every module that
        # declares it (crc32c_generic, crc32c_intel), all loaded, the init
        # tolerating one that the CPU cannot run.
        nonlocal alias_of
        if alias_of is None:
            alias_of = {}
            for n in paths:
                for a in field(n, "alias"):
                    alias_of.setdefault(a, []).append(n)
        if alias in paths:
            return [alias]
        return sorted(alias_of.get(alias, []))

    order, state, deps = [], {}, {}

    def visit(name, chain):
        if state.get(name) == "done":
            return
        if state.get(name) == "open":
            sys.exit("kmod-deps: dependency cycle: %s" % " -> ".join(chain))
        state[name] = "open"
        hard = [d for s in field(name, "depends") for d in s.split(",") if d]
        soft = []
        for s in field(name, "softdep"):
            w = s.split()
            if w and w[0] == "pre:":
                for a in w[1:]:
                    soft += providers(a)
        deps[name] = hard
        for d in soft + hard:
            visit(d, chain + [d])
        state[name] = "done"
        order.append(name)

    for n in wanted:
        visit(n.replace("-", "_"), [n])
    for n in order:
        print(paths[n])
    if depfile:
        with open(depfile, "w") as f:
            for n in order:
                # modules.dep lists every module needed, nearest first.
                closure, seen = [], set()

                def walk(m):
                    for d in deps[m]:
                        if d not in seen:
                            seen.add(d)
                            closure.append(d)
                            walk(d)

                walk(n)
                f.write("%s:%s\n" % (paths[n], "".join(
                    " " + paths[d] for d in closure)))


main()
