package io.cassette.storage;

import java.util.List;

/**
 * What to read from one partition: clustering {@code slices} (sorted, non-overlapping),
 * {@code reversed} to return rows in descending order, at most {@code rowLimit} live rows
 * (the static row does not count), evaluated at {@code nowInSeconds} for TTLs.
 */
public record ReadQuery(List<Slice> slices, boolean reversed, int rowLimit, long nowInSeconds) {
  public ReadQuery {
    slices = List.copyOf(slices);
  }

  public static ReadQuery all(long nowInSeconds) {
    return new ReadQuery(List.of(Slice.ALL), false, Integer.MAX_VALUE, nowInSeconds);
  }

  public static ReadQuery row(byte[] clustering, long nowInSeconds) {
    return new ReadQuery(List.of(Slice.prefix(clustering)), false, Integer.MAX_VALUE, nowInSeconds);
  }
}
