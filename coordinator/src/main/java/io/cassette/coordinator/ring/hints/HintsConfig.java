package io.cassette.coordinator.ring.hints;

import java.nio.file.Path;
import java.time.Duration;

/**
 * Hinted handoff's settings, with Cassandra's key names.
 *
 * @param enabled            {@code hinted_handoff_enabled}: false stores no hint
 * @param directory          {@code hints_directory} (default {@code <data_directory>/hints})
 * @param maxHintWindow      {@code max_hint_window}: no hints for a node down longer than this (3h)
 * @param throttleBytesPerSecond {@code hinted_handoff_throttle}: per delivery thread, divided
 *                           among the other nodes as Cassandra does (1024 KiB/s); 0 = unthrottled
 * @param maxDeliveryThreads {@code max_hints_delivery_threads} (2)
 * @param maxHintsFileSize   {@code max_hints_file_size}: a hints file is closed past this (128 MiB)
 * @param maxHintsSizePerHost {@code max_hints_size_per_host}: hints for one node stop being
 *                           stored past this; 0 = unbounded (Cassandra's default; ours 64 MiB, a
 *                           board's SD card is small)
 * @param flushPeriod        {@code hints_flush_period}: how often appended hints are fsynced (10 s)
 * @param dispatchInterval   how often nodes with hints are checked for UP (and delivered to)
 */
public record HintsConfig(boolean enabled, Path directory, Duration maxHintWindow, long throttleBytesPerSecond,
                          int maxDeliveryThreads, long maxHintsFileSize, long maxHintsSizePerHost,
                          Duration flushPeriod, Duration dispatchInterval) {
  public static final Duration DEFAULT_WINDOW = Duration.ofHours(3);

  public HintsConfig {
    if (maxDeliveryThreads < 1) {
      throw new IllegalArgumentException("max_hints_delivery_threads must be at least 1, not " + maxDeliveryThreads);
    }
    if (maxHintsFileSize < RecordFile.HEADER_BYTES + RecordFile.RECORD_OVERHEAD) {
      throw new IllegalArgumentException("max_hints_file_size is too small: " + maxHintsFileSize);
    }
  }

  /** The defaults above, in {@code directory}. */
  public static HintsConfig defaults(Path directory) {
    return new HintsConfig(true, directory, DEFAULT_WINDOW, 1024 * 1024, 2, 128L << 20, 64L << 20,
        Duration.ofSeconds(10), Duration.ofSeconds(10));
  }

  public HintsConfig withEnabled(boolean on) {
    return new HintsConfig(on, directory, maxHintWindow, throttleBytesPerSecond, maxDeliveryThreads, maxHintsFileSize,
        maxHintsSizePerHost, flushPeriod, dispatchInterval);
  }

  public HintsConfig withWindow(Duration window) {
    return new HintsConfig(enabled, directory, window, throttleBytesPerSecond, maxDeliveryThreads, maxHintsFileSize,
        maxHintsSizePerHost, flushPeriod, dispatchInterval);
  }

  public HintsConfig withSizes(long fileSize, long perHost) {
    return new HintsConfig(enabled, directory, maxHintWindow, throttleBytesPerSecond, maxDeliveryThreads, fileSize,
        perHost, flushPeriod, dispatchInterval);
  }

  public HintsConfig withThrottle(long bytesPerSecond) {
    return new HintsConfig(enabled, directory, maxHintWindow, bytesPerSecond, maxDeliveryThreads, maxHintsFileSize,
        maxHintsSizePerHost, flushPeriod, dispatchInterval);
  }

  public HintsConfig withDispatchInterval(Duration interval) {
    return new HintsConfig(enabled, directory, maxHintWindow, throttleBytesPerSecond, maxDeliveryThreads,
        maxHintsFileSize, maxHintsSizePerHost, flushPeriod, interval);
  }
}
