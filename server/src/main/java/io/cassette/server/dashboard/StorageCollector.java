package io.cassette.server.dashboard;

import io.cassette.metrics.Collector;
import io.cassette.metrics.MetricType;
import io.cassette.metrics.MetricsWriter;
import io.cassette.storage.Engine;
import io.cassette.storage.Table;
import io.cassette.storage.TableMetrics;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * Per-table storage statistics, read from each table's {@link TableMetrics} when {@code /metrics}
 * is scraped, so storage keeps its own counters and pays nothing for Prometheus.
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

  private final Engine engine;

  StorageCollector(Engine engine) {
    this.engine = engine;
  }

  @Override
  public void collect(MetricsWriter out) {
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
