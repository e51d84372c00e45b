package io.cassette.tools.migrate;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * The Murmur3 token ring (-2^63, 2^63-1] cut into N equal ranges, each (start, end]. The
 * partitioner never assigns -2^63 to a key, so the ranges cover every row exactly once. The
 * same N gives the same ranges on both clusters, whatever their own token assignment:
 * the checkpoint and the per-range checksums refer to these, not to either ring's ranges.
 */
record TokenSplits(List<Range> ranges) {
  /** A token range (start, end]. */
  record Range(int index, long start, long end) {}

  static TokenSplits of(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("--ranges must be at least 1, not " + count);
    }
    BigInteger min = BigInteger.valueOf(Long.MIN_VALUE);
    BigInteger width = BigInteger.valueOf(Long.MAX_VALUE).subtract(min);
    List<Range> ranges = new ArrayList<>(count);
    long start = Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      long end = i == count - 1 ? Long.MAX_VALUE
          : min.add(width.multiply(BigInteger.valueOf(i + 1)).divide(BigInteger.valueOf(count))).longValueExact();
      ranges.add(new Range(i, start, end));
      start = end;
    }
    return new TokenSplits(List.copyOf(ranges));
  }
}
