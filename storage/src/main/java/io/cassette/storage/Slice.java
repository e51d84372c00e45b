package io.cassette.storage;

/**
 * A range of clusterings in byte order, with CQL's prefix semantics: a bound is a prefix of
 * encoded clustering components. {@code start} inclusive takes every clustering that is
 * {@code >= start}; exclusive skips also every clustering that has {@code start} as prefix.
 * {@code end} inclusive takes every clustering {@code <= end} or that has {@code end} as
 * prefix; exclusive stops before the first clustering {@code >= end}. An empty start or
 * end is unbounded on that side.
 */
public record Slice(byte[] start, boolean startInclusive, byte[] end, boolean endInclusive) {
  public static final Slice ALL = new Slice(Bytes.EMPTY, true, Bytes.EMPTY, true);

  /** Every clustering that has {@code prefix} as prefix (one row when it is a full key). */
  public static Slice prefix(byte[] prefix) {
    return new Slice(prefix, true, prefix, true);
  }

  public boolean includes(byte[] clustering) {
    if (start.length > 0) {
      if (startInclusive ? Bytes.compare(clustering, start) < 0
          : Bytes.compare(clustering, start) <= 0 || Bytes.startsWith(clustering, start)) {
        return false;
      }
    }
    if (end.length > 0) {
      if (endInclusive) {
        return Bytes.compare(clustering, end) <= 0 || Bytes.startsWith(clustering, end);
      }
      return Bytes.compare(clustering, end) < 0;
    }
    return true;
  }
}
