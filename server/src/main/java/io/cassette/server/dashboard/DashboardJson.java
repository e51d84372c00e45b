package io.cassette.server.dashboard;

import io.cassette.server.http.JsonWriter;
import io.cassette.metrics.Counter;
import io.cassette.metrics.FlashWear;
import io.cassette.metrics.JvmMetrics;
import io.cassette.metrics.LatencyHistogram;
import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.LatencySnapshot;
import io.cassette.metrics.LatencyTable;
import io.cassette.metrics.NodeMetrics;
import io.cassette.metrics.Percentiles;
import io.cassette.metrics.RequestMetrics;
import io.cassette.metrics.SlowLog;
import io.cassette.metrics.SlowLogEntry;
import io.cassette.server.Version;
import io.cassette.storage.Engine;
import io.cassette.storage.StorageMetrics;
import io.cassette.storage.Table;
import io.cassette.storage.TableMetrics;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.FileStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The small JSON documents the dashboard polls ({@code /api/dashboard.json}) and
 * {@code nodetool latency} reads ({@code /api/latency}). Counts are cumulative: the page turns
 * them into rates between polls. Durations are milliseconds (fractions allowed), sizes bytes.
 */
final class DashboardJson {
  /** Slow-log entries shown per front door. */
  static final int SLOWLOG_ENTRIES = 10;
  private static final String[] DOORS = {"cql", "resp"};

  private final NodeMetrics metrics;
  private final JvmMetrics jvm;
  private final Engine engine;
  private final Path dataDirectory;
  private final String clusterName;
  private final String listen;

  DashboardJson(NodeMetrics metrics, Engine engine, Path dataDirectory, String clusterName, String listen) {
    this.metrics = metrics;
    this.jvm = metrics.startJvmMetrics();
    this.engine = engine;
    this.dataDirectory = dataDirectory;
    this.clusterName = clusterName;
    this.listen = listen;
  }

  String dashboard() {
    JsonWriter j = new JsonWriter().beginObject();
    node(j);
    doors(j);
    List<Table> tables = new ArrayList<>(engine.tables());
    tables.sort(Comparator.comparing((Table t) -> t.spec().keyspace()).thenComparing(t -> t.spec().name()));
    List<TableMetrics> tableMetrics = new ArrayList<>();
    for (Table t : tables) {
      tableMetrics.add(t.metrics());
    }
    StorageMetrics engineMetrics = engine.metrics();
    storage(j, engineMetrics, tableMetrics);
    disk(j, engineMetrics, tableMetrics);
    tables(j, tables, tableMetrics);
    latency(j);
    slowLog(j);
    return j.endObject().toString();
  }

  /** For {@code nodetool latency}: the events, their history, the text table and the doctor's report. */
  String latency() {
    JsonWriter j = new JsonWriter().beginObject();
    latency(j);
    j.field("table", LatencyTable.latest(metrics.latencyMonitor()));
    return j.endObject().toString();
  }

  private void node(JsonWriter j) {
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    j.name("node").beginObject()
        .field("version", Version.get())
        .field("cluster", clusterName)
        .field("listen", listen)
        .field("now", System.currentTimeMillis())
        .field("uptimeSeconds", ManagementFactory.getRuntimeMXBean().getUptime() / 1000)
        .field("heapUsedBytes", heap.getUsed())
        .field("heapMaxBytes", Runtime.getRuntime().maxMemory())
        .field("threads", ManagementFactory.getThreadMXBean().getThreadCount())
        .field("processors", Runtime.getRuntime().availableProcessors());
    LatencySnapshot gc = jvm.pauses().snapshot();
    j.field("gcPauses", gc.count()).field("gcPauseMillisTotal", gc.sumMicros() / 1000.0)
        .field("gcPauseMaxMillis", gc.allTime().max() / 1000.0);
    j.endObject();
  }

  private void doors(JsonWriter j) {
    j.name("doors").beginArray();
    for (String door : DOORS) {
      RequestMetrics r = metrics.requests(door);
      LatencySnapshot s = r.latency().snapshot();
      j.beginObject().field("door", door).field("requests", s.count()).field("errors", r.errors())
          .field("connections", r.openConnections());
      percentiles(j, "recent", s.recent());
      percentiles(j, "allTime", s.allTime());
      j.endObject();
    }
    j.endArray();
    j.name("requests").beginArray();
    for (String door : DOORS) {
      RequestMetrics r = metrics.requests(door);
      Map<String, Counter> errors = r.errorsByType();
      for (Map.Entry<String, LatencyHistogram> e : new java.util.TreeMap<>(r.latencyByType()).entrySet()) {
        LatencySnapshot s = e.getValue().snapshot();
        Counter err = errors.get(e.getKey());
        j.beginObject().field("door", door).field("type", e.getKey()).field("count", s.count())
            .field("errors", err == null ? 0 : err.value());
        percentiles(j, "recent", s.recent());
        percentiles(j, "allTime", s.allTime());
        j.endObject();
      }
    }
    j.endArray();
  }

  /**
   * Counts come from the engine's own counters; percentiles from the metrics module's histograms
   * once storage feeds them (until then their count is 0 and the page shows the engine's max).
   */
  private void storage(JsonWriter j, StorageMetrics engineMetrics, List<TableMetrics> tables) {
    LatencySnapshot fsync = metrics.storage().fsyncLatency().snapshot();
    long pending = 0;
    for (TableMetrics m : tables) {
      pending += m.pendingCompactions();
    }
    j.name("storage").beginObject()
        .field("commitLogAppends", metrics.storage().commitLogAppends())
        .field("commitLogBytes", Math.max(engineMetrics.commitLogBytes(), metrics.flashWear().deviceBytes(FlashWear.Source.COMMITLOG)))
        .field("commitLogSegments", engineMetrics.commitLogSegments())
        .field("commitLogBacklogBytes", metrics.storage().backlogBytes())
        .field("backPressureWaits", engineMetrics.commitLogBackPressureWaits())
        .field("fsyncs", Math.max(engineMetrics.commitLogSyncs(), fsync.count()))
        .field("fsyncMaxMillis", Math.max(engineMetrics.commitLogSyncMicrosMax(), fsync.allTime().max()) / 1000.0);
    percentiles(j, "fsyncAllTime", fsync.allTime());
    j.field("memtableBytes", engineMetrics.memtableBytes())
        .field("memtableBudgetBytes", engineMetrics.memtableBudgetBytes())
        .field("writeStalls", engineMetrics.writeStalls())
        .field("flushes", Math.max(engineMetrics.flushes(), metrics.storage().flushLatency().count()))
        .field("compactionsCompleted", Math.max(engineMetrics.compactions(), metrics.storage().compactionLatency().count()))
        .field("compactionsPending", pending)
        .field("compactionBytesWritten", Math.max(engineMetrics.compactionBytesWritten(),
            metrics.storage().compactionBytesWritten()))
        .endObject();
  }

  /**
   * Flash wear from the metrics module's counters once storage feeds them; until then from the
   * engine's: user bytes = commit-log bytes (each mutation is logged once), device bytes = commit
   * log + SSTables written by flushes and compactions.
   */
  private void disk(JsonWriter j, StorageMetrics engineMetrics, List<TableMetrics> tables) {
    long onDisk = 0;
    long sstablesWritten = 0;
    for (TableMetrics m : tables) {
      onDisk += m.bytesOnDisk();
      sstablesWritten += m.bytesWritten();
    }
    FlashWear wear = metrics.flashWear();
    j.name("disk").beginObject().field("path", dataDirectory.toString()).field("tablesBytes", onDisk);
    try {
      Path p = dataDirectory.toAbsolutePath();
      while (p != null && !Files.exists(p)) {
        p = p.getParent();
      }
      if (p != null) {
        FileStore store = Files.getFileStore(p);
        j.field("totalBytes", store.getTotalSpace()).field("freeBytes", store.getUsableSpace());
      }
    } catch (IOException e) {
      j.field("error", e.toString());
    }
    boolean fed = wear.userBytes() > 0;
    long compaction = fed ? wear.deviceBytes(FlashWear.Source.COMPACTION) : engineMetrics.compactionBytesWritten();
    j.field("userBytesWritten", fed ? wear.userBytes() : engineMetrics.commitLogBytes())
        .field("commitLogBytesWritten", fed ? wear.deviceBytes(FlashWear.Source.COMMITLOG) : engineMetrics.commitLogBytes())
        .field("flushBytesWritten", fed ? wear.deviceBytes(FlashWear.Source.FLUSH) : Math.max(0, sstablesWritten - compaction))
        .field("compactionBytesWritten", compaction)
        .field("flashWear", wear.ratio())
        .endObject();
  }

  private static void tables(JsonWriter j, List<Table> tables, List<TableMetrics> metrics) {
    j.name("tables").beginArray();
    for (int i = 0; i < tables.size(); i++) {
      TableMetrics m = metrics.get(i);
      j.beginObject().field("keyspace", tables.get(i).spec().keyspace()).field("table", tables.get(i).spec().name())
          .field("reads", m.reads()).field("writes", m.writes()).field("sstables", m.sstableCount())
          .field("bytesOnDisk", m.bytesOnDisk()).field("memtableBytes", m.memtableBytes())
          .field("bytesWritten", m.bytesWritten()).field("pendingCompactions", m.pendingCompactions())
          .field("bloomFilterFalsePositives", m.bloomFilterFalsePositives())
          .endObject();
    }
    j.endArray();
  }

  private void latency(JsonWriter j) {
    LatencyMonitor monitor = metrics.latencyMonitor();
    j.name("latency").beginObject().field("thresholdMillis", monitor.thresholdMillis());
    j.name("events").beginArray();
    for (LatencyMonitor.Latest l : monitor.latest()) {
      j.beginObject().field("event", l.event()).field("time", l.epochSecond())
          .field("latestMillis", l.latestMicros() / 1000.0).field("maxMillis", l.maxMicros() / 1000.0)
          .field("spikes", l.events()).field("worstContext", l.maxContext())
          .name("history").beginArray();
      for (LatencyMonitor.Sample s : monitor.history(l.event())) {
        j.beginArray().value(s.epochSecond()).value(s.micros() / 1000.0).endArray();
      }
      j.endArray().endObject();
    }
    j.endArray();
    j.field("doctor", metrics.latencyDoctor().report());
    j.endObject();
  }

  private void slowLog(JsonWriter j) {
    j.name("slowlog").beginArray();
    for (String door : DOORS) {
      SlowLog log = door.equals("cql") ? metrics.cqlSlowLog() : metrics.respSlowLog();
      for (SlowLogEntry e : log.get(SLOWLOG_ENTRIES)) {
        j.beginObject().field("door", door).field("id", e.id()).field("time", e.epochSecond())
            .field("durationMillis", e.durationMicros() / 1000.0).field("statement", String.join(" ", e.args()))
            .field("client", e.client()).endObject();
      }
    }
    j.endArray();
  }

  private static void percentiles(JsonWriter j, String name, Percentiles p) {
    j.name(name).beginObject().field("count", p.count()).field("p50", p.p50() / 1000.0)
        .field("p95", p.p95() / 1000.0).field("p99", p.p99() / 1000.0).field("p999", p.p999() / 1000.0)
        .field("max", p.max() / 1000.0).endObject();
  }
}
