package io.cassette.storage;

/**
 * A range of partitions in token order for scans and paging: starts after {@code after}
 * (or at the smallest token when null) and ends with the last partition whose token is
 * {@code <= endToken}. Resuming a page passes the last key seen as {@code after}.
 */
public record KeyRange(DecoratedKey after, long endToken) {
  public static final KeyRange ALL = new KeyRange(null, Long.MAX_VALUE);

  /** Partitions with {@code startToken < token <= endToken}, as CQL's token() bounds. */
  public static KeyRange tokens(long startTokenExclusive, long endToken) {
    return new KeyRange(new DecoratedKey(startTokenExclusive, null), endToken);
  }
}
