#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tools/linux_data.py - the known content `make linux` puts into the guest
# and checks again on the way out, made the same way every time:
#   console FILE  1 MiB of numbered 64-byte lines, the /dev/console write of
#                 stage smp (console_line() says what line i must read)
#   data DIR      a few MiB of pseudo-random files (SHA-256 in counter mode:
#                 incompressible, so the disk really carries them) and their
#                 sha256sum manifest DIR/SHA256SUMS, for the ext4 root
# tools/linux-userland.sh runs it; tools/linux_stages.py imports it.
import hashlib
import os
import sys

CONSOLE_LINES = 16384
CONSOLE_LINE_LEN = 64  # with its '\n': 16384 x 64 = 1 MiB
CONSOLE_TAG = "minhv-console"

# (path under DIR, size in bytes): odd sizes and a nested directory, so a
# short read or a wrong block in an indirect/extent mapping shows.
DATA_FILES = [
    ("a.bin", 1 << 20),
    ("b.bin", (2 << 20) + 7),
    ("dir/c.bin", 512 << 10),
    ("dir/sub/d.bin", 4097),
    ("dir/sub/e.bin", 1),
    ("empty", 0),
]


def console_line(i):
    """Line i (0-based) of the console file, without its '\\n'."""
    head = "%s %05d " % (CONSOLE_TAG, i)
    body = "".join(chr(ord("a") + (i + k) % 26)
                   for k in range(CONSOLE_LINE_LEN - 1 - len(head)))
    return head + body


def gen_console(path):
    with open(path, "w") as f:
        for i in range(CONSOLE_LINES):
            f.write(console_line(i) + "\n")


def stream(name, size):
    out, ctr = bytearray(), 0
    while len(out) < size:
        out += hashlib.sha256(b"%s:%d" % (name.encode(), ctr)).digest()
        ctr += 1
    return bytes(out[:size])


def gen_data(d):
    sums = []
    for name, size in DATA_FILES:
        p = os.path.join(d, name)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        data = stream(name, size)
        with open(p, "wb") as f:
            f.write(data)
        sums.append("%s  ./%s\n" % (hashlib.sha256(data).hexdigest(), name))
    with open(os.path.join(d, "SHA256SUMS"), "w") as f:
        f.writelines(sums)


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "console":
        gen_console(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "data":
        gen_data(sys.argv[2])
    else:
        sys.exit("usage: linux_data.py console FILE | data DIR")


if __name__ == "__main__":
    main()
