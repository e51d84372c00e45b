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
 */
public final class SizeTieredStrategy implements CompactionStrategy {
  static final int DEFAULT_MIN_THRESHOLD = 4;
  static final int DEFAULT_MAX_THRESHOLD = 32;
  static final double DEFAULT_BUCKET_LOW = 0.5;
  static final double DEFAULT_BUCKET_HIGH = 1.5;
  static final long DEFAULT_MIN_SSTABLE_SIZE = 50L << 20;

  private final int minThreshold;
  private final int maxThreshold;
  private final double bucketLow;
  private final double bucketHigh;
  private final long minSSTableSize;

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
          Long.parseLong(o.getOrDefault("min_sstable_size", "" + DEFAULT_MIN_SSTABLE_SIZE)));
    } catch (NumberFormatException e) {
      throw new StorageException("bad size-tiered compaction option: " + e.getMessage());
    }
  }

  List<List<SSTableReader>> buckets(List<SSTableReader> sstables) {
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
  public List<SSTableReader> nextBackgroundTask(List<SSTableReader> candidates, long nowInSeconds) {
    for (List<SSTableReader> b : buckets(candidates)) {
      if (b.size() >= minThreshold) {
        return new ArrayList<>(b.subList(0, Math.min(maxThreshold, b.size())));
      }
    }
    return List.of();
  }

  @Override
  public int estimatedPendingTasks(List<SSTableReader> candidates, long nowInSeconds) {
    int n = 0;
    for (List<SSTableReader> b : buckets(candidates)) {
      if (b.size() >= minThreshold) {
        n += (b.size() + maxThreshold - 1) / maxThreshold;
      }
    }
    return n;
  }
}
