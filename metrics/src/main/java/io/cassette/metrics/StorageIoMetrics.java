package io.cassette.metrics;

import java.util.function.DoubleSupplier;

/**
 * Storage-wide instruments the engine feeds: the commit log (appends, fsyncs and their latency,
 * unsynced backlog), flushes, compactions and disk-full episodes. Slow fsyncs, flushes and
 * compactions also become {@link LatencyMonitor} events; every byte written also counts toward
 * {@link FlashWear}. Per-table statistics are not here: the server reads them from each table
 * at scrape time, nor are the engine's own counters (storage's {@code StorageMetrics} record).
 * Thread-safe; each call allocates nothing below the latency threshold.
 */
public final class StorageIoMetrics {
  private final LatencyMonitor monitor;
  private final FlashWear wear;
  private final Counter commitLogAppends;
  private final Counter commitLogBytes;
  private final LatencyHistogram fsyncLatency;
  private final Gauge backlog;
  private final LatencyHistogram flushLatency;
  private final Counter flushBytes;
  private final LatencyHistogram compactionLatency;
  private final Counter compactionBytesRead;
  private final Counter compactionBytesWritten;
  private final Counter diskFullRefusals;
  private final MetricsRegistry registry;

  StorageIoMetrics(MetricsRegistry registry, LatencyMonitor monitor, FlashWear wear) {
    this.registry = registry;
    this.monitor = monitor;
    this.wear = wear;
    commitLogAppends = registry.counter("cassette_commitlog_appends_total", "Mutations appended to the commit log");
    commitLogBytes = registry.counter("cassette_commitlog_bytes_written_total", "Bytes appended to the commit log");
    fsyncLatency = registry.latency("cassette_commitlog_fsync_seconds", "Duration of commit-log fsyncs");
    backlog = registry.gauge("cassette_commitlog_backlog_bytes",
        "Commit-log bytes written but not yet fsynced; writers wait when this reaches its bound");
    flushLatency = registry.latency("cassette_memtable_flush_seconds", "Duration of memtable flushes");
    flushBytes = registry.counter("cassette_memtable_flush_bytes_total", "Bytes of SSTables written by flushes");
    compactionLatency = registry.latency("cassette_compaction_seconds", "Duration of compaction tasks");
    compactionBytesRead = registry.counter("cassette_compaction_bytes_read_total", "Bytes of SSTables read by compactions");
    compactionBytesWritten = registry.counter("cassette_compaction_bytes_written_total",
        "Bytes of SSTables written by compactions");
    diskFullRefusals = registry.counter("cassette_disk_full_refusals_total", "Writes refused because the disk was full");
  }

  /** A mutation of {@code bytes} was appended to the commit log (and so accepted from a user). */
  public void commitLogAppended(long bytes) {
    commitLogAppends.inc();
    commitLogBytes.add(bytes);
    wear.userBytesWritten(bytes);
    wear.deviceBytesWritten(FlashWear.Source.COMMITLOG, bytes);
  }

  /** One fsync of {@code segment} took {@code micros}. */
  public void commitLogSynced(long micros, String segment) {
    fsyncLatency.record(micros);
    monitor.record(LatencyEvents.COMMITLOG_FSYNC, micros, segment);
  }

  /** The unsynced backlog is now {@code bytes}. */
  public void commitLogBacklog(long bytes) {
    backlog.set(bytes);
  }

  /** A flush of {@code table} ({@code keyspace.table}) wrote {@code bytes} in {@code micros}. */
  public void memtableFlushed(String table, long micros, long bytes) {
    flushLatency.record(micros);
    flushBytes.add(bytes);
    wear.deviceBytesWritten(FlashWear.Source.FLUSH, bytes);
    monitor.record(LatencyEvents.MEMTABLE_FLUSH, micros, table);
  }

  /** A compaction of {@code table} read {@code bytesRead} and wrote {@code bytesWritten} in {@code micros}. */
  public void compacted(String table, long micros, long bytesRead, long bytesWritten) {
    compactionLatency.record(micros);
    compactionBytesRead.add(bytesRead);
    compactionBytesWritten.add(bytesWritten);
    wear.deviceBytesWritten(FlashWear.Source.COMPACTION, bytesWritten);
    monitor.record(LatencyEvents.COMPACTION, micros, table);
  }

  /** A write was refused because the disk under {@code path} was full. */
  public void diskFullRefusal() {
    diskFullRefusals.inc();
  }

  /** Writes resume after being refused for {@code micros} because {@code path} was full. */
  public void diskFullEnded(long micros, String path) {
    monitor.record(LatencyEvents.DISK_FULL, micros, path);
  }

  /** A gauge the engine reads itself, such as pending compactions ({@code cassette_compactions_pending}). */
  public void gauge(String name, String help, DoubleSupplier supplier) {
    registry.gauge(name, help, supplier);
  }

  public long fsyncCount() {
    return fsyncLatency.count();
  }

  public LatencyHistogram fsyncLatency() {
    return fsyncLatency;
  }

  public LatencyHistogram flushLatency() {
    return flushLatency;
  }

  public LatencyHistogram compactionLatency() {
    return compactionLatency;
  }

  public long commitLogAppends() {
    return commitLogAppends.value();
  }

  public long backlogBytes() {
    return (long) backlog.value();
  }

  public long compactionBytesWritten() {
    return compactionBytesWritten.value();
  }
}
