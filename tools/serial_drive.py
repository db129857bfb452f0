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
# stdin lines to the guest and guest text to stdout (by hand);
# serial_drive.py --self-test checks the driver against a fake machine.
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
            self.sock.shutdown(socket.SHUT_RDWR)  # wakes the reader
        except OSError:
            pass
        try:
            self.sock.close()
        except OSError:
            pass
        self._reader.join(2)
        if self._log:
            self._log.close()
            self._log = None


def self_test():
    """The driver against a fake machine on a socket: bare and minhv
    framing, partial lines, split control sequences, run() and timeouts."""
    import tempfile
    d = tempfile.mkdtemp()
    path = os.path.join(d, "s")
    srv = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    srv.bind(path)
    srv.listen(2)
    fails = []

    def want(cond, what):
        if not cond:
            fails.append(what)

    def pause():
        time.sleep(0.05)

    def answer(conn, lines, prefix=b""):
        # Act as a shell: read one typed line, echo it, answer it.
        buf = b""
        while not buf.endswith(b"\n"):
            buf += conn.recv(1024)
        n = re.search(rb"S(\d+)@@", buf).group(1)
        conn.sendall(prefix + buf.replace(b"\n", b"\r\n"))
        for line in lines(n):
            conn.sendall(line)
            pause()

    # Bare QEMU: raw bytes, partial lines visible, controls removed.
    t = threading.Thread(target=lambda: setattr(t, "c", srv.accept()[0]))
    t.start()
    s = Serial(path)
    t.join()
    c = t.c
    c.sendall(b"boot\r\nlinux:/# \x1b[")
    pause()
    c.sendall(b"6n")
    s.expect(r"linux:/# $", 2)
    want(s.text == "boot\nlinux:/# ", "bare: text %r" % s.text)
    th = threading.Thread(target=answer, args=(c, lambda n: [
        b"@@S" + n + b"@@\r\nhello\r\nwor", b"ld\r\n@@E" + n + b":3@@\r\n"]))
    th.start()
    out, st = s.run("echo hello; echo world; (exit 3)", 2)
    th.join()
    want((out, st) == ("hello\nworld\n", 3), "bare: run %r" % ((out, st),))
    try:
        s.expect("never", 0.3)
        want(False, "bare: a timeout raises Timeout")
    except Timeout:
        pass
    s.close()
    c.close()

    # minhv: only "[user] " lines are guest text; a partial line waits.
    t = threading.Thread(target=lambda: setattr(t, "c", srv.accept()[0]))
    t.start()
    s = Serial(path, prefix="user")
    t.join()
    c = t.c
    c.sendall(b"[user] abc\r\nminhv: own line\r\n[user] ?[6npar")
    pause()
    want(s.text == "abc\n", "minhv: text before the line ends %r" % s.text)
    c.sendall(b"tial\r\n")
    s.expect(r"partial\n", 2)
    want(s.host_lines == ["minhv: own line"], "minhv: host lines %r"
         % s.host_lines)
    th = threading.Thread(target=answer, args=(c, lambda n: [
        b"[user] @@S" + n + b"@@\r\n[use", b"r] x\r\n",
        b"[user] @@E" + n + b":0@@\r\n"], b"[user] "))
    th.start()
    out, st = s.run("echo x", 2)
    th.join()
    want((out, st) == ("x\n", 0), "minhv: run %r" % ((out, st),))
    s.close()
    c.close()
    srv.close()
    os.unlink(path)
    os.rmdir(d)
    for f in fails:
        print("serial_drive self-test: FAILED: %s" % f)
    if not fails:
        print("serial_drive self-test: ok")
    return 1 if fails else 0


def main():
    args = sys.argv[1:]
    if args == ["--self-test"]:
        try:
            sys.exit(self_test())
        except Timeout as e:
            sys.exit("serial_drive self-test: FAILED: %s" % e)
    if not args or args[0].startswith("-"):
        sys.exit("usage: serial_drive.py SOCK [--prefix NAME] | --self-test")
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
