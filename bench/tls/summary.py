#!/usr/bin/env python3
"""compare.sh's lines -> per door/op/mode: runs, median op/s, min-max; and the TLS/plain ratio
of each alternated pair (same rep, run back to back), with their median: the pair ratio is what
survives a machine whose load changes between pairs."""
import statistics
import sys
from collections import defaultdict

runs = defaultdict(dict)  # (door, op, mode) -> rep -> op/s
for line in sys.stdin:
    f = line.split()
    if len(f) < 5 or f[4] == "FAILED" or f[3] == "0":
        continue
    runs[(f[0], f[1], f[2])][f[3]] = float(f[4])
print("| door | op | mode | runs | median op/s | min-max | TLS/plain per pair | median pair ratio |")
print("|---|---|---|---|---|---|---|---|")
for (door, op, mode), by_rep in sorted(runs.items()):
    v = list(by_rep.values())
    pairs = ""
    median_pair = ""
    if mode == "tls" and (door, op, "plain") in runs:
        plain = runs[(door, op, "plain")]
        ratios = [by_rep[r] / plain[r] for r in sorted(by_rep) if r in plain]
        pairs = ", ".join("%.2f" % x for x in ratios)
        median_pair = "%.2f" % statistics.median(ratios) if ratios else ""
    print("| {} | {} | {} | {} | {:,.0f} | {:,.0f}-{:,.0f} | {} | {} |".format(
        door, op, mode, len(v), statistics.median(v), min(v), max(v), pairs, median_pair))
