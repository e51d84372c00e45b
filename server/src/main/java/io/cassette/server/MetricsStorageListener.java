package io.cassette.server;

import io.cassette.metrics.NodeMetrics;
import io.cassette.storage.StorageListener;

/**
 * Feeds the engine's fsyncs, flushes and compactions to the node's metrics and latency
 * monitor (commitlog-fsync, memtable-flush and compaction events); storage itself knows no
 * metrics library.
 */
final class MetricsStorageListener implements StorageListener {
  private final NodeMetrics metrics;

  MetricsStorageListener(NodeMetrics metrics) {
    this.metrics = metrics;
  }

  @Override
  public void commitLogSynced(long micros, String segment) {
    metrics.storage().commitLogSynced(micros, segment);
  }

  @Override
  public void memtableFlushed(String table, long micros, long bytes) {
    metrics.storage().memtableFlushed(table, micros, bytes);
  }

  @Override
  public void compacted(String table, long micros, long bytesRead, long bytesWritten) {
    metrics.storage().compacted(table, micros, bytesRead, bytesWritten);
  }
}
