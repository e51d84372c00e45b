#!/usr/bin/env python3
"""What a JVM allocated and where: a short summary of a JFR recording's allocation samples.

  jfr_alloc.py RECORDING.jfr [TOP]

Runs `jfr print --events jdk.ObjectAllocationSample` (recorded with settings=profile) and
prints the TOP (default 20) allocated classes and the TOP allocating frames, each by sampled
weight (bytes, JFR's estimate of what the sample stands for): the frame is the allocating
method, and the first io.cassette frame of the stack, so a JDK collection's growth is charged
to the Cassette code that asked for it. bench/resp-door --jfr uses it.
"""
import collections
import re
import sys

import jfr_events

WEIGHT = re.compile(r"^([\d.,]+)\s*(bytes|kB|MB|GB)?")
UNITS = {None: 1, "bytes": 1, "kB": 1024, "MB": 1024 ** 2, "GB": 1024 ** 3}


def samples(recording):
    """(allocated class, sampled weight in bytes, frames) per allocation sample."""
    for fields, frames in jfr_events.events(recording, "jdk.ObjectAllocationSample"):
        cls = fields.get("objectClass", "?").split(" (")[0]
        m = WEIGHT.match(fields.get("weight", ""))
        weight = float(m.group(1).replace(",", "")) * UNITS[m.group(2)] if m else 0
        yield cls, weight, frames


def main(recording, top):
    by_class, by_frame, by_cassette = (collections.Counter() for _ in range(3))
    total = 0.0
    for cls, weight, frames in samples(recording):
        total += weight
        by_class[cls] += weight
        if frames:
            by_frame[frames[0]] += weight
        for f in frames:
            if f.startswith("io.cassette."):
                by_cassette[f] += weight
                break
    if total == 0:
        print("no allocation samples in " + recording)
        return 0

    def show(title, counter):
        print(title)
        for name, w in counter.most_common(top):
            print("  %5.1f%%  %9.1f MB  %s" % (100.0 * w / total, w / 1024 ** 2, name))
        print()

    print("%.1f MB allocated (sampled weight) in %s\n" % (total / 1024 ** 2, recording))
    show("classes:", by_class)
    show("allocating methods:", by_frame)
    show("Cassette methods (first io.cassette frame of each sample):", by_cassette)
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 20))
