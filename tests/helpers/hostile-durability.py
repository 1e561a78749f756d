#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""hostile-durability.py - a hostile peer of `iobench durability`, for the tests.

Speaks the protocol README.md documents (TCP, ASCII lines) badly on purpose.

  idle HOST PORT N             open N connections, say nothing; print "ready N", hold them
  stall HOST PORT REQUEST      send REQUEST (e.g. "GET 00000000000000cc"), never read; print "sent"
                               (HOSTILE_FROM=ADDR: from that local address)
  flood HOST PORT RUN SECS [MAX]
                               HELLO for RUN (16 blocks), then "I 0 N" lines as fast as the
                               server takes them, for SECS (or until MAX lines are sent);
                               print "sent N", then the server's last line ("ERR ..." or
                               "closed")
  hellos HOST PORT N FROM...   N connections, each a writer of a run of its own (its HELLO),
                               the i-th from local address FROM[i % len]; print "ok K busy B
                               perad P other O" (the first reply of each), then hold them all
                               silent
  raw HOST PORT HEXBYTES       send the bytes (hex), print each reply line with repr()
                               (HOSTILE_FROM=ADDR: from that local address)
  fake-server MODE PORTFILE    a server on 127.0.0.1: writes its port to PORTFILE, answers
                               RUNS and GET. MODE forge: two runs of this host, the newer
                               one's target holding %1B, %07 and %0A + a forged verdict line,
                               the older one's raw 8-bit CSI bytes; endless: a RUNS listing
                               that never ends; errline: every request gets an ERR holding
                               ESC, BEL, CR and a forged verdict
"""
import ipaddress
import os
import resource
import socket
import sys
import time


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def connect(host, port):
    # HOSTILE_FROM=ADDR: connect from that local address (127.0.0.2 is a peer of its own).
    src = os.environ.get("HOSTILE_FROM")
    return socket.create_connection((host, int(port)), timeout=30, source_address=(src, 0) if src else None)


def idle(host, port, n):
    raise_nofile()
    socks = []
    for _ in range(int(n)):
        socks.append(connect(host, port))
    print("ready", len(socks), flush=True)
    while True:
        time.sleep(3600)


def stall(host, port, request):
    s = socket.socket()
    # A tiny receive window: the server's reply stays in its own queue.
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    if os.environ.get("HOSTILE_FROM"):
        s.bind((os.environ["HOSTILE_FROM"], 0))
    s.connect((host, int(port)))
    s.sendall(request.encode() + b"\n")
    print("sent", flush=True)
    while True:
        time.sleep(3600)


def hello(run, blocks=16, writer=0, writers=1):
    return ("HELLO iobench-durability 1 run=%s writer=%d writers=%d blocksize=4096 blocks=%d "
            "op=write4k host=hostile target=/dev/null start=1\n" % (run, writer, writers, blocks)).encode()


def flood(host, port, run, secs, most=None):
    s = connect(host, port)
    s.sendall(hello(run))
    f = s.makefile("rb")
    first = f.readline()
    if first != b"OK\n":
        print("refused", repr(first), flush=True)
        return
    chunk = b"".join(b"I %d %d\n" % (i % 16, i + 1) for i in range(20000))
    end = time.monotonic() + float(secs)
    sent = 0
    s.settimeout(2)
    try:
        while time.monotonic() < end and (most is None or sent < int(most)):
            s.sendall(chunk)
            sent += 20000
    except (socket.timeout, OSError):
        pass
    print("sent", sent, flush=True)
    s.settimeout(10)
    try:
        last = f.readline()
    except OSError:
        last = b""
    print(last.decode(errors="replace").rstrip("\n") if last else "closed", flush=True)


def hellos(host, port, n, *froms):
    raise_nofile()
    socks, counts = [], {"ok": 0, "busy": 0, "perad": 0, "other": 0}
    for i in range(int(n)):
        try:
            s = socket.create_connection((host, int(port)), timeout=10, source_address=(froms[i % len(froms)], 0))
            src = froms[i % len(froms)]
            s.sendall(hello("%016x" % (int(ipaddress.ip_address(src)) << 16 | i)))
            line = s.makefile("rb").readline()
        except OSError:
            line = b""
        if line == b"OK\n":
            counts["ok"] += 1
            socks.append(s)
        elif line.startswith(b"ERR server busy"):
            counts["busy"] += 1
        elif line.startswith(b"ERR too many connections from your address"):
            counts["perad"] += 1
        else:
            counts["other"] += 1
    print("ok %(ok)d busy %(busy)d perad %(perad)d other %(other)d" % counts, flush=True)
    while True:
        time.sleep(3600)


def raw(host, port, hexbytes):
    s = connect(host, port)
    try:
        s.sendall(bytes.fromhex(hexbytes))
        s.shutdown(socket.SHUT_WR)
        for line in s.makefile("rb"):
            print(repr(line), flush=True)
    except OSError:
        pass  # closed on us: what was read is printed


def forged_hello(run, host, target):
    return ("HELLO iobench-durability 1 run=%s writer=0 writers=1 blocksize=4096 blocks=16 "
            "op=write4k host=%s target=%s start=1" % (run, host, target)).encode()


# What a fake server says its runs wrote to: ESC, BEL and a forged verdict line
# (escaped as the protocol allows), and a raw 8-bit CSI.
FORGED = {
    b"00000000000000ee": (b"2.000001", b"/x%1B[2J%07%0Averdict:%20ok:%20forged"),
    b"00000000000000ef": (b"1.000001", b"/y\x9b2J\xc2\x9b"),
}


def forged_line(run, host):
    return forged_hello(run.decode(), host, "T").replace(b"target=T", b"target=" + FORGED[run][1])


def fake_server(mode, portfile):
    ls = socket.socket()
    ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    ls.bind(("127.0.0.1", 0))
    ls.listen(16)
    with open(portfile + ".tmp", "w") as pf:
        pf.write(str(ls.getsockname()[1]))
    os.rename(portfile + ".tmp", portfile)
    host = socket.gethostname()
    while True:
        c, _ = ls.accept()
        try:
            f = c.makefile("rb")
            req = f.readline().strip()
            if req.startswith(b"AUTH "):
                req = f.readline().strip()
            if mode == "endless" and req == b"RUNS":
                # A valid listing that never ends, of lines as long as allowed.
                line = (b"RUN created=1.000001 "
                        + forged_hello("00000000000000aa", "other" + "x" * 100, "/z" + "y" * 600) + b"\n")
                block = line * 1000
                while True:
                    c.sendall(block)
            elif mode == "errline":
                c.sendall(b"ERR no\x1b[2J\x07 such run\rverdict: ok: forged\n")
            elif req == b"RUNS":
                for run, (created, target) in FORGED.items():
                    c.sendall(b"RUN created=" + created + b" " + forged_line(run, host) + b"\n")
                c.sendall(b"END %d\n" % len(FORGED))
            elif req.startswith(b"GET ") and req[4:] in FORGED:
                run = req[4:]
                c.sendall(b"RUN run=" + run + b" created=1.000001\n")
                c.sendall(forged_line(run, host) + b"\n")
                c.sendall(b"I 0 0 1\nA 0 0 1\nBYE 0 2\nEND 5\n")
        except OSError:
            pass
        finally:
            c.close()


def main():
    cmd, args = sys.argv[1], sys.argv[2:]
    {"idle": idle, "stall": stall, "hellos": hellos, "flood": flood, "raw": raw, "fake-server": fake_server}[cmd](*args)


if __name__ == "__main__":
    main()
