#!/usr/bin/env python3
"""Small stdlib-only clients for bench/run: readiness probes and a fixed-rate write load.

  probe.py ready cql|resp HOST PORT TIMEOUT_S [PID]
      Retries every RETRY_S until one query is answered (CQL: STARTUP + SELECT
      release_version FROM system.local; RESP: PING), then prints the answer and exits 0;
      exits 1 after TIMEOUT_S, or as soon as process PID (the server) has exited.
  probe.py fixed cql|resp HOST PORT RATE SECONDS OUT_FILE [SWITCH_FILE]
      Open-loop write load at RATE writes/s for SECONDS over one connection (CQL: prepared
      INSERT into bench.slowcard; RESP: SET). Latency of each write is measured from the
      moment it was due, not from when it was sent, so a stalled server shows its full
      stall in every write that waited behind it (no coordinated omission). Writes one
      line per write ("due_offset_s latency_ms") to OUT_FILE and prints
      "count=.. p50_ms=.. p99_ms=.. p999_ms=.. max_ms=.. late=.. errors=..". With SWITCH_FILE,
      the file exists exactly while the load runs (after the schema is made and the
      statement prepared): it is the slow-fsync shim's on/off switch.
  probe.py schema HOST PORT
      Creates the CQL table the fixed load writes to (bench.slowcard), so that schema
      changes (which fsync a lot) happen before a slow-card window opens.
  probe.py freeports N
      Prints N loopback TCP ports, each with the port after it also free (Cassandra's SSL
      storage port), from 20000..32000 (below Linux's ephemeral range).

CQL is native protocol v4 (both Cassandra 5.0 and Cassette speak it).
"""
import os
import random
import socket
import struct
import sys
import time

RETRY_S = 0.02
CQL_VERSION = 0x04
OP_ERROR, OP_STARTUP, OP_READY, OP_QUERY, OP_RESULT, OP_PREPARE, OP_EXECUTE = (
    0x00, 0x01, 0x02, 0x07, 0x08, 0x09, 0x0A)
CONSISTENCY_ONE = 0x0001
SLOWCARD_VALUE_BYTES = 100  # payload per write in the slow-card load
WARMUP_WRITES = 50  # unmeasured writes before the fixed-rate window


def recv_exact(sock, n):
    buf = bytearray()
    while len(buf) < n:
        chunk = sock.recv(n - len(buf))
        if not chunk:
            raise ConnectionError("connection closed by server")
        buf += chunk
    return bytes(buf)


class Cql:
    """One v4 connection; synchronous request/response on stream 1."""

    def __init__(self, host, port, timeout):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        body = struct.pack(">H", 1) + self._string("CQL_VERSION") + self._string("3.0.0")
        op, _ = self.request(OP_STARTUP, body)
        if op != OP_READY:
            raise RuntimeError("STARTUP answered opcode %#x" % op)

    @staticmethod
    def _string(s):
        b = s.encode()
        return struct.pack(">H", len(b)) + b

    @staticmethod
    def _long_string(s):
        b = s.encode()
        return struct.pack(">i", len(b)) + b

    def request(self, opcode, body):
        self.sock.sendall(struct.pack(">BBhBi", CQL_VERSION, 0, 1, opcode, len(body)) + body)
        _v, flags, _s, op, length = struct.unpack(">BBhBi", recv_exact(self.sock, 9))
        payload = recv_exact(self.sock, length)
        if op == OP_ERROR:
            code, n = struct.unpack_from(">iH", payload, 0)
            raise RuntimeError("CQL error %#x: %s" % (code, payload[6:6 + n].decode(errors="replace")))
        pos = 0
        if flags & 0x02:  # tracing id
            pos += 16
        if flags & 0x08:  # warnings
            (count,) = struct.unpack_from(">H", payload, pos)
            pos += 2
            for _ in range(count):
                (m,) = struct.unpack_from(">H", payload, pos)
                pos += 2 + m
        return op, payload[pos:]

    def query(self, cql):
        return self.request(OP_QUERY, self._long_string(cql) + struct.pack(">HB", CONSISTENCY_ONE, 0))

    def prepare(self, cql):
        op, body = self.request(OP_PREPARE, self._long_string(cql))
        kind, n = struct.unpack_from(">iH", body, 0)
        if op != OP_RESULT or kind != 4:
            raise RuntimeError("PREPARE answered opcode %#x kind %d" % (op, kind))
        return body[6:6 + n]

    def execute(self, prepared_id, values):
        body = struct.pack(">H", len(prepared_id)) + prepared_id
        body += struct.pack(">HBH", CONSISTENCY_ONE, 0x01, len(values))
        for v in values:
            body += struct.pack(">i", len(v)) + v
        return self.request(OP_EXECUTE, body)

    def close(self):
        self.sock.close()


class Resp:
    def __init__(self, host, port, timeout):
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.file = self.sock.makefile("rb")

    def command(self, *args):
        out = b"*%d\r\n" % len(args)
        for a in args:
            a = a if isinstance(a, bytes) else str(a).encode()
            out += b"$%d\r\n%s\r\n" % (len(a), a)
        self.sock.sendall(out)
        line = self.file.readline()
        if not line:
            raise ConnectionError("connection closed by server")
        if line.startswith(b"-"):
            raise RuntimeError("RESP error: " + line[1:].strip().decode(errors="replace"))
        if line.startswith(b"$"):
            n = int(line[1:])
            return self.file.read(n + 2)[:-2] if n >= 0 else None
        return line[1:].strip()

    def close(self):
        self.file.close()
        self.sock.close()


def alive(pid):
    if pid is None:
        return True
    try:
        os.kill(pid, 0)
        return True
    except ProcessLookupError:
        return False
    except PermissionError:
        return True


def ready(proto, host, port, timeout, pid=None):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline and alive(pid):
        try:
            if proto == "cql":
                c = Cql(host, port, 5)
                try:
                    _op, body = c.query("SELECT release_version FROM system.local")
                finally:
                    c.close()
                print("cql answered (%d bytes)" % len(body))
            else:
                r = Resp(host, port, 5)
                try:
                    print(r.command("PING").decode())
                finally:
                    r.close()
            return 0
        except (OSError, ConnectionError, RuntimeError, struct.error, ValueError) as e:
            last = e
            time.sleep(RETRY_S)
    print("no answer from %s %s:%s within %ss: %s" % (proto, host, port, timeout, last), file=sys.stderr)
    return 1


def percentile(sorted_values, p):
    if not sorted_values:
        return float("nan")
    k = min(len(sorted_values) - 1, max(0, int(round(p / 100.0 * len(sorted_values) + 0.5)) - 1))
    return sorted_values[k]


def create_slowcard_table(c):
    c.query("CREATE KEYSPACE IF NOT EXISTS bench WITH replication = "
            "{'class': 'SimpleStrategy', 'replication_factor': 1}")
    c.query("CREATE TABLE IF NOT EXISTS bench.slowcard (k bigint PRIMARY KEY, v blob)")


def schema(host, port):
    c = Cql(host, port, 60)
    try:
        create_slowcard_table(c)
    finally:
        c.close()
    return 0


def fixed(proto, host, port, rate, seconds, out_file, switch=None):
    value = bytes(random.getrandbits(8) for _ in range(SLOWCARD_VALUE_BYTES))
    if proto == "cql":
        c = Cql(host, port, 30)
        create_slowcard_table(c)
        pid = c.prepare("INSERT INTO bench.slowcard (k, v) VALUES (?, ?)")

        def write(i):
            c.execute(pid, [struct.pack(">q", i), value])
    else:
        c = Resp(host, port, 30)

        def write(i):
            c.command("SET", "slowcard:%d" % i, value)

    total = int(rate * seconds)
    interval = 1.0 / rate
    for i in range(-WARMUP_WRITES, 0):  # outside the measured window (connection, caches)
        write(i)
    if switch:
        open(switch, "w").close()
    try:
        with open(out_file, "w") as out:
            latencies, errors, late = run_fixed(write, total, interval, out)
    finally:
        if switch and os.path.exists(switch):
            os.remove(switch)
    c.close()
    latencies.sort()
    print("count=%d p50_ms=%.2f p99_ms=%.2f p999_ms=%.2f max_ms=%.2f late=%d errors=%d" % (
        len(latencies), percentile(latencies, 50), percentile(latencies, 99),
        percentile(latencies, 99.9), latencies[-1] if latencies else float("nan"), late, errors))
    return 0 if errors == 0 else 1


def run_fixed(write, total, interval, out):
    """Issues write(i) at t0 + i * interval; returns (latencies in ms, errors, late starts)."""
    latencies = []
    errors = 0
    late = 0
    t0 = time.monotonic() + 0.05
    # Wall-clock start, to line the latencies up with the shim's log of stalled calls.
    out.write("# t0_epoch=%.3f (first column: seconds after t0; second: latency in ms)\n"
              % (time.time() + (t0 - time.monotonic())))
    for i in range(total):
        due = t0 + i * interval
        now = time.monotonic()
        if now < due:
            time.sleep(due - now)
        else:
            late += 1
        try:
            write(i)
        except (RuntimeError, socket.timeout) as e:
            errors += 1
            print("write %d: %s" % (i, e), file=sys.stderr)
        ms = (time.monotonic() - due) * 1000.0
        latencies.append(ms)
        out.write("%.3f %.3f\n" % (due - t0, ms))
    return latencies, errors, late


def bindable(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.bind(("127.0.0.1", port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def freeports(n):
    chosen = []
    candidates = list(range(20000, 32000, 2))
    random.shuffle(candidates)
    for p in candidates:
        if len(chosen) == n:
            break
        if bindable(p) and bindable(p + 1):
            chosen.append(p)
    if len(chosen) < n:
        print("not enough free ports", file=sys.stderr)
        return 1
    print(" ".join(str(p) for p in chosen))
    return 0


def main(argv):
    if len(argv) in (5, 6) and argv[0] == "ready":
        return ready(argv[1], argv[2], int(argv[3]), float(argv[4]),
                     int(argv[5]) if len(argv) == 6 else None)
    if len(argv) in (7, 8) and argv[0] == "fixed":
        return fixed(argv[1], argv[2], int(argv[3]), float(argv[4]), float(argv[5]), argv[6],
                     argv[7] if len(argv) == 8 else None)
    if len(argv) == 3 and argv[0] == "schema":
        return schema(argv[1], int(argv[2]))
    if len(argv) == 2 and argv[0] == "freeports":
        return freeports(int(argv[1]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
