package io.cassette.server.admin;

import io.cassette.server.http.JsonWriter;
import io.cassette.server.NodeIdentity;
import io.cassette.server.ResourceSizing;
import io.cassette.server.Version;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigKeys;
import io.cassette.server.http.AdminHttpServer;
import io.cassette.server.http.AdminHttpServer.Request;
import io.cassette.server.http.AdminHttpServer.Response;
import io.cassette.storage.Engine;
import io.cassette.storage.Table;
import io.cassette.storage.TableMetrics;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The JSON endpoints behind {@code cassette nodetool}: the node's state ({@code /api/status},
 * {@code /api/info}, {@code /api/describecluster}, {@code /api/tablestats},
 * {@code /api/compactionstats}, {@code /api/snapshots}, {@code /api/gcstats},
 * {@code /api/compactionthroughput}, {@code /api/version}) and operations that change it
 * ({@code POST /api/flush|compact|cleanup|drain|snapshot|clearsnapshot}).
 *
 * <p>Tables are chosen by repeated {@code name} parameters, each {@code ks} (all its tables) or
 * {@code ks.table}; none means every table. Errors are {@code {"error":"..."}} with 400 (bad
 * request), 404 (unknown keyspace or table), 405 (GET on an operation) or 501 (not supported),
 * so the client can print the message as it is.
 *
 * <p>Operations wait for the engine, as nodetool waits for Cassandra; they run one at a time
 * on their own thread, so the rest of the admin port keeps answering meanwhile.
 */
public final class AdminEndpoints {
  /** SimpleSnitch's names: a single board has one data centre and one rack. */
  static final String DATACENTER = "datacenter1";
  static final String RACK = "rack1";
  static final String PARTITIONER = "org.apache.cassandra.dht.Murmur3Partitioner";
  static final String SNITCH = "org.apache.cassandra.locator.SimpleSnitch";
  /** The operations thread ends after this long without work; a board has few threads to spare. */
  static final long OPERATION_THREAD_IDLE_SECONDS = 30;

  private final Engine engine;
  private final Config config;
  private final ResourceSizing sizing;
  private final SnapshotDirectory snapshots;
  private final GcStatistics gc = new GcStatistics();
  private final UUID hostId;
  private final List<Long> tokens;
  private final long startMillis = System.currentTimeMillis();
  /** Per keyspace, the tokens cleanup keeps (null: all, a single node owns every token). */
  private java.util.function.Function<String, java.util.function.LongPredicate> cleanupFilter = keyspace -> null;
  /** The compaction cap in force: compaction_throughput until nodetool changes it. */
  private final java.util.concurrent.atomic.AtomicLong compactionThroughput;

  private AdminEndpoints(Engine engine, Config config, ResourceSizing sizing) {
    this.compactionThroughput = new java.util.concurrent.atomic.AtomicLong(
        config.bytes(ConfigKeys.COMPACTION_THROUGHPUT));
    this.engine = engine;
    this.config = config;
    this.sizing = sizing;
    this.snapshots = new SnapshotDirectory(config.dataFileDirectory());
    // The identity system.local reports (created once, kept beside the data), so nodetool and
    // drivers name the node and its tokens alike.
    NodeIdentity identity = NodeIdentity.loadOrCreate(config.dataDirectory(),
        config.integer(ConfigKeys.NUM_TOKENS));
    this.hostId = identity.hostId();
    this.tokens = identity.tokens();
  }

  /** Registers every nodetool endpoint on {@code http}. */
  public static void register(AdminHttpServer http, Engine engine, Config config,
                              ResourceSizing sizing) {
    register(http, engine, config, sizing, keyspace -> null);
  }

  /**
   * As above; {@code cleanupFilter} gives, per keyspace, which tokens this node keeps on
   * nodetool cleanup (those it replicates in a ring), or null to keep everything.
   */
  public static void register(AdminHttpServer http, Engine engine, Config config, ResourceSizing sizing,
                              java.util.function.Function<String, java.util.function.LongPredicate> cleanupFilter) {
    AdminEndpoints api = new AdminEndpoints(engine, config, sizing);
    api.cleanupFilter = cleanupFilter;
    http.register("/api/version", read(api::version));
    http.register("/api/status", read(api::status));
    http.register("/api/info", read(api::info));
    http.register("/api/describecluster", read(api::describeCluster));
    http.register("/api/tablestats", read(api::tableStats));
    http.register("/api/compactionstats", read(api::compactionStats));
    http.register("/api/snapshots", read(api::listSnapshots));
    http.register("/api/gcstats", read(req -> api.gc.sinceLastCall()));
    http.register("/api/compactionthroughput", guarded(api::compactionThroughput));
    http.register("/api/traceprobability", guarded(api::traceProbability));
    // Operations wait for the engine (a compaction on an SD card takes minutes): they run one
    // at a time off the event loop, so health, metrics and the dashboard keep answering.
    Executor operations = new ThreadPoolExecutor(0, 1, OPERATION_THREAD_IDLE_SECONDS, TimeUnit.SECONDS,
        new LinkedBlockingQueue<>(), r -> {
          Thread t = new Thread(r, "cassette-admin-operation");
          t.setDaemon(true);
          return t;
        });
    http.registerBlocking("/api/flush", operation(api::flush), operations);
    http.registerBlocking("/api/compact", operation(api::compact), operations);
    http.registerBlocking("/api/cleanup", operation(api::cleanup), operations);
    http.registerBlocking("/api/drain", operation(api::drain), operations);
    http.registerBlocking("/api/snapshot", operation(api::snapshot), operations);
    http.registerBlocking("/api/clearsnapshot", operation(api::clearSnapshot), operations);
  }

  // ---- reads ----

  private String version(Request req) {
    return new JsonWriter().beginObject().field("version", Version.get()).endObject().toString();
  }

  private String status(Request req) {
    JsonWriter w = new JsonWriter().beginObject()
        .field("datacenter", DATACENTER)
        .name("nodes").beginArray().beginObject()
        .field("state", "UN")
        .field("address", config.string(ConfigKeys.LISTEN_ADDRESS))
        .field("loadBytes", load())
        .field("owns", 1.0)
        .field("hostId", hostId.toString())
        .field("rack", RACK)
        .name("tokens").beginArray();
    for (long t : tokens) {
      w.value(Long.toString(t));
    }
    return w.endArray().endObject().endArray().endObject().toString();
  }

  private String info(Request req) {
    MemoryUsage heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    JsonWriter w = new JsonWriter().beginObject()
        .field("id", hostId.toString())
        .field("gossipActive", false)
        .field("nativeTransportActive", config.integer(ConfigKeys.NATIVE_TRANSPORT_PORT) != 0)
        .field("respActive", config.integer(ConfigKeys.RESP_PORT) != 0)
        .field("loadBytes", load())
        .field("generation", startMillis / 1000)
        .field("uptimeSeconds", (System.currentTimeMillis() - startMillis) / 1000)
        .field("heapUsedBytes", heap.getUsed())
        .field("heapMaxBytes", heap.getMax() > 0 ? heap.getMax() : sizing.heapBytes())
        .field("offHeapBytes", GcStatistics.offHeapBytes())
        .field("memtableBudgetBytes", sizing.memtableBytes())
        .field("memtableBytes", sum(Metric.MEMTABLE))
        .field("datacenter", DATACENTER)
        .field("rack", RACK)
        .field("mode", engine.isDrained() ? "DRAINED" : "NORMAL")
        .field("dataDirectory", config.dataFileDirectory().toAbsolutePath().toString())
        .field("commitLogDirectory", config.commitLogDirectory().toAbsolutePath().toString())
        .name("tokens").beginArray();
    for (long t : tokens) {
      w.value(Long.toString(t));
    }
    return w.endArray().endObject().toString();
  }

  private String describeCluster(Request req) {
    List<Table> tables = sortedTables();
    StringBuilder schema = new StringBuilder();
    for (Table t : tables) {
      schema.append(t.spec().keyspace()).append('.').append(t.spec().name()).append(':')
          .append(t.spec().id()).append('\n');
    }
    String address = config.string(ConfigKeys.LISTEN_ADDRESS);
    JsonWriter w = new JsonWriter().beginObject()
        .field("name", config.string(ConfigKeys.CLUSTER_NAME))
        .field("snitch", SNITCH)
        .field("partitioner", PARTITIONER)
        .name("schemaVersions").beginObject()
        .name(UUID.nameUUIDFromBytes(schema.toString().getBytes(StandardCharsets.UTF_8)).toString())
        .beginArray().value(address).endArray().endObject()
        .field("live", 1).field("joining", 0).field("moving", 0).field("leaving", 0)
        .field("unreachable", 0)
        .name("datacenters").beginObject().name(DATACENTER).beginObject()
        .field("nodes", 1).field("down", 0).endObject().endObject()
        .name("versions").beginObject().name(Version.get()).beginArray().value(address).endArray()
        .endObject()
        .name("keyspaces").beginArray();
    tables.stream().map(t -> t.spec().keyspace()).distinct().forEach(w::value);
    return w.endArray().endObject().toString();
  }

  private String tableStats(Request req) {
    List<Table> tables = select(req);
    JsonWriter w = new JsonWriter().beginObject().name("tables").beginArray();
    for (Table t : tables) {
      TableMetrics m = t.metrics();
      w.beginObject()
          .field("keyspace", t.spec().keyspace())
          .field("table", t.spec().name())
          .field("id", t.spec().id().toString())
          .field("reads", m.reads())
          .field("writes", m.writes())
          .field("readLatencyMicrosTotal", m.readLatencyMicrosTotal())
          .field("writeLatencyMicrosTotal", m.writeLatencyMicrosTotal())
          .field("sstableCount", m.sstableCount())
          .field("bytesOnDisk", m.bytesOnDisk())
          .field("bytesWritten", m.bytesWritten())
          .field("memtableBytes", m.memtableBytes())
          .field("pendingCompactions", m.pendingCompactions())
          .field("bloomFilterFalsePositives", m.bloomFilterFalsePositives())
          .field("snapshotBytes", snapshotBytes(t))
          .field("compression", t.spec().compression().getOrDefault("class", "none"))
          .field("compaction", t.spec().compaction().getOrDefault("class", ""))
          .endObject();
    }
    return w.endArray().endObject().toString();
  }

  private String compactionStats(Request req) {
    JsonWriter w = new JsonWriter().beginObject()
        .field("concurrentCompactors", sizing.compactionThreads())
        .field("throughputBytesPerSecond", config.bytes(ConfigKeys.COMPACTION_THROUGHPUT))
        .field("pendingTasks", sum(Metric.PENDING_COMPACTIONS))
        .name("pending").beginArray();
    for (Table t : sortedTables()) {
      int pending = t.metrics().pendingCompactions();
      if (pending > 0) {
        w.beginObject().field("keyspace", t.spec().keyspace()).field("table", t.spec().name())
            .field("tasks", pending).endObject();
      }
    }
    w.endArray().name("indexBuilds").beginArray();
    for (Table t : sortedTables()) {
      io.cassette.storage.index.TableIndexes.Build b = t.indexes() == null ? null : t.indexes().building();
      if (b != null) {
        w.beginObject().field("keyspace", t.spec().keyspace()).field("table", t.spec().name())
            .field("index", b.index()).field("sstablesDone", b.sstablesDone())
            .field("sstablesTotal", b.sstablesTotal()).endObject();
      }
    }
    return w.endArray().endObject().toString();
  }

  private String listSnapshots(Request req) {
    JsonWriter w = new JsonWriter().beginObject().name("snapshots").beginArray();
    for (SnapshotDirectory.Snapshot s : snapshots.list()) {
      w.beginObject().field("tag", s.tag()).field("keyspace", s.keyspace())
          .field("table", s.table()).field("trueSizeBytes", s.trueSizeBytes())
          .field("sizeOnDiskBytes", s.sizeOnDiskBytes())
          .field("created", Instant.ofEpochMilli(s.createdMillis()).toString()).endObject();
    }
    return w.endArray().endObject().toString();
  }

  private Response compactionThroughput(Request req) {
    if (!req.method().equals("GET") && !req.method().equals("HEAD")) {
      String mib = param(req, "mib");
      if (mib == null || !mib.matches("\\d{1,9}")) {
        return error(400, "mib must be a whole number of MiB/s (0 = unthrottled), not '" + mib + "'");
      }
      long bytesPerSecond = Long.parseLong(mib) << 20;
      engine.setCompactionThroughput(bytesPerSecond);
      compactionThroughput.set(bytesPerSecond);
    }
    // Until the next restart: cassette.yaml keeps what the node starts with, as in Cassandra.
    return Response.json(new JsonWriter().beginObject()
        .field("throughputBytesPerSecond", compactionThroughput.get()).endObject().toString());
  }

  /** nodetool settraceprobability / gettraceprobability: the share of CQL requests traced unasked. */
  private Response traceProbability(Request req) {
    if (!req.method().equals("GET") && !req.method().equals("HEAD")) {
      String p = param(req, "probability");
      double value;
      try {
        value = Double.parseDouble(p);
      } catch (RuntimeException e) {
        return error(400, "Trace probability must be between 0 and 1");
      }
      if (!(value >= 0 && value <= 1)) {
        return error(400, "Trace probability must be between 0 and 1");
      }
      io.cassette.cql.Tracing.setProbability(value);
    }
    return Response.json(new JsonWriter().beginObject()
        .field("probability", io.cassette.cql.Tracing.probability()).endObject().toString());
  }

  // ---- operations ----

  private String flush(Request req) {
    List<Table> tables = select(req);
    tables.forEach(Table::flush);
    return done(tables.size());
  }

  private String compact(Request req) {
    List<Table> tables = select(req);
    tables.forEach(Table::compact);
    return done(tables.size());
  }

  /**
   * Drops the data of ranges this node no longer replicates (after a join, decommission or
   * replace moved them), table by table, by a compaction that leaves those partitions out. A
   * single node owns every token: nothing to drop.
   */
  private String cleanup(Request req) {
    List<Table> tables = select(req);
    for (Table t : tables) {
      java.util.function.LongPredicate keep = cleanupFilter.apply(t.spec().keyspace());
      if (keep != null) {
        t.cleanup(keep);
      }
    }
    return done(tables.size());
  }

  /**
   * Stops writes and flushes every table so the commit log need not be replayed on the next
   * start, as Cassandra's drain: afterwards CQL and Redis writes fail with "the node is
   * drained", reads are still served. Client connections stay open: stop the node after
   * draining; the restarted node accepts writes again.
   */
  private String drain(Request req) {
    engine.drain();
    return done(engine.tables().size());
  }

  private String snapshot(Request req) {
    String tag = param(req, "tag");
    if (tag == null || tag.isEmpty()) {
      tag = Long.toString(System.currentTimeMillis());
    }
    if (!tag.matches("[A-Za-z0-9._-]+") || tag.startsWith(".")) {
      throw new BadRequest(400, "Invalid snapshot name '" + tag
          + "': use letters, digits, '.', '_' and '-'");
    }
    for (SnapshotDirectory.Snapshot s : snapshots.list()) {
      if (s.tag().equals(tag)) {
        throw new BadRequest(400, "Snapshot " + tag + " already exists.");
      }
    }
    List<Table> tables = select(req);
    for (Table t : tables) {
      t.snapshot(tag);
    }
    return new JsonWriter().beginObject().field("tag", tag).field("tables", tables.size())
        .endObject().toString();
  }

  private String clearSnapshot(Request req) {
    String tag = param(req, "tag");
    boolean all = "true".equals(param(req, "all"));
    if ((tag == null || tag.isEmpty()) && !all) {
      throw new BadRequest(400, "Specify snapshot name or --all");
    }
    List<String> names = req.parameters().getOrDefault("name", List.of());
    int removed = 0;
    if (names.isEmpty()) {
      removed = snapshots.clear(all ? null : tag, null);
    } else {
      for (String keyspace : names) {
        removed += snapshots.clear(all ? null : tag, keyspace);
      }
    }
    return done(removed);
  }

  // ---- helpers ----

  /** The tables named by the request's {@code name} parameters, or all tables. */
  private List<Table> select(Request req) {
    List<String> names = req.parameters().getOrDefault("name", List.of());
    List<Table> all = sortedTables();
    if (names.isEmpty()) {
      return all;
    }
    List<Table> chosen = new ArrayList<>();
    for (String name : names) {
      int dot = name.indexOf('.');
      if (dot < 0) {
        List<Table> of = all.stream().filter(t -> t.spec().keyspace().equals(name)).toList();
        if (of.isEmpty()) {
          throw new BadRequest(404, "Keyspace [" + name + "] does not exist.");
        }
        of.stream().filter(t -> !chosen.contains(t)).forEach(chosen::add);
      } else {
        String ks = name.substring(0, dot);
        String table = name.substring(dot + 1);
        Table t = engine.table(ks, table).orElseThrow(() -> all.stream()
            .anyMatch(x -> x.spec().keyspace().equals(ks))
            ? new BadRequest(404, "Unknown table '" + table + "' in keyspace '" + ks + "'")
            : new BadRequest(404, "Keyspace [" + ks + "] does not exist."));
        if (!chosen.contains(t)) {
          chosen.add(t);
        }
      }
    }
    return chosen;
  }

  private List<Table> sortedTables() {
    List<Table> tables = new ArrayList<>(engine.tables());
    tables.sort(Comparator.comparing((Table t) -> t.spec().keyspace()).thenComparing(t -> t.spec().name()));
    return tables;
  }

  private long snapshotBytes(Table t) {
    long bytes = 0;
    for (SnapshotDirectory.Snapshot s : snapshots.list()) {
      if (s.keyspace().equals(t.spec().keyspace()) && s.table().equals(t.spec().name())) {
        bytes += s.sizeOnDiskBytes();
      }
    }
    return bytes;
  }

  private enum Metric { LOAD, MEMTABLE, PENDING_COMPACTIONS }

  private long sum(Metric metric) {
    long total = 0;
    for (Table t : engine.tables()) {
      TableMetrics m = t.metrics();
      total += switch (metric) {
        case LOAD -> m.bytesOnDisk();
        case MEMTABLE -> m.memtableBytes();
        case PENDING_COMPACTIONS -> m.pendingCompactions();
      };
    }
    return total;
  }

  /** Live data on disk, as nodetool's Load column. */
  private long load() {
    return sum(Metric.LOAD);
  }

  private static String done(int count) {
    return new JsonWriter().beginObject().field("ok", true).field("count", count).endObject()
        .toString();
  }

  private static String param(Request req, String name) {
    List<String> values = req.parameters().get(name);
    return values == null || values.isEmpty() ? null : values.get(0);
  }

  private static Response error(int status, String message) {
    return new Response(status, "application/json", JsonWriter.error(message));
  }

  /** A request the operator must correct; becomes an error response with its status. */
  private static final class BadRequest extends RuntimeException {
    final int status;

    BadRequest(int status, String message) {
      super(message, null, false, false);
      this.status = status;
    }
  }

  /** A read-only endpoint: any method, JSON body. */
  private static Function<Request, Response> read(Function<Request, String> handler) {
    return guarded(req -> Response.json(handler.apply(req)));
  }

  /** An endpoint that changes the node: POST only. */
  private static Function<Request, Response> operation(Function<Request, String> handler) {
    return guarded(req -> req.method().equals("POST")
        ? Response.json(handler.apply(req))
        : error(405, req.path() + " changes the node: use POST"));
  }

  /** Turns an operator error or an engine failure into one JSON error line. */
  private static Function<Request, Response> guarded(Function<Request, Response> handler) {
    return req -> {
      try {
        return handler.apply(req);
      } catch (BadRequest e) {
        return error(e.status, e.getMessage());
      } catch (RuntimeException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return error(500, message);
      }
    };
  }
}
