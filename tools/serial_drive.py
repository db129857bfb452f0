#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
# tools/serial_drive.py - drive a guest's serial console as a person at a
# terminal does: wait for text, type a command, read its output and exit
# status, all with timeouts and a transcript. The same script drives bare
# QEMU (the guest's ttyS0 is QEMU's serial) and minhv (the guest's ttyS0 is
# minhv's emulated 16550, whose bytes minhv prints on its own console, QEMU's
# serial, a line at a time as "[<guest name>] text"; what is typed on QEMU's
# serial goes through minhv to the guest's receiver): with prefix= set, only
# lines carrying "[prefix] " are guest text (prefix removed), every other
# line is minhv's own (kept in .host_lines, and in the transcript).
#
# QEMU side: -chardev socket,id=ser0,path=SOCK,server=on,wait=on,logfile=LOG
# -serial chardev:ser0 (tests/boot/run-qemu.sh --serial-socket SOCK):
# QEMU waits for this driver before it starts the machine, and still writes
# every byte to LOG itself.
#
# API (tiny, expect-like):
#   s = Serial(sock_path, transcript=path, prefix=None or "user")
#   m = s.expect(regex, timeout)        -> re.Match (raises Timeout)
#   s.send(text); s.sendline(text)
#   out, status = s.run(cmd, timeout)   the command's output and $?
#   s.sync(timeout)                      the shell answers (typed echo)
#   s.close()
# Every wait is bounded; Timeout carries the last guest text seen.
# Command line: serial_drive.py SOCK [--prefix NAME] connects and copies
# stdin lines to the guest and guest text to stdout (by hand).
import os
import re
import socket
import sys
import threading
import time

# Terminal controls the shell's line editing sends (ESC[6n asks for the
# cursor position), as bare QEMU passes them; minhv shows ESC as '?'.
CSI = re.compile(r"(\x1b|\?)\[[0-9;]*[A-Za-z]")


class Timeout(Exception):
    pass


class Serial:
    def __init__(self, path, transcript=None, prefix=None,
                 connect_timeout=60.0, char_delay=0.0, alive=None):
        """Connect to QEMU's serial socket at path. alive(): False once the
        machine is gone (stops waits early)."""
        self.prefix = "[%s] " % prefix if prefix else None
        self.char_delay = char_delay
        self.alive = alive or (lambda: True)
        self.text = ""  # guest text, CRs and terminal controls removed
        self.pos = 0  # where the next expect() starts looking
        self.host_lines = []
        self.raw = bytearray()
        self.eof = False
        self._pending = ""  # an unfinished line (prefix mode)
        self._esc = ""  # an unfinished control sequence
        self._cv = threading.Condition()
        self._n = 0
        self._log = open(transcript, "w", buffering=1) if transcript else None
        self.t0 = time.monotonic()
        self.sock = self._connect(path, connect_timeout)
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _connect(self, path, timeout):
        end = time.monotonic() + timeout
        while True:
            s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                s.connect(path)
                return s
            except OSError:
                s.close()
                if time.monotonic() > end or not self.alive():
                    raise Timeout("no serial socket at %s after %.0f s"
                                  % (path, timeout))
                time.sleep(0.05)

    def note(self, what):
        """A line of the driver's own in the transcript."""
        if self._log:
            self._log.write("%9.3f ## %s\n" % (time.monotonic() - self.t0,
                                               what))

    def _add(self, guest):
        # A control sequence cut in two by the chunking waits for its end.
        guest = self._esc + guest
        i = guest.rfind("\x1b")
        self._esc = ""
        if i >= 0 and not re.match(r"\x1b\[[0-9;]*[A-Za-z]", guest[i:]) \
                and len(guest) - i < 16:
            guest, self._esc = guest[:i], guest[i:]
        guest = CSI.sub("", guest.replace("\r", ""))
        self.text += guest
        if self._log and guest:
            self._log.write(guest)

    def _read(self):
        while True:
            try:
                b = self.sock.recv(65536)
            except OSError:
                b = b""
            with self._cv:
                if not b:
                    self.eof = True
                    if self._pending and not self.prefix:
                        self._add(self._pending)
                    self._cv.notify_all()
                    return
                self.raw += b
                s = b.decode("latin-1")
                if not self.prefix:
                    self._add(s)
                else:
                    s = self._pending + s
                    lines = s.split("\n")
                    self._pending = lines.pop()
                    for line in lines:
                        line = line.rstrip("\r")
                        if line.startswith(self.prefix):
                            self._add(line[len(self.prefix):] + "\n")
                        else:
                            self.host_lines.append(line)
                            if self._log:
                                self._log.write("[host] %s\n" % line)
                self._cv.notify_all()

    def expect(self, pattern, timeout, what=None):
        """The first match of pattern (a regex, re.M) in guest text after the
        previous match; the position moves past it."""
        rx = re.compile(pattern, re.M)
        end = time.monotonic() + timeout
        start = self.pos
        with self._cv:
            while True:
                # Only the new text and a margin are searched again (a
                # match is assumed shorter than 4 KiB): 1 MiB of output
                # arrives in thousands of pieces.
                m = rx.search(self.text, start)
                start = max(self.pos, len(self.text) - 4096)
                if m:
                    self.pos = m.end()
                    self.match_time = time.monotonic()
                    return m
                left = end - time.monotonic()
                if left <= 0 or self.eof or not self.alive():
                    why = ("the machine ended" if self.eof or
                           not self.alive() else "%.0f s" % timeout)
                    tail = self.text[max(self.pos, len(self.text) - 600):]
                    raise Timeout("waiting for %s: %s; last guest text: %r"
                                  % (what or "/%s/" % pattern, why, tail))
                self._cv.wait(min(left, 0.5))

    def send(self, text):
        if self._log:
            self._log.write("\n%9.3f >> %r\n" % (time.monotonic() - self.t0,
                                                 text))
        data = text.encode("latin-1")
        if not self.char_delay:
            self.sock.sendall(data)
            return
        for i in range(len(data)):
            self.sock.sendall(data[i:i + 1])
            time.sleep(self.char_delay)

    def sendline(self, text):
        self.send(text + "\n")

    def run(self, cmd, timeout=30.0):
        """Type cmd (one shell line); return (its output, its exit status).
        Output is framed by two markers the shell prints: the typed line
        holds them quoted apart ("@@""S1@@"), so its echo never matches,
        whatever the line editor does to the echo."""
        with self._cv:
            self._n += 1
            n = self._n
        self.sendline('echo "@@""S%d@@"; %s; echo "@@""E%d:$?@@"'
                      % (n, cmd, n))
        self.expect(r"^@@S%d@@\n" % n, timeout, "the shell to start `%s`"
                    % cmd)
        start = self.pos
        m = self.expect(r"@@E%d:(\d+)@@" % n, timeout,
                        "the end of `%s`" % cmd)
        return self.text[start:m.start()], int(m.group(1))

    def sync(self, timeout=30.0):
        """The shell reads and answers: the first command after boot."""
        out, st = self.run("true", timeout)
        return st == 0

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass
        self._reader.join(2)
        if self._log:
            self._log.close()
            self._log = None


def main():
    args = sys.argv[1:]
    if not args or args[0].startswith("-"):
        sys.exit("usage: serial_drive.py SOCK [--prefix NAME]")
    prefix = None
    if len(args) == 3 and args[1] == "--prefix":
        prefix = args[2]
    s = Serial(args[0], prefix=prefix)

    def pump():
        shown = 0
        while not s.eof:
            with s._cv:
                s._cv.wait(0.2)
                new, shown = s.text[shown:], len(s.text)
            sys.stdout.write(new)
            sys.stdout.flush()

    threading.Thread(target=pump, daemon=True).start()
    for line in sys.stdin:
        s.send(line)
    time.sleep(1)
    s.close()


if __name__ == "__main__":
    main()
