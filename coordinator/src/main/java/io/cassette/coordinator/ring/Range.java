package io.cassette.coordinator.ring;

/**
 * A range of tokens {@code (start, end]}, as Cassandra's token ranges: the token {@code start}
 * is not in it, {@code end} is. Never wraps: a range that would wrap around the ring is split
 * at {@link Long#MAX_VALUE} / {@link Long#MIN_VALUE} (Murmur3's minimum token, which no key
 * has), so {@code (Long.MIN_VALUE, t]} is "from the beginning of the ring to t".
 */
public record Range(long start, long end) implements Comparable<Range> {
  public Range {
    if (start >= end) {
      throw new IllegalArgumentException("empty or wrapping range (" + start + ", " + end + "]");
    }
  }

  public boolean contains(long token) {
    return token > start && token <= end;
  }

  @Override
  public int compareTo(Range o) {
    return Long.compare(start, o.start);
  }

  @Override
  public String toString() {
    return "(" + start + "," + end + "]";
  }
}
