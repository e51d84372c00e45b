package io.cassette.metrics;

/**
 * One read of a {@link LatencyHistogram}.
 *
 * @param count     every value recorded since start
 * @param sumMicros their exact sum
 * @param recent    percentiles of the last completed window (see {@link LatencyHistogram#RECENT_WINDOW_MILLIS})
 * @param allTime   percentiles since start; its max is exact, not rounded to the histogram's buckets
 */
public record LatencySnapshot(long count, long sumMicros, Percentiles recent, Percentiles allTime) {}
