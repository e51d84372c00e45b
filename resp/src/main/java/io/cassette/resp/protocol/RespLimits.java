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
  /** Request bytes in flight node-wide: this share of the heap. */
  private static final int BUDGET_HEAP_DIVISOR = 4;
  /**
   * A single argument may use at most this share of the heap by default. An argument lives
   * several times while its command runs (the decoder's growing array, the mutation, its
   * serialization, the commit-log record, the memtable cell), each a humongous object on a
   * small heap: bench/hostile killed a 64 MiB node (Java heap space) with one SET of heap/8
   * after a few smaller ones. heap/32 is what the CQL door measured as safe (CqlLimits).
   */
  static final int HEAP_SHARE_DIVISOR = 32;
  /** Argument count limit: heap bytes divided by this. */
  private static final int ARGS_HEAP_DIVISOR = 128;
  /** The smallest argument count limit, whatever the heap. */
  private static final int MIN_MULTIBULK = 1024;

  /**
   * Redis's limits, capped on small heaps: one argument to heap/32, the argument count to
   * heap/128 (each argument costs some 40 bytes before its data, so even a command of empty
   * arguments stays under a third of the heap). A 64 MB heap gets 2 MB and 524288.
   */
  public static RespLimits forHeap(long maxHeapBytes) {
    long bulk = Math.min(REDIS_MAX_BULK, Math.max(1L << 20, maxHeapBytes / HEAP_SHARE_DIVISOR));
    long multibulk = Math.min(REDIS_MAX_MULTIBULK,
        Math.max(MIN_MULTIBULK, maxHeapBytes / ARGS_HEAP_DIVISOR));
    return new RespLimits(bulk, (int) multibulk, REDIS_MAX_INLINE);
  }

  /**
   * Request bytes all Redis clients together may have in flight: a quarter of the heap (a
   * 64 MB heap: 16 MB, eight arguments at the default proto-max-bulk-len). The rest of the heap
   * belongs to memtables, caches and the values commands build.
   */
  public static long requestBudgetForHeap(long maxHeapBytes) {
    return Math.max(4L << 20, maxHeapBytes / BUDGET_HEAP_DIVISOR);
  }
}
