#!/usr/bin/env python3
"""Where a JVM spent its CPU: a short summary of a JFR recording's execution samples.

  jfr_top.py RECORDING.jfr [TOP]

Runs `jfr print --events jdk.ExecutionSample` (the JDK's jfr tool) and prints the TOP
(default 20) methods by self samples, the TOP Cassette methods by inclusive samples (the
first io.cassette frame of each stack), and samples per thread name. bench/run --jfr uses it
to say what holds Cassette back under load.
"""
import collections
import re
import sys

import jfr_events

THREAD = re.compile(r'^"([^"]*)"')


def samples(recording):
    """(thread name, frames) per execution sample."""
    for fields, frames in jfr_events.events(recording, "jdk.ExecutionSample", timeout=300):
        m = THREAD.match(fields.get("sampledThread", ""))
        yield (m.group(1) if m else None), frames


def thread_group(name):
    """Thread names without their trailing numbers, so pools count as one."""
    return re.sub(r"(?:[-#]\d+)+$", "", name or "?")


def main(recording, top):
    self_counts, cassette_counts, threads = (collections.Counter() for _ in range(3))
    total = 0
    for thread, frames in samples(recording):
        if not frames:
            continue
        total += 1
        self_counts[frames[0]] += 1
        threads[thread_group(thread)] += 1
        for f in frames:
            if f.startswith("io.cassette."):
                cassette_counts[f] += 1
                break
    if total == 0:
        print("no execution samples in " + recording)
        return 0

    def show(title, counter):
        print(title)
        for name, n in counter.most_common(top):
            print("  %5.1f%%  %6d  %s" % (100.0 * n / total, n, name))
        print()

    print("%d execution samples in %s\n" % (total, recording))
    show("hottest methods (self):", self_counts)
    show("hottest Cassette methods (first io.cassette frame of each sample):", cassette_counts)
    show("samples by thread:", threads)
    return 0


if __name__ == "__main__":
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) == 3 else 20))
