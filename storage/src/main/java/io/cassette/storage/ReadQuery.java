package io.cassette.storage;

import java.util.List;

/**
 * What to read from one partition: clustering {@code slices} (sorted, non-overlapping),
 * {@code reversed} to return rows in descending order, at most {@code rowLimit} live rows
 * (the static row does not count), evaluated at {@code nowInSeconds} for TTLs.
 *
 * <p>{@code byteLimit}: the read also ends after the row that brings the rows' {@link
 * Row#dataSize} to it (the first row always comes). A pager that does not know how large rows
 * are asks for a few and bounds their bytes, so a partition of 1 MiB rows does not land in a
 * small heap whole; it tells a byte-cut read from an exhausted one by the rows' size.
 */
public record ReadQuery(List<Slice> slices, boolean reversed, int rowLimit, long nowInSeconds, long byteLimit) {
  public ReadQuery {
    slices = List.copyOf(slices);
    if (byteLimit <= 0) {
      throw new IllegalArgumentException("byte limit must be positive: " + byteLimit);
    }
  }

  /** No byte limit. */
  public ReadQuery(List<Slice> slices, boolean reversed, int rowLimit, long nowInSeconds) {
    this(slices, reversed, rowLimit, nowInSeconds, Long.MAX_VALUE);
  }

  public static ReadQuery all(long nowInSeconds) {
    return new ReadQuery(List.of(Slice.ALL), false, Integer.MAX_VALUE, nowInSeconds);
  }

  public static ReadQuery row(byte[] clustering, long nowInSeconds) {
    return new ReadQuery(List.of(Slice.prefix(clustering)), false, Integer.MAX_VALUE, nowInSeconds);
  }

  /** The same query over other slices. */
  public ReadQuery withSlices(List<Slice> other) {
    return new ReadQuery(other, reversed, rowLimit, nowInSeconds, byteLimit);
  }

  /**
   * Whether an answer of {@code rows} may have stopped at a limit (storage may hold more after
   * its last row), rather than at the end of the slices.
   */
  public boolean mayHaveMore(List<Row> rows) {
    if (rows.size() >= rowLimit) {
      return true;
    }
    if (byteLimit == Long.MAX_VALUE) {
      return false;
    }
    long bytes = 0;
    for (int i = 0, n = rows.size(); i < n; i++) {
      bytes += rows.get(i).dataSize();
    }
    return bytes >= byteLimit;
  }
}
