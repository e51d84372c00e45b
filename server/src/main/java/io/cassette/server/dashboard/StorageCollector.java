package io.cassette.server.dashboard;

import io.cassette.metrics.Collector;
import io.cassette.metrics.MetricType;
import io.cassette.metrics.MetricsWriter;
import io.cassette.storage.Engine;
import io.cassette.storage.StorageMetrics;
import io.cassette.storage.Table;
import io.cassette.storage.TableMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Storage statistics the engine keeps itself, engine-wide ({@link StorageMetrics}) and per table
 * ({@link TableMetrics}), read when {@code /metrics} is scraped, so storage pays nothing for
 * Prometheus. The {@code cassette_storage_*} families are the engine's counters as they are; the
 * {@code cassette_commitlog_*} histograms come from storage calling the metrics module's hooks.
 */
final class StorageCollector implements Collector {
  private static final List<String> LABELS = List.of("keyspace", "table");
  private static final double MICROS_PER_SECOND = 1_000_000.0;

  /** One exposed family: name, type, help and how to read it from a table's metrics. */
  private record Family(String name, MetricType type, String help, ToDoubleFunction<TableMetrics> read) {}

  private static final List<Family> FAMILIES = List.of(
      new Family("cassette_table_reads_total", MetricType.COUNTER, "Partition reads", TableMetrics::reads),
      new Family("cassette_table_writes_total", MetricType.COUNTER, "Partition updates applied", TableMetrics::writes),
      new Family("cassette_table_read_latency_seconds_total", MetricType.COUNTER,
          "Time spent reading (divide by reads for the mean)", m -> m.readLatencyMicrosTotal() / MICROS_PER_SECOND),
      new Family("cassette_table_write_latency_seconds_total", MetricType.COUNTER,
          "Time spent writing (divide by writes for the mean)", m -> m.writeLatencyMicrosTotal() / MICROS_PER_SECOND),
      new Family("cassette_table_sstables", MetricType.GAUGE, "Live SSTables", TableMetrics::sstableCount),
      new Family("cassette_table_disk_bytes", MetricType.GAUGE, "Bytes of live SSTables on disk", TableMetrics::bytesOnDisk),
      new Family("cassette_table_bytes_written_total", MetricType.COUNTER,
          "Bytes written for the table by flushes and compactions", TableMetrics::bytesWritten),
      new Family("cassette_table_memtable_bytes", MetricType.GAUGE, "Bytes held by the memtable", TableMetrics::memtableBytes),
      new Family("cassette_table_pending_compactions", MetricType.GAUGE, "Compactions waiting to run",
          TableMetrics::pendingCompactions),
      new Family("cassette_table_bloom_filter_false_positives_total", MetricType.COUNTER,
          "Reads the Bloom filter let through to an SSTable that did not hold the key",
          TableMetrics::bloomFilterFalsePositives));

  /** One engine-wide family, read from the engine's own counters. */
  private record EngineFamily(String name, MetricType type, String help, ToDoubleFunction<StorageMetrics> read) {}

  private static final List<EngineFamily> ENGINE_FAMILIES = List.of(
      new EngineFamily("cassette_storage_write_stalls_total", MetricType.COUNTER,
          "Writes that waited because memtables used their whole budget", StorageMetrics::writeStalls),
      new EngineFamily("cassette_storage_write_stall_seconds_total", MetricType.COUNTER,
          "Time writers spent waiting for memtable space", m -> m.writeStallMicros() / MICROS_PER_SECOND),
      new EngineFamily("cassette_storage_memtable_bytes", MetricType.GAUGE,
          "Heap held by all memtables, active and flushing", StorageMetrics::memtableBytes),
      new EngineFamily("cassette_storage_memtable_budget_bytes", MetricType.GAUGE,
          "Heap budget of all memtables; flushes start at half", StorageMetrics::memtableBudgetBytes),
      new EngineFamily("cassette_storage_pending_flushes", MetricType.GAUGE,
          "Memtables switched out and not yet written", StorageMetrics::pendingFlushes),
      new EngineFamily("cassette_storage_commitlog_syncs_total", MetricType.COUNTER,
          "Completed commit-log fsyncs", StorageMetrics::commitLogSyncs),
      new EngineFamily("cassette_storage_commitlog_sync_seconds_total", MetricType.COUNTER,
          "Time spent in commit-log fsync", m -> m.commitLogSyncMicrosTotal() / MICROS_PER_SECOND),
      new EngineFamily("cassette_storage_commitlog_sync_seconds_max", MetricType.GAUGE,
          "The slowest commit-log fsync since open", m -> m.commitLogSyncMicrosMax() / MICROS_PER_SECOND),
      new EngineFamily("cassette_storage_commitlog_backpressure_waits_total", MetricType.COUNTER,
          "Writes that waited for a stalled fsync (backlog full)", StorageMetrics::commitLogBackPressureWaits),
      new EngineFamily("cassette_storage_commitlog_backpressure_seconds_total", MetricType.COUNTER,
          "Time writes spent waiting for a stalled fsync", m -> m.commitLogBackPressureMicros() / MICROS_PER_SECOND),
      new EngineFamily("cassette_storage_commitlog_bytes_total", MetricType.COUNTER,
          "Bytes appended to the commit log since open", StorageMetrics::commitLogBytes),
      new EngineFamily("cassette_storage_commitlog_segments", MetricType.GAUGE,
          "Commit-log segment files on disk", StorageMetrics::commitLogSegments),
      new EngineFamily("cassette_storage_flushes_total", MetricType.COUNTER,
          "Completed memtable flushes since open", StorageMetrics::flushes),
      new EngineFamily("cassette_storage_compactions_total", MetricType.COUNTER,
          "Completed compactions since open", StorageMetrics::compactions),
      new EngineFamily("cassette_storage_compaction_bytes_written_total", MetricType.COUNTER,
          "Bytes written by compactions since open", StorageMetrics::compactionBytesWritten));

  private final Engine engine;

  StorageCollector(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void collect(MetricsWriter out) {
    StorageMetrics engineMetrics = engine.metrics();
    for (EngineFamily f : ENGINE_FAMILIES) {
      out.family(f.name(), f.type(), f.help());
      out.sample(f.name(), List.of(), List.of(), f.read().applyAsDouble(engineMetrics));
    }
    List<Table> tables = new ArrayList<>(engine.tables());
    List<TableMetrics> metrics = new ArrayList<>(tables.size());
    for (Table t : tables) {
      metrics.add(t.metrics());
    }
    for (Family f : FAMILIES) {
      out.family(f.name(), f.type(), f.help());
      for (int i = 0; i < tables.size(); i++) {
        out.sample(f.name(), LABELS, List.of(tables.get(i).spec().keyspace(), tables.get(i).spec().name()),
            f.read().applyAsDouble(metrics.get(i)));
      }
    }
  }
}
