#!/usr/bin/env python3
"""jfr_alloc_per_op.py FILE.jfr N [TOP]: estimated bytes allocated per operation (JFR allocation samples), and the top sites."""
import sys, re, subprocess, collections
f, n = sys.argv[1], int(sys.argv[2]); top = int(sys.argv[3]) if len(sys.argv) > 3 else 0
txt = subprocess.run(["jfr", "print", "--events", "jdk.ObjectAllocationSample", "--stack-depth", "6", f], capture_output=True, text=True).stdout
agg = collections.Counter(); tot = 0
for ev in txt.split("jdk.ObjectAllocationSample")[1:]:
    m = re.search(r'weight = ([\d.]+) (bytes|kB|MB|GB)', ev)
    if not m: continue
    w = float(m.group(1)) * {'bytes': 1, 'kB': 1024, 'MB': 1 << 20, 'GB': 1 << 30}[m.group(2)]
    th = re.sub(r'-\d+', '', re.search(r'eventThread = "([^"]+)"', ev).group(1))
    cls = re.search(r'objectClass = (\S+)', ev).group(1)
    fr = [l.strip().split('(')[0] for l in ev.splitlines() if l.strip().startswith('io.cassette')]
    agg[(th, cls, fr[0] if fr else '?')] += w; tot += w
print(f"{f}: {tot/n:.0f} B allocated per op (all threads)")
for k, v in agg.most_common(top): print(f"  {100*v/tot:5.1f}% {v/n:7.0f} B/op {k}")
