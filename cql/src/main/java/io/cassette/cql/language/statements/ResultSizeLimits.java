package io.cassette.cql.language.statements;

/**
 * How many bytes one SELECT may hold in the heap while it collects its answer.
 *
 * <p>{@code pageBytes}: a paged SELECT (result_page_size &gt; 0) ends its page early, with a
 * paging state, after the row that takes the page to this size; drivers fetch the next page
 * as for any other page. {@code failBytes} (Cassandra's {@code coordinator_read_size_fail_threshold}):
 * an unpaged SELECT whose rows pass it fails with READ_FAILURE, reason READ_SIZE, in Cassandra's
 * words. Sizes are estimates of the heap the rows take: each value's length plus
 * {@link #VALUE_OVERHEAD}, each row {@link #ROW_OVERHEAD} more, so that a million tiny rows
 * count for what they cost and not for their few bytes on the wire.
 *
 * <p>Why: before these bounds an unpaged SELECT over a large table, or a page of 5,000 large
 * rows, collected every row in the heap, and a 64 MiB node died with OutOfMemoryError.
 * Cassandra 5.0 has the same hole unless its read-size guardrail is configured.
 */
public record ResultSizeLimits(long pageBytes, long failBytes) {
  /** Heap bytes per value beyond its length: its array and its ByteBuffer. */
  public static final int VALUE_OVERHEAD = 64;
  /** Heap bytes per row beyond its values: its list. */
  public static final int ROW_OVERHEAD = 48;
  /** The largest page budget derived from the fail threshold. */
  static final long MAX_DERIVED_PAGE_BYTES = 4L << 20;

  /** No bound at all (tests and tools that build a language without a node). */
  public static final ResultSizeLimits UNBOUNDED = new ResultSizeLimits(Long.MAX_VALUE, Long.MAX_VALUE);

  public ResultSizeLimits {
    if (pageBytes <= 0 || failBytes <= 0) {
      throw new IllegalArgumentException("result size limits must be positive: " + pageBytes + ", " + failBytes);
    }
  }

  /**
   * The node's bounds: an unpaged answer must fit in one frame ({@code native_transport_max_frame_size}),
   * a page stops at half of it (at most 4 MiB), so that a page always fits a frame too.
   */
  public static ResultSizeLimits forFrame(long maxFrameBytes) {
    return new ResultSizeLimits(Math.max(1, Math.min(MAX_DERIVED_PAGE_BYTES, maxFrameBytes / 2)), maxFrameBytes);
  }

  /** The limits with {@code coordinator_read_size_fail_threshold} set; the page bound follows it. */
  public ResultSizeLimits withFailBytes(long bytes) {
    return new ResultSizeLimits(Math.max(1, Math.min(pageBytes, bytes / 2)), bytes);
  }
}
