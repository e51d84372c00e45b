#!/usr/bin/env python3
"""jfr_thread_alloc.py FILE.jfr N: bytes allocated per op by each thread (jdk.ThreadAllocationStatistics, last - first; exact)."""
import sys, re, json, subprocess
f, n = sys.argv[1], int(sys.argv[2])
d = json.loads(subprocess.run(["jfr", "print", "--json", "--events", "jdk.ThreadAllocationStatistics", f], capture_output=True, text=True).stdout)
vals = {}
for ev in d["recording"]["events"]:
    v = ev["values"]; th = re.sub(r'-\d+', '', (v.get("thread") or {}).get("javaName") or "?")
    vals.setdefault(th, []).append(v["allocated"])
for th in sorted(vals, key=lambda k: -(max(vals[k]) - min(vals[k])))[:3]:
    print(f"{f.split('/')[-1]}: {th}: {(max(vals[th]) - min(vals[th]))/n:.0f} B/op")
