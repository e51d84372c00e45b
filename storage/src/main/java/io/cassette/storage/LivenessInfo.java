package io.cassette.storage;

/**
 * The primary-key liveness of a row (CQL's row marker, written by INSERT): a row with live
 * liveness info exists even when all its regular cells are null. {@code ttl} is 0 when the
 * marker does not expire; {@code localExpirationTime} is then {@link Long#MAX_VALUE}.
 */
public record LivenessInfo(long timestamp, int ttl, long localExpirationTime) {
  /** No marker: the row lives only through its cells. */
  public static final LivenessInfo EMPTY = new LivenessInfo(Long.MIN_VALUE, 0, Long.MAX_VALUE);

  public static LivenessInfo of(long timestamp) {
    return new LivenessInfo(timestamp, 0, Long.MAX_VALUE);
  }

  public static LivenessInfo expiring(long timestamp, int ttl, long nowInSeconds) {
    return new LivenessInfo(timestamp, ttl, nowInSeconds + ttl);
  }

  public boolean isEmpty() {
    return timestamp == Long.MIN_VALUE;
  }

  public boolean isLive(long nowInSeconds) {
    return !isEmpty() && nowInSeconds < localExpirationTime;
  }
}
