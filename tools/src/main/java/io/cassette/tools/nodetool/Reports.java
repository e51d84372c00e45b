package io.cassette.tools.nodetool;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Turns the admin API's JSON into the text Cassandra's nodetool prints, column for column where
 * Cassandra has the figure, so an operator's eyes and scripts (awk on "UN") keep working.
 * Pure functions of their input: the tests feed them JSON and read the text.
 */
final class Reports {
  private Reports() {}

  /** nodetool status: one block per data centre, as Cassandra prints it. */
  static String status(JsonNode status) {
    StringBuilder out = new StringBuilder();
    // Cassandra: "Owns (effective)" with percentages, or, when effective ownership is
    // meaningless (user keyspaces replicated differently), "Owns" with "?" and a note at the end.
    boolean effective = status.path("effectiveOwnership").asBoolean(true);
    for (JsonNode dc : dataCenters(status)) {
      String title = "Datacenter: " + dc.path("name").asText();
      out.append(title).append('\n').append("=".repeat(title.length())).append('\n');
      out.append("Status=Up/Down\n|/ State=Normal/Leaving/Joining/Moving\n");
      List<String[]> rows = new ArrayList<>();
      rows.add(new String[] {"--", "Address", "Load", "Tokens", effective ? "Owns (effective)" : "Owns", "Host ID",
          "Rack"});
      for (JsonNode n : dc.path("nodes")) {
        rows.add(new String[] {n.path("state").asText(), n.path("address").asText(), load(n),
            Integer.toString(n.path("tokens").size()), effective ? percent(n.path("owns").asDouble(), 1) : "?",
            n.path("hostId").asText(), n.path("rack").asText()});
      }
      table(out, rows, 2);
      out.append('\n');
    }
    if (status.has("note")) {
      out.append("Note: ").append(status.path("note").asText()).append('\n');
    }
    return out.substring(0, out.length() - 1);
  }

  /** The "datacenters" array of a ring's status, or the single node's one data centre. */
  private static List<JsonNode> dataCenters(JsonNode status) {
    List<JsonNode> out = new ArrayList<>();
    if (status.has("datacenters")) {
      status.path("datacenters").forEach(out::add);
    } else {
      out.add(com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode()
          .put("name", status.path("datacenter").asText()).set("nodes", status.path("nodes")));
    }
    return out;
  }

  /** A node's load, or "?" when the node answering does not know it (a peer's, on a ring). */
  private static String load(JsonNode n) {
    long bytes = n.path("loadBytes").asLong();
    return bytes < 0 ? "?" : Sizes.human(bytes);
  }

  /** nodetool ring: one line per token, as Cassandra prints it. */
  static String ring(JsonNode status) {
    StringBuilder out = new StringBuilder();
    for (JsonNode dc : dataCenters(status)) {
      out.append('\n');
      out.append("Datacenter: ").append(dc.path("name").asText()).append('\n').append("==========").append('\n');
      int addressWidth = "Address".length();
      java.util.TreeMap<Long, JsonNode> byToken = new java.util.TreeMap<>();
      for (JsonNode n : dc.path("nodes")) {
        addressWidth = Math.max(addressWidth, n.path("address").asText().length());
        for (JsonNode t : n.path("tokens")) {
          byToken.put(Long.parseLong(t.asText()), n);
        }
      }
      String format = "%-" + (addressWidth + 2) + "s%-12s%-7s%-8s%-16s%-20s%-44s%n";
      out.append(String.format(Locale.ROOT, format, "Address", "Rack", "Status", "State", "Load",
          "Owns", "Token"));
      out.append(String.format(Locale.ROOT, format, "", "", "", "", "", "",
          byToken.isEmpty() ? "" : Long.toString(byToken.lastKey())));
      for (Map.Entry<Long, JsonNode> e : byToken.entrySet()) {
        JsonNode n = e.getValue();
        String up = n.path("state").asText().startsWith("U") ? "Up" : "Down";
        String state = switch (n.path("nodeState").asText("NORMAL")) {
          case "JOINING", "REGISTERED" -> "Joining";
          case "LEAVING" -> "Leaving";
          default -> "Normal";
        };
        out.append(String.format(Locale.ROOT, format, n.path("address").asText(),
            n.path("rack").asText(), up, state, load(n), percent(n.path("owns").asDouble(), 2),
            Long.toString(e.getKey())));
      }
    }
    return out.toString();
  }

  /** nodetool getendpoints: one address per line. */
  static String endpoints(JsonNode e) {
    StringBuilder out = new StringBuilder();
    for (JsonNode a : e.path("endpoints")) {
      out.append(a.asText()).append('\n');
    }
    return out.toString();
  }

  /** nodetool info [-T]. */
  static String info(JsonNode info, boolean allTokens) {
    Map<String, String> lines = new LinkedHashMap<>();
    lines.put("ID", info.path("id").asText());
    lines.put("Gossip active", Boolean.toString(info.path("gossipActive").asBoolean()));
    lines.put("Native Transport active", Boolean.toString(info.path("nativeTransportActive").asBoolean()));
    lines.put("Load", Sizes.human(info.path("loadBytes").asLong()));
    lines.put("Generation No", info.path("generation").asText());
    lines.put("Uptime (seconds)", info.path("uptimeSeconds").asText());
    lines.put("Heap Memory (MB)", mb(info.path("heapUsedBytes").asLong()) + " / "
        + mb(info.path("heapMaxBytes").asLong()));
    lines.put("Off Heap Memory (MB)", mb(info.path("offHeapBytes").asLong()));
    lines.put("Memtables (MB)", mb(info.path("memtableBytes").asLong()) + " / "
        + mb(info.path("memtableBudgetBytes").asLong()));
    lines.put("Data Center", info.path("datacenter").asText());
    lines.put("Rack", info.path("rack").asText());
    lines.put("Mode", info.path("mode").asText());
    lines.put("Data directory", info.path("dataDirectory").asText());
    lines.put("Commit log directory", info.path("commitLogDirectory").asText());
    StringBuilder out = new StringBuilder();
    lines.forEach((k, v) -> out.append(String.format(Locale.ROOT, "%-23s: %s%n", k, v)));
    JsonNode tokens = info.path("tokens");
    if (allTokens) {
      for (JsonNode t : tokens) {
        out.append(String.format(Locale.ROOT, "%-23s: %s%n", "Token", t.asText()));
      }
    } else {
      out.append(String.format(Locale.ROOT, "%-23s: (invoke with -T/--tokens to see all %d tokens)%n",
          "Token", tokens.size()));
    }
    return out.toString();
  }

  /** nodetool describecluster. */
  static String describeCluster(JsonNode c) {
    StringBuilder out = new StringBuilder("Cluster Information:\n");
    out.append("\tName: ").append(c.path("name").asText()).append('\n');
    out.append("\tSnitch: ").append(c.path("snitch").asText()).append('\n');
    out.append("\tDynamicEndPointSnitch: disabled\n");
    out.append("\tPartitioner: ").append(c.path("partitioner").asText()).append('\n');
    if (c.has("epoch")) {
      out.append("\tMetadata epoch: ").append(c.path("epoch").asLong()).append('\n');
    }
    out.append("\tSchema versions:\n");
    fields(c.path("schemaVersions")).forEach((v, hosts) ->
        out.append("\t\t").append(v).append(": ").append(list(hosts)).append("\n\n"));
    out.append("Stats for all nodes:\n");
    out.append("\tLive: ").append(c.path("live").asLong()).append('\n');
    out.append("\tJoining: ").append(c.path("joining").asLong()).append('\n');
    out.append("\tMoving: ").append(c.path("moving").asLong()).append('\n');
    out.append("\tLeaving: ").append(c.path("leaving").asLong()).append('\n');
    out.append("\tUnreachable: ").append(c.path("unreachable").asLong()).append("\n\n");
    out.append("Data Centers: \n");
    fields(c.path("datacenters")).forEach((dc, n) -> out.append('\t').append(dc).append(" #Nodes: ")
        .append(n.path("nodes").asLong()).append(" #Down: ").append(n.path("down").asLong()).append('\n'));
    out.append("\nDatabase versions:\n");
    fields(c.path("versions")).forEach((v, hosts) ->
        out.append("\t\t").append(v).append(": ").append(list(hosts)).append("\n\n"));
    out.append("Keyspaces:\n");
    for (JsonNode ks : c.path("keyspaces")) {
      out.append('\t').append(ks.asText()).append('\n');
    }
    return out.toString();
  }

  /** nodetool tablestats [-H]: grouped by keyspace, totals first, as Cassandra does. */
  static String tableStats(JsonNode stats, boolean human) {
    Map<String, List<JsonNode>> byKeyspace = new LinkedHashMap<>();
    for (JsonNode t : stats.path("tables")) {
      byKeyspace.computeIfAbsent(t.path("keyspace").asText(), k -> new ArrayList<>()).add(t);
    }
    StringBuilder out = new StringBuilder();
    out.append("Total number of tables: ").append(stats.path("tables").size()).append('\n');
    out.append("----------------\n");
    for (Map.Entry<String, List<JsonNode>> ks : byKeyspace.entrySet()) {
      long reads = 0;
      long writes = 0;
      long readMicros = 0;
      long writeMicros = 0;
      for (JsonNode t : ks.getValue()) {
        reads += t.path("reads").asLong();
        writes += t.path("writes").asLong();
        readMicros += t.path("readLatencyMicrosTotal").asLong();
        writeMicros += t.path("writeLatencyMicrosTotal").asLong();
      }
      out.append("Keyspace : ").append(ks.getKey()).append('\n');
      out.append("\tRead Count: ").append(reads).append('\n');
      out.append("\tRead Latency: ").append(latencyMs(readMicros, reads)).append(" ms\n");
      out.append("\tWrite Count: ").append(writes).append('\n');
      out.append("\tWrite Latency: ").append(latencyMs(writeMicros, writes)).append(" ms\n");
      out.append("\tPending Flushes: 0\n");
      for (JsonNode t : ks.getValue()) {
        String p = "\t\t";
        out.append(p).append("Table: ").append(t.path("table").asText()).append('\n');
        out.append(p).append("SSTable count: ").append(t.path("sstableCount").asLong()).append('\n');
        out.append(p).append("Space used (live): ").append(Sizes.bytes(t.path("bytesOnDisk").asLong(), human)).append('\n');
        out.append(p).append("Space used (total): ").append(Sizes.bytes(t.path("bytesOnDisk").asLong(), human)).append('\n');
        out.append(p).append("Space used by snapshots (total): ").append(Sizes.bytes(t.path("snapshotBytes").asLong(), human)).append('\n');
        out.append(p).append("Bytes written (total): ").append(Sizes.bytes(t.path("bytesWritten").asLong(), human)).append('\n');
        out.append(p).append("Memtable data size: ").append(Sizes.bytes(t.path("memtableBytes").asLong(), human)).append('\n');
        out.append(p).append("Local read count: ").append(t.path("reads").asLong()).append('\n');
        out.append(p).append("Local read latency: ").append(latencyMs(t.path("readLatencyMicrosTotal").asLong(), t.path("reads").asLong())).append(" ms\n");
        out.append(p).append("Local write count: ").append(t.path("writes").asLong()).append('\n');
        out.append(p).append("Local write latency: ").append(latencyMs(t.path("writeLatencyMicrosTotal").asLong(), t.path("writes").asLong())).append(" ms\n");
        out.append(p).append("Pending compactions: ").append(t.path("pendingCompactions").asLong()).append('\n');
        out.append(p).append("Bloom filter false positives: ").append(t.path("bloomFilterFalsePositives").asLong()).append('\n');
        out.append(p).append("Compression: ").append(t.path("compression").asText()).append('\n');
        out.append(p).append("Compaction strategy: ").append(t.path("compaction").asText()).append('\n');
        out.append('\n');
      }
      out.append("----------------\n");
    }
    return out.toString();
  }

  /**
   * nodetool tablehistograms. The engine keeps latency totals, not histograms, so the report
   * gives the mean per operation and says so, rather than inventing percentiles.
   */
  static String tableHistograms(JsonNode stats) {
    StringBuilder out = new StringBuilder();
    for (JsonNode t : stats.path("tables")) {
      out.append(t.path("keyspace").asText()).append('/').append(t.path("table").asText())
          .append(" histograms\n");
      String f = "%-10s%18s%18s%18s%n";
      out.append(String.format(Locale.ROOT, f, "Percentile", "Read Latency", "Write Latency", "SSTables"));
      out.append(String.format(Locale.ROOT, f, "", "(micros)", "(micros)", ""));
      out.append(String.format(Locale.ROOT, f, "Mean",
          micros(t.path("readLatencyMicrosTotal").asLong(), t.path("reads").asLong()),
          micros(t.path("writeLatencyMicrosTotal").asLong(), t.path("writes").asLong()),
          t.path("sstableCount").asText()));
      out.append(String.format(Locale.ROOT, f, "Count", t.path("reads").asText(),
          t.path("writes").asText(), ""));
      out.append("(percentiles are not kept by this version: means over the node's uptime)\n\n");
    }
    return out.toString();
  }

  /** nodetool compactionstats. */
  static String compactionStats(JsonNode c) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "%-26s%d%n", "concurrent compactors", c.path("concurrentCompactors").asLong()));
    out.append(String.format(Locale.ROOT, "%-26s%d%n", "pending tasks", c.path("pendingTasks").asLong()));
    for (JsonNode p : c.path("pending")) {
      out.append("- ").append(p.path("keyspace").asText()).append('.').append(p.path("table").asText())
          .append(": ").append(p.path("tasks").asLong()).append('\n');
    }
    for (JsonNode b : c.path("indexBuilds")) {
      out.append("- ").append(b.path("keyspace").asText()).append('.').append(b.path("table").asText())
          .append(": index build ").append(b.path("index").asText()).append(' ')
          .append(b.path("sstablesDone").asLong()).append('/').append(b.path("sstablesTotal").asLong())
          .append(" SSTables\n");
    }
    out.append(String.format(Locale.ROOT, "%-26s%s%n", "compaction throughput",
        throughput(c.path("throughputBytesPerSecond").asLong())));
    return out.toString();
  }

  /** nodetool listsnapshots. */
  static String listSnapshots(JsonNode s) {
    JsonNode list = s.path("snapshots");
    if (list.size() == 0) {
      return "Snapshot Details: \nThere are no snapshots\n";
    }
    StringBuilder out = new StringBuilder("Snapshot Details: \n");
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"Snapshot name", "Keyspace name", "Column family name", "True size",
        "Size on disk", "Creation time"});
    long trueTotal = 0;
    for (JsonNode n : list) {
      trueTotal += n.path("trueSizeBytes").asLong();
      rows.add(new String[] {n.path("tag").asText(), n.path("keyspace").asText(),
          n.path("table").asText(), Sizes.human(n.path("trueSizeBytes").asLong()),
          Sizes.human(n.path("sizeOnDiskBytes").asLong()), n.path("created").asText()});
    }
    table(out, rows, 1);
    out.append("\nTotal TrueDiskSpaceUsed: ").append(Sizes.human(trueTotal)).append("\n\n");
    return out.toString();
  }

  /** nodetool gcstats. */
  static String gcStats(JsonNode g) {
    String f = "%20s%20s%20s%20s%20s%20s%25s%n";
    return String.format(Locale.ROOT, f, "Interval (ms)", "Max GC Elapsed (ms)", "Total GC Elapsed (ms)",
        "Stdev GC Elapsed (ms)", "GC Reclaimed (MB)", "Collections", "Direct Memory Bytes")
        + String.format(Locale.ROOT, f, g.path("intervalMillis").asText(),
        g.path("maxGcElapsedMillis").asText(), g.path("totalGcElapsedMillis").asText(),
        Math.round(g.path("stdevGcElapsedMillis").asDouble()), "n/a",
        g.path("collections").asText(), g.path("directMemoryBytes").asText());
  }

  static String version(JsonNode v) {
    return "ReleaseVersion: " + v.path("version").asText() + "\n";
  }

  static String compactionThroughput(JsonNode t) {
    return "Current compaction throughput: " + throughput(t.path("throughputBytesPerSecond").asLong()) + "\n";
  }

  /**
   * nodetool listpendinghints, as Cassandra prints it: one row per node this node keeps hints
   * for, the creation times of its newest and oldest hints files in UTC.
   */
  static String pendingHints(JsonNode p) {
    if (p.path("hints").isEmpty()) {
      return "This node does not have any pending hints\n";
    }
    java.time.format.DateTimeFormatter f = java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss,SSS")
        .withZone(java.time.ZoneOffset.UTC);
    List<String[]> rows = new ArrayList<>();
    rows.add(new String[] {"Host ID", "Address", "Rack", "DC", "Status", "Total files", "Newest", "Oldest"});
    for (JsonNode h : p.path("hints")) {
      rows.add(new String[] {h.path("hostId").asText(), h.path("address").asText("null"),
          h.path("rack").asText("Unknown"), h.path("dc").asText("Unknown"), h.path("status").asText("Unknown"),
          h.path("totalFiles").asText(), f.format(java.time.Instant.ofEpochMilli(h.path("newest").asLong())),
          f.format(java.time.Instant.ofEpochMilli(h.path("oldest").asLong()))});
    }
    StringBuilder out = new StringBuilder();
    table(out, rows, 1);
    return out.toString();
  }

  // ---- helpers ----

  /** Left-aligned columns separated by {@code gap} spaces; trailing spaces trimmed. */
  static void table(StringBuilder out, List<String[]> rows, int gap) {
    int[] widths = new int[rows.get(0).length];
    for (String[] r : rows) {
      for (int i = 0; i < r.length; i++) {
        widths[i] = Math.max(widths[i], r[i].length());
      }
    }
    for (String[] r : rows) {
      StringBuilder line = new StringBuilder();
      for (int i = 0; i < r.length; i++) {
        line.append(r[i]);
        if (i < r.length - 1) {
          line.append(" ".repeat(widths[i] - r[i].length() + gap));
        }
      }
      out.append(line.toString().stripTrailing()).append('\n');
    }
  }

  private static String percent(double fraction, int decimals) {
    return String.format(Locale.ROOT, "%." + decimals + "f%%", fraction * 100);
  }

  private static String mb(long bytes) {
    return String.format(Locale.ROOT, "%.2f", bytes / (1024.0 * 1024.0));
  }

  private static String latencyMs(long totalMicros, long count) {
    return count == 0 ? "NaN" : String.format(Locale.ROOT, "%.3f", totalMicros / 1000.0 / count);
  }

  private static String micros(long totalMicros, long count) {
    return count == 0 ? "NaN" : String.format(Locale.ROOT, "%.2f", (double) totalMicros / count);
  }

  private static String throughput(long bytesPerSecond) {
    return bytesPerSecond == 0 ? "unthrottled" : (bytesPerSecond >> 20) + " MiB/s";
  }

  private static Map<String, JsonNode> fields(JsonNode object) {
    Map<String, JsonNode> m = new LinkedHashMap<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> e = it.next();
      m.put(e.getKey(), e.getValue());
    }
    return m;
  }

  private static String list(JsonNode array) {
    List<String> items = new ArrayList<>();
    array.forEach(n -> items.add(n.asText()));
    return items.toString();
  }
}
