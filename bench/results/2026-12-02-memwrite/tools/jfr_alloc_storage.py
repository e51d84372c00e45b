#!/usr/bin/env python3
"""Bytes allocated per op by the write path inside storage (cql-worker samples whose stack passes StorageEngine.apply), by top frame + first storage frame."""
import collections, re, subprocess, sys
f, n = sys.argv[1], int(sys.argv[2])
txt = subprocess.run(["jfr", "print", "--events", "jdk.ObjectAllocationSample", "--stack-depth", "30", f], capture_output=True, text=True).stdout
UNIT = {"bytes": 1, "kB": 1024, "MB": 1 << 20, "GB": 1 << 30}
sites = collections.Counter(); total = 0; storage = 0
for ev in txt.split("jdk.ObjectAllocationSample")[1:]:
    m = re.search(r'weight = ([\d.]+) (bytes|kB|MB|GB)', ev)
    if not m: continue
    w = float(m.group(1)) * UNIT[m.group(2)]
    total += w
    if "StorageEngine.apply" not in ev: continue
    storage += w
    cls = re.search(r'objectClass = (\S+)', ev).group(1)
    frames = re.findall(r'^\s+([\w$.<>/]+)\(', ev, re.M)
    sites[(cls, frames[0] if frames else "?", frames[1] if len(frames) > 1 else "?")] += w
print(f"{total/n:.0f} B/op in all; {storage/n:.0f} B/op under StorageEngine.apply")
for (c, a, b), w in sites.most_common(25):
    print(f"  {w/n:7.0f} B/op  {c}  {a}  <- {b}")
