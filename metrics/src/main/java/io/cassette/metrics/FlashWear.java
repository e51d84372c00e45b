package io.cassette.metrics;

import java.util.function.LongSupplier;

/**
 * Flash wear: bytes the node wrote to its storage device for each byte of user data it was
 * given (write amplification). The commit log writes each mutation once, flushes write it again
 * into SSTables, and compactions rewrite it; on SD cards and eMMC this ratio is what wears the
 * card out. Storage reports both sides; the ratio is exposed as {@code cassette_flash_wear_ratio}.
 * Thread-safe; updates allocate nothing.
 */
public final class FlashWear {
  /** Where the bytes written to the device come from. */
  public enum Source {
    COMMITLOG, FLUSH, COMPACTION, OTHER;

    final String label = name().toLowerCase(java.util.Locale.ROOT);
  }

  private final Counter userBytes;
  private final Counter[] deviceBytes = new Counter[Source.values().length];
  /** Totals kept elsewhere (the engine's own counters), used while nothing is fed here. */
  private volatile LongSupplier externalUser;
  private volatile LongSupplier externalDevice;

  FlashWear(MetricsRegistry registry) {
    userBytes = registry.counter("cassette_user_bytes_written_total",
        "Bytes of user data accepted in mutations (the denominator of flash wear)");
    MetricFamily<Counter> device = registry.counterFamily("cassette_disk_bytes_written_total",
        "Bytes written to the storage device, by what wrote them", "source");
    for (Source s : Source.values()) {
      deviceBytes[s.ordinal()] = device.labels(s.label);
    }
    registry.gauge("cassette_flash_wear_ratio",
        "Bytes written to the device per byte of user data since start (NaN before the first write)",
        this::ratio);
  }

  /** Storage: a mutation of {@code bytes} serialized bytes was accepted. */
  public void userBytesWritten(long bytes) {
    userBytes.add(bytes);
  }

  /** Storage: {@code bytes} were written to a file on the device. */
  public void deviceBytesWritten(Source source, long bytes) {
    deviceBytes[source.ordinal()].add(bytes);
  }

  public long userBytes() {
    return userBytes.value();
  }

  public long deviceBytes() {
    long sum = 0;
    for (Counter c : deviceBytes) {
      sum += c.value();
    }
    return sum;
  }

  public long deviceBytes(Source source) {
    return deviceBytes[source.ordinal()].value();
  }

  /**
   * Reads both totals from elsewhere (the engine's counters) for as long as nothing is fed
   * through {@link #userBytesWritten}: lets the server expose flash wear before storage calls
   * this class directly, and steps aside once it does.
   */
  public void readFrom(LongSupplier userBytes, LongSupplier deviceBytes) {
    externalDevice = deviceBytes;
    externalUser = userBytes;
  }

  /** Device bytes per user byte, or NaN before any user data. */
  public double ratio() {
    long user = userBytes();
    if (user > 0) {
      return (double) deviceBytes() / user;
    }
    LongSupplier u = externalUser;
    LongSupplier d = externalDevice;
    if (u == null || d == null) {
      return Double.NaN;
    }
    long extUser = u.getAsLong();
    return extUser == 0 ? Double.NaN : (double) d.getAsLong() / extUser;
  }
}
