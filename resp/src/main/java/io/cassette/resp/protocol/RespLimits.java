package io.cassette.resp.protocol;

/**
 * Limits the decoder enforces, fixed when the pipeline is built.
 *
 * @param maxBulkLength      longest argument in bytes (Redis {@code proto-max-bulk-len})
 * @param maxMultibulkLength most arguments in one command (Redis: 1024*1024)
 * @param maxInlineLength    longest inline (telnet) command line and longest "*N"/"$N" line
 */
public record RespLimits(long maxBulkLength, int maxMultibulkLength, int maxInlineLength) {
  /** Redis's own limit on arguments per command. */
  public static final int REDIS_MAX_MULTIBULK = 1024 * 1024;
  /** Redis's PROTO_INLINE_MAX_SIZE. */
  public static final int REDIS_MAX_INLINE = 64 * 1024;
  /** Redis's default proto-max-bulk-len. */
  public static final long REDIS_MAX_BULK = 512L * 1024 * 1024;
  /** A single argument may use at most this share of the heap by default. */
  private static final int HEAP_SHARE_DIVISOR = 8;

  /** Redis's limits, with the bulk length capped to an eighth of the heap on small heaps. */
  public static RespLimits forHeap(long maxHeapBytes) {
    long bulk = Math.min(REDIS_MAX_BULK, Math.max(1L << 20, maxHeapBytes / HEAP_SHARE_DIVISOR));
    return new RespLimits(bulk, REDIS_MAX_MULTIBULK, REDIS_MAX_INLINE);
  }
}
