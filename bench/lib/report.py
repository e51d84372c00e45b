#!/usr/bin/env python3
"""Turns one bench/run output directory into the table of figures and ratios.

  report.py OUT_DIR

Reads OUT_DIR/machine.txt, OUT_DIR/raw/metrics.tsv and the raw tool outputs under
OUT_DIR/raw/<system>/ (stress summaries, redis-benchmark CSV, slow-card summaries); prints the
table (Markdown) on stdout and writes OUT_DIR/table.md, OUT_DIR/results.tsv (one figure per
line) and OUT_DIR/ratios.svg (Cassette's advantage on each compared figure, log scale).
Only figures found in the raw files are shown; a missing one is "-", never estimated.
"""
import csv
import math
import os
import re
import sys

SYSTEMS = ("cassette", "cassandra", "redis")
NAMES = {"cassette": "Cassette", "cassandra": "Cassandra 5.0.4", "redis": "Redis 7"}
RB_TESTS = ("SET", "GET", "INCR", "LPUSH", "HSET", "ZADD")
SLOW_CARD_TARGET_MS = 5.0


def read_metrics(out):
    m = {}
    path = os.path.join(out, "raw", "metrics.tsv")
    if os.path.exists(path):
        with open(path) as f:
            for line in f:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 3 and parts[2] != "":
                    m[(parts[0], parts[1])] = parts[2]
    return m


def read_text(path):
    with open(path, errors="replace") as f:
        return f.read()


def num(text):
    try:
        return float(text.replace(",", ""))
    except (AttributeError, ValueError):
        return None


def parse_stress(path):
    """The summary block of a cassandra-stress run: op rate and latencies in ms."""
    if not os.path.exists(path):
        return {}
    return parse_stress_text(read_text(path))


def parse_stress_text(text):
    """Only a run that ended with "END" (not "FAILURE") gives figures."""
    if "Results:" not in text or "\nEND" not in text.split("Results:")[-1]:
        return {}
    fields = {
        "ops": r"Op rate\s*:\s*([\d,.]+) op/s",
        "p50": r"Latency median\s*:\s*([\d,.]+) ms",
        "p99": r"Latency 99th percentile\s*:\s*([\d,.]+) ms",
        "p999": r"Latency 99\.9th percentile\s*:\s*([\d,.]+) ms",
        "max": r"Latency max\s*:\s*([\d,.]+) ms",
    }
    res = {}
    for key, pattern in fields.items():
        found = re.findall(pattern, text)
        if found:
            res[key] = num(found[-1])
    late = second_half_rate(text)
    if late is not None:
        res["ops_late"] = late
    return res


def second_half_rate(text):
    """Op rate over the second half of the measured run, from the 1 s "total," lines (total ops
    in the second field, elapsed seconds in the eleventh): the rate once the client's and the
    server's JITs have warmed up. A short run (a fast server's) spends a larger share of its
    time warming up than a long one, which the whole run's op rate counts against it."""
    points = []
    for line in text.splitlines():
        if line.startswith("total,"):
            f = [x.strip() for x in line.split(",")]
            if len(f) > 11:
                points.append((num(f[11]), num(f[1])))
    points = [(t, n) for t, n in points if t is not None and n is not None]
    if len(points) < 4:
        return None
    t_end, n_end = points[-1]
    for t, n in points:
        if t >= t_end / 2 and t < t_end:
            return (n_end - n) / (t_end - t)
    return None


def parse_rb(path):
    """redis-benchmark --csv: test -> (rps, p50 ms, p99 ms)."""
    res = {}
    if not os.path.exists(path):
        return res
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            test = (row.get("test") or "").split()[0].upper()
            rps = num(row.get("rps"))
            if test and rps:
                res[test] = (rps, num(row.get("p50_latency_ms")), num(row.get("p99_latency_ms")))
    return res


def parse_slowcard(path):
    if not os.path.exists(path):
        return {}
    found = re.findall(r"(\w+)=([\d.]+|nan)", read_text(path))
    return {k: num(v) for k, v in found}


def cpu_us(m, system, phase):
    """Server CPU (user + system, /proc/PID/stat) per operation of one load phase, in us."""
    ticks, ops = num(m.get((system, "cpu_ticks_" + phase))), num(m.get((system, "cpu_ops_" + phase)))
    hz = num(m.get(("run", "clk_tck"))) or 100.0
    if ticks is None or not ops:
        return None
    return ticks / hz * 1e6 / ops


def load_busy(m, system, phase):
    """How busy the load generator kept its own core during one load phase, in % of a core."""
    cpu, wall = num(m.get((system, "load_cpu_ms_" + phase))), num(m.get((system, "wall_ms_" + phase)))
    if cpu is None or not wall:
        return None
    return 100.0 * cpu / wall


def cpu_resolution(m):
    """The fewest clock ticks any CPU-per-op figure rests on, as a note under the table."""
    ticks = [(num(v), k) for k, v in m.items() if k[1].startswith("cpu_ticks_")]
    if not ticks:
        return ""
    least, (system, key) = min(ticks)
    hz = num(m.get(("run", "clk_tck"))) or 100.0
    return ("Server CPU per op: user + system time of the server process from /proc/PID/stat "
            "before and after each load, divided by its operations; one tick is %.0f ms, "
            "the coarsest figure rests on %d ticks (%s %s).\n"
            % (1000.0 / hz, least, system, key[len("cpu_ticks_"):]))


def mib(kb):
    v = num(kb) if kb is not None else None
    return None if v is None else v / 1024.0


def fmt(v, unit=""):
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "-"
    if float(v).is_integer() and abs(v) < 1000 and unit == "" and isinstance(v, int):
        return str(v)
    if abs(v) >= 1000:
        s = "{:,.0f}".format(v)
    elif abs(v) >= 100:
        s = "%.0f" % v
    elif abs(v) >= 10:
        s = "%.1f" % v
    else:
        s = "%.2f" % v
    return s + unit


class Table:
    """Rows of (figure, values per system, ratio text, target text, verdict)."""

    def __init__(self):
        self.rows = []
        self.ratios = []  # (label, advantage, target advantage or None) for the chart
        self.tsv = []

    def add(self, figure, values, unit="", versus=None, better="lower", target=None,
            target_text="", absolute_ok=None):
        """values: system -> number. versus: the system Cassette is compared with.
        better: "higher" or "lower". target: required advantage (x better) or None.
        absolute_ok: optional verdict from an absolute target (overrides the ratio one)."""
        for s, v in values.items():
            if v is not None:
                self.tsv.append((figure, s, v))
        cells = [fmt(values.get(s), unit) for s in SYSTEMS]
        ratio_text, verdict = "", ""
        c, o = values.get("cassette"), values.get(versus) if versus else None
        if versus and c is not None and o is not None and c > 0 and o > 0:
            ratio = c / o
            advantage = ratio if better == "higher" else 1.0 / ratio
            ratio_text = "%.2fx %s" % (ratio, NAMES[versus].split()[0])
            self.ratios.append((figure + " vs " + NAMES[versus].split()[0], advantage, target))
            if target is not None:
                verdict = "met" if advantage >= target else "NOT met"
        if absolute_ok is not None:
            verdict = "met" if absolute_ok else "NOT met"
        self.rows.append([figure] + cells + [ratio_text, target_text, verdict])

    def markdown(self):
        head = ["figure"] + [NAMES[s] for s in SYSTEMS] + ["Cassette / other", "target", ""]
        widths = [max(len(str(r[i])) for r in [head] + self.rows) for i in range(len(head))]

        def line(r):
            return "| " + " | ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                                     for i, (c, w) in enumerate(zip(r, widths))) + " |"
        out = [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
        out += [line(r) for r in self.rows]
        return "\n".join(out)


def svg_chart(ratios, title):
    """Horizontal bars of Cassette's advantage (x better, log scale, 1x in the middle)."""
    row_h, left, width, top = 22, 400, 420, 40
    lo, hi = -4.0, 4.0  # log2 range: 1/16x .. 16x
    height = top + row_h * len(ratios) + 40

    def x(adv):
        v = max(lo, min(hi, math.log2(adv)))
        return left + (v - lo) / (hi - lo) * width

    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
             'font-family="sans-serif" font-size="12">' % (left + width + 80, height),
             '<rect width="100%" height="100%" fill="white"/>',
             '<text x="10" y="20" font-size="14" font-weight="bold">%s</text>' % escape(title)]
    for tick in (-4, -2, -1, 0, 1, 2, 3, 4):
        tx = left + (tick - lo) / (hi - lo) * width
        label = ("%gx" % (2 ** tick)) if tick >= 0 else "1/%dx" % (2 ** -tick)
        parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="%s"/>' % (
            tx, top - 5, tx, height - 30, "#444" if tick == 0 else "#ddd"))
        parts.append('<text x="%.1f" y="%d" text-anchor="middle" fill="#666">%s</text>' % (
            tx, height - 15, label))
    for i, (label, adv, target) in enumerate(ratios):
        y = top + i * row_h
        x0, x1 = x(1.0), x(adv)
        # green: target met (or better than the other when there is none); amber: better
        # than the other but short of the target; red: worse than the other.
        colour = "#2a9d4b" if adv >= (target or 1.0) else ("#e09f3e" if adv >= 1.0 else "#d1495b")
        parts.append('<text x="%d" y="%d" text-anchor="end">%s</text>' % (left - 8, y + 14, escape(label)))
        parts.append('<rect x="%.1f" y="%d" width="%.1f" height="%d" fill="%s"/>' % (
            min(x0, x1), y + 3, max(1.0, abs(x1 - x0)), row_h - 6, colour))
        parts.append('<text x="%.1f" y="%d" fill="#333">%.2fx</text>' % (max(x0, x1) + 4, y + 14, adv))
        if target is not None:
            tx = x(target)
            parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" stroke="black" '
                         'stroke-width="2" stroke-dasharray="3,2"/>' % (tx, y + 1, tx, y + row_h - 1))
    parts.append("</svg>")
    return "\n".join(parts)


def escape(s):
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def build(out):
    m = read_metrics(out)
    raw = os.path.join(out, "raw")
    t = Table()

    def val(system, key):
        return num(m.get((system, key)))

    t.add("start to first answered query (s)", {s: val(s, "start_s") for s in SYSTEMS},
          versus="cassandra", better="lower", target_text="< 1 s",
          absolute_ok=(val("cassette", "start_s") < 1.0) if val("cassette", "start_s") is not None else None)

    if any((s, "first_start_s") in m for s in SYSTEMS):
        # Cassette's very first start, before its class-data archive exists (bench/run primes it).
        t.add("first start of a new install, no class archive yet (s)",
              {s: val(s, "first_start_s") for s in SYSTEMS}, versus="cassandra", better="lower")

    if any((s, "restart_s") in m for s in SYSTEMS):
        t.add("restart on its data to first answered query (s)",
              {s: val(s, "restart_s") for s in SYSTEMS}, versus="cassandra", better="lower")

    def end_key(s):
        return "resp_end_load" if (s, "rss_kb_resp_end_load") in m else "end_load"

    for label, key in (("VmRSS idle (MiB)", "rss_kb_idle"), ("VmHWM idle (MiB)", "hwm_kb_idle")):
        t.add(label, {s: mib(m.get((s, key))) for s in SYSTEMS}, versus="cassandra",
              better="lower", target=4.0, target_text="<= 1/4")
    for label, key in (("VmRSS end of load (MiB)", "rss_kb_"), ("VmHWM end of load (MiB)", "hwm_kb_")):
        t.add(label, {s: mib(m.get((s, key + end_key(s)))) for s in SYSTEMS}, versus="cassandra",
              better="lower", target=4.0, target_text="<= 1/4")

    for op in ("write", "read"):
        st = {s: parse_stress(os.path.join(raw, s, "stress-%s.txt" % op)) for s in ("cassette", "cassandra")}
        t.add("stress %s (op/s)" % op, {s: st[s].get("ops") for s in st}, versus="cassandra",
              better="higher", target=5.0, target_text=">= 5x")
        t.add("stress %s, second half of the run (op/s)" % op, {s: st[s].get("ops_late") for s in st},
              versus="cassandra", better="higher")
        t.add("stress %s p50 (ms)" % op, {s: st[s].get("p50") for s in st}, versus="cassandra")
        t.add("stress %s p99 (ms)" % op, {s: st[s].get("p99") for s in st}, versus="cassandra",
              target=3.0, target_text="<= 1/3")
        t.add("stress %s p99.9 (ms)" % op, {s: st[s].get("p999") for s in st}, versus="cassandra")

    for op in ("write", "read"):
        ok = {s for s in ("cassette", "cassandra") if parse_stress(os.path.join(raw, s, "stress-%s.txt" % op))}
        t.add("server CPU per op, stress %s (us)" % op,
              {s: cpu_us(m, s, "stress_" + op) for s in ok}, versus="cassandra",
              target=5.0, target_text="<= 1/5")

    # The load generator's share of its core: near 100% it, not the server, sets the op/s.
    for op in ("write", "read"):
        ok = {s for s in ("cassette", "cassandra") if parse_stress(os.path.join(raw, s, "stress-%s.txt" % op))}
        t.add("stress client's core busy, %s (%%)" % op,
              {s: load_busy(m, s, "stress_" + op) for s in ok}, versus="cassandra")

    row_bytes, n = val("run", "stress_row_bytes"), val("run", "stress_n")
    wear = {}
    for s in ("cassette", "cassandra"):
        a, b = val(s, "write_bytes_before_write"), val(s, "write_bytes_after_compact")
        ok = parse_stress(os.path.join(raw, s, "stress-write.txt"))
        if a is not None and b is not None and row_bytes and n and ok:
            wear[s] = (b - a) / (row_bytes * n)
    t.add("disk bytes / user byte (stress, flushed, compacted)", wear, versus="cassandra",
          target=1.0, target_text="<= Cassandra")
    entry, wn = val("run", "wear_entry_bytes"), val("run", "wear_n")
    wear = {}
    for s in ("cassette", "redis"):
        a, b = val(s, "write_bytes_before_wear"), val(s, "write_bytes_after_wear")
        if a is not None and b is not None and entry and wn and parse_rb(os.path.join(raw, s, "rb-wear.csv")):
            wear[s] = (b - a) / (entry * wn)
    t.add("disk bytes / user byte (RESP SETs)", wear, versus="redis")

    for p in (1, 16):
        rb = {s: parse_rb(os.path.join(raw, s, "rb-p%d.csv" % p)) for s in ("cassette", "redis")}
        for test in RB_TESTS:
            name = "redis-benchmark %s%s" % (test, "" if p == 1 else " -P 16")
            t.add(name + " (req/s)", {s: rb[s][test][0] for s in rb if test in rb[s]},
                  versus="redis", better="higher", target=1.0, target_text=">= 1x")
            t.add(name + " p50/p99 (ms)", {}, versus=None)
            lat = {s: "%s / %s" % (fmt(rb[s][test][1]), fmt(rb[s][test][2]))
                   for s in rb if test in rb[s]}
            t.rows[-1][1:4] = [lat.get(s, "-") for s in SYSTEMS]

    for p in (1, 16):
        rb = {s: parse_rb(os.path.join(raw, s, "rb-p%d.csv" % p)) for s in ("cassette", "redis")}
        for test in RB_TESTS:
            t.add("server CPU per op, redis-benchmark %s%s (us)" % (test, "" if p == 1 else " -P 16"),
                  {s: cpu_us(m, s, "rb_%s_p%d" % (test.lower(), p)) for s in rb if test in rb[s]},
                  versus="redis")
    ok = {s for s in ("cassette", "redis") if parse_rb(os.path.join(raw, s, "rb-wear.csv"))}
    t.add("server CPU per op, RESP SETs of %s B (us)" % fmt(val("run", "wear_entry_bytes")),
          {s: cpu_us(m, s, "wear_set") for s in ok}, versus="redis")

    pairs = (("cql", "cassandra", "over CQL"), ("resp", "redis", "over RESP"))
    for label, versus, how in pairs:
        sc = {"cassette": parse_slowcard(os.path.join(raw, "cassette", "slowcard-%s.txt" % label)),
              versus: parse_slowcard(os.path.join(raw, versus, "slowcard-%s.txt" % label))}
        for key, title in (("p50_ms", "p50"), ("p99_ms", "p99"), ("max_ms", "max")):
            c = sc["cassette"].get(key)
            t.add("slow card %s %s write (ms)" % (how, title), {s: sc[s].get(key) for s in sc},
                  versus=versus, target_text="< 5 ms" if key == "p99_ms" else "",
                  absolute_ok=(c < SLOW_CARD_TARGET_MS) if (c is not None and key == "p99_ms") else None)
    t.add("slow card: sync calls stalled in the window",
          {s: int(val(s, "stalled_syncs")) for s in SYSTEMS if val(s, "stalled_syncs") is not None})
    return t


def main(out):
    t = build(out)
    machine = os.path.join(out, "machine.txt")
    info = read_text(machine) if os.path.exists(machine) else ""
    wall = read_metrics(out).get(("run", "wall_s"))
    verdicts = [r[-1] for r in t.rows if r[-1]]
    summary = "DESIGN.md targets met: %d of %d measured (%s)" % (
        verdicts.count("met"), len(verdicts),
        ", ".join(r[0] for r in t.rows if r[-1] == "met") or "none")
    text = ("```\n" + info.strip() + ("\nwall time: %s s" % wall if wall else "") + "\n```\n\n"
            + t.markdown() + "\n\n" + summary + "\n\n" + cpu_resolution(read_metrics(out)))
    print(text)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write("# Cassette side-by-side benchmark\n\n" + text)
    with open(os.path.join(out, "results.tsv"), "w") as f:
        for figure, system, v in t.tsv:
            f.write("%s\t%s\t%s\n" % (figure, system, v))
    title = "Cassette's advantage (x better; dashed: target) - " + " ".join(
        l.split(": ", 1)[1] for l in info.splitlines() if l.startswith(("date:", "profile:", "mode:")))
    with open(os.path.join(out, "ratios.svg"), "w") as f:
        f.write(svg_chart(t.ratios, title))
    return 0


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
