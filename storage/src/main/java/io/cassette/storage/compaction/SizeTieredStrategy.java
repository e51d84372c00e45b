package io.cassette.storage.compaction;

import io.cassette.storage.StorageException;
import io.cassette.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * Cassandra's size-tiered strategy: SSTables of similar size (within
 * [bucket_low, bucket_high] of a bucket's average; all below min_sstable_size in one
 * bucket) are compacted together once a bucket holds min_threshold of them, at most
 * max_threshold at a time, the bucket with the smallest files first (cheapest, most useful).
 *
 * <p>One difference, for flash wear: when the table does not set {@code min_sstable_size},
 * the size below which every SSTable shares one bucket is half the table's recent flush size,
 * at least 1 MiB (Cassandra's 50 MiB when flushes are larger, or before the first flush
 * since start).
 * That bucket exists to gather SSTables much smaller than a flush (a {@code nodetool flush}
 * of a few rows); Cassandra's fixed 50 MiB assumes memtables of hundreds of MiB. On a board,
 * whose flushes are ~10 MiB, it held three or four flushes' worth, so each compaction's result
 * stayed in the bucket and was rewritten with the next three flushes: one more rewrite of
 * every byte than tiering needs (bench/results/2026-12-02-wear.md).
 */
public final class SizeTieredStrategy implements CompactionStrategy {
  static final int DEFAULT_MIN_THRESHOLD = 4;
  static final int DEFAULT_MAX_THRESHOLD = 32;
  static final double DEFAULT_BUCKET_LOW = 0.5;
  static final double DEFAULT_BUCKET_HIGH = 1.5;
  static final long DEFAULT_MIN_SSTABLE_SIZE = 50L << 20;
  /** The least min_sstable_size taken from the flush size. */
  static final long MIN_SMALL_BUCKET = 1L << 20;

  private final int minThreshold;
  private final int maxThreshold;
  private final double bucketLow;
  private final double bucketHigh;
  /** The table's min_sstable_size, or -1 when it sets none (see the class comment). */
  private final long minSSTableSize;

  /** {@code minSSTableSize} -1: none set (half the recent flush size, at most 50 MiB). */
  public SizeTieredStrategy(int minThreshold, int maxThreshold, double bucketLow, double bucketHigh, long minSSTableSize) {
    this.minThreshold = minThreshold;
    this.maxThreshold = maxThreshold;
    this.bucketLow = bucketLow;
    this.bucketHigh = bucketHigh;
    this.minSSTableSize = minSSTableSize;
  }

  static SizeTieredStrategy fromOptions(Map<String, String> o) {
    try {
      int min = Integer.parseInt(o.getOrDefault("min_threshold", "" + DEFAULT_MIN_THRESHOLD));
      int max = Integer.parseInt(o.getOrDefault("max_threshold", "" + DEFAULT_MAX_THRESHOLD));
      if (min < 2 || max < min) {
        throw new StorageException("min_threshold " + min + ", max_threshold " + max
            + " (expected: 2 <= min_threshold <= max_threshold)");
      }
      return new SizeTieredStrategy(min, max,
          Double.parseDouble(o.getOrDefault("bucket_low", "" + DEFAULT_BUCKET_LOW)),
          Double.parseDouble(o.getOrDefault("bucket_high", "" + DEFAULT_BUCKET_HIGH)),
          Long.parseLong(o.getOrDefault("min_sstable_size", "-1")));
    } catch (NumberFormatException e) {
      throw new StorageException("bad size-tiered compaction option: " + e.getMessage());
    }
  }

  /** Below this size every SSTable shares one bucket, given the table's recent flush size (0: unknown). */
  long minSSTableSize(long flushBytes) {
    if (minSSTableSize >= 0) {
      return minSSTableSize;
    }
    // At least 1 MiB, as UCS's smallest flush size: a table of tiny, irregular flushes (system
    // tables, commit-log forced flushes) still gathers them all in one bucket.
    return flushBytes > 0 ? Math.min(DEFAULT_MIN_SSTABLE_SIZE, Math.max(MIN_SMALL_BUCKET, flushBytes / 2))
        : DEFAULT_MIN_SSTABLE_SIZE;
  }

  List<List<SSTableReader>> buckets(List<SSTableReader> sstables) {
    return buckets(sstables, 0);
  }

  List<List<SSTableReader>> buckets(List<SSTableReader> sstables, long flushBytes) {
    long minSSTableSize = minSSTableSize(flushBytes);
    List<SSTableReader> sorted = new ArrayList<>(sstables);
    sorted.sort(Comparator.comparingLong(SSTableReader::bytesOnDisk));
    List<List<SSTableReader>> buckets = new ArrayList<>();
    List<SSTableReader> bucket = null;
    double avg = 0;
    for (SSTableReader s : sorted) {
      long size = s.bytesOnDisk();
      boolean fits = bucket != null && ((size >= avg * bucketLow && size <= avg * bucketHigh)
          || (size < minSSTableSize && avg < minSSTableSize));
      if (!fits) {
        bucket = new ArrayList<>();
        buckets.add(bucket);
        avg = 0;
      }
      bucket.add(s);
      avg = (avg * (bucket.size() - 1) + size) / bucket.size();
    }
    return buckets;
  }

  @Override
  public List<SSTableReader> nextBackgroundTask(List<SSTableReader> candidates, long nowInSeconds, long flushBytes) {
    return TieredGroups.firstFull(buckets(candidates, flushBytes), i -> minThreshold, maxThreshold);
  }

  @Override
  public int estimatedPendingTasks(List<SSTableReader> candidates, long nowInSeconds, long flushBytes) {
    return TieredGroups.pendingTasks(buckets(candidates, flushBytes), i -> minThreshold, maxThreshold);
  }
}
