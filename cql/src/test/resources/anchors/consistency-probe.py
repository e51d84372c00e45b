#!/usr/bin/env python3
"""Runs CQL statements at given consistency levels (protocol v4) and prints each answer:
OK, ROWS n, or ERROR code fields message. Usage: clprobe.py HOST PORT < lines 'CL|SERIAL|query'"""
import socket, struct, sys
CL = {"ANY":0,"ONE":1,"TWO":2,"THREE":3,"QUORUM":4,"ALL":5,"LOCAL_QUORUM":6,"EACH_QUORUM":7,
      "SERIAL":8,"LOCAL_SERIAL":9,"LOCAL_ONE":10}
NAME = {v:k for k,v in CL.items()}
def frame(stream, op, body): return struct.pack(">BBhBi", 4, 0, stream, op, len(body)) + body
def rx(s, n):
    b = b""
    while len(b) < n:
        c = s.recv(n - len(b))
        if not c: raise ConnectionError
        b += c
    return b
def read(s):
    v, f, st, op, ln = struct.unpack(">BBhBi", rx(s, 9)); body = rx(s, ln); pos = 0
    if f & 0x08:
        (n,) = struct.unpack_from(">H", body, 0); pos = 2
        for _ in range(n):
            (m,) = struct.unpack_from(">H", body, pos); pos += 2 + m
    return op, body[pos:]
def s_(x): b = x.encode(); return struct.pack(">H", len(b)) + b
host, port = sys.argv[1], int(sys.argv[2])
s = socket.create_connection((host, port))
s.sendall(frame(1, 1, struct.pack(">H", 1) + s_("CQL_VERSION") + s_("3.0.0"))); read(s)
for line in sys.stdin:
    line = line.rstrip("\n")
    if not line or line.startswith("#"): continue
    cl, serial, q = line.split("|", 2)
    flags = 0; extra = b""
    if serial: flags |= 0x10; extra = struct.pack(">H", CL[serial])
    body = struct.pack(">i", len(q.encode())) + q.encode() + struct.pack(">HB", CL[cl], flags) + extra
    s.sendall(frame(2, 7, body)); op, b = read(s)
    if op == 0:
        code, = struct.unpack_from(">i", b, 0); n, = struct.unpack_from(">H", b, 4)
        msg = b[6:6+n].decode(); rest = b[6+n:]; fields = ""
        if code == 0x1000:
            c, req, alive = struct.unpack_from(">Hii", rest, 0); fields = " cl=%s required=%d alive=%d" % (NAME[c], req, alive)
        print("%s|%s|%s => ERROR 0x%04x%s %r" % (cl, serial, q, code, fields, msg))
    else:
        kind, = struct.unpack_from(">i", b, 0)
        print("%s|%s|%s => RESULT kind=%d" % (cl, serial, q, kind))
