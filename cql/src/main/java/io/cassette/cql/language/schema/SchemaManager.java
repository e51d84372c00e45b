package io.cassette.cql.language.schema;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.ClusterMetadata;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.MetadataChange;
import io.cassette.coordinator.metadata.MetadataLog;
import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Parser;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.statements.SecondaryIndexes;
import io.cassette.cql.language.system.SystemKeyspaces;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Owns the CQL schema: the current immutable {@link Schema} snapshot, derived from the
 * coordinator's metadata log, and schema-change listeners. A change is one log entry: the
 * keyspaces it changes, each as a {@link KeyspaceDefinition} whose replication and storage
 * tables the coordinator understands and whose opaque definition is a packed list of the CQL
 * texts ({@link SchemaDdl}) that recreate the keyspace, its types, tables (with their ids)
 * and indexes. The snapshot's epoch is the log's. Changes are serialised; readers never lock.
 *
 * <p>Data directories written before the metadata log kept the same texts in table
 * {@code system_cassette.schema} (one partition per keyspace, cell {@code statements}); when
 * the log is empty and that table holds keyspaces, they become the log's first entry.
 */
public final class SchemaManager {
  static final String SCHEMA_TABLE = "schema";
  static final String STATEMENTS_COLUMN = "statements";

  private final Coordinator coordinator;
  private final MetadataLog log;
  private final List<Consumer<Result.SchemaChange>> listeners = new CopyOnWriteArrayList<>();
  private volatile Schema current;

  /** A keyspace's CQL view and the definition it was built from, so it is parsed once. */
  private record Known(byte[] definition, KeyspaceMetadata keyspace) {}

  private final Map<String, Known> known = new ConcurrentHashMap<>();

  public SchemaManager(Coordinator coordinator) {
    this.coordinator = coordinator;
    this.log = coordinator.metadata();
    this.log.listen((entry, after) -> {
      current = build(after);
      io.cassette.cql.language.statements.AttachedIndexes.sync(coordinator, current.keyspaces().values());
      io.cassette.cql.language.views.Views.sync(coordinator, current.keyspaces().values());
    });
    this.current = build(log.current());
    io.cassette.cql.language.statements.AttachedIndexes.sync(coordinator, current.keyspaces().values());
    io.cassette.cql.language.views.Views.sync(coordinator, current.keyspaces().values());
    migrateLegacy();
  }

  public Schema current() {
    return current;
  }

  public void addListener(Consumer<Result.SchemaChange> listener) {
    listeners.add(listener);
  }

  /** Tells the schema-change listeners (the CQL door's clients) of a change made elsewhere (another node). */
  public void announce(Result.SchemaChange event) {
    for (Consumer<Result.SchemaChange> l : listeners) {
      l.accept(event);
    }
  }

  public Coordinator coordinator() {
    return coordinator;
  }

  /** The CQL schema of a metadata snapshot: the built-in keyspaces plus every CQL keyspace. */
  private Schema build(ClusterMetadata metadata) {
    Map<String, KeyspaceMetadata> ks = new LinkedHashMap<>(SystemKeyspaces.builtIn());
    for (KeyspaceDefinition d : metadata.keyspaces().values()) {
      byte[] def = d.definition();
      if (def == null) {
        continue; // not a CQL keyspace (the Redis one)
      }
      Known k = known.get(d.name());
      if (k == null || !Arrays.equals(k.definition(), def)) {
        k = new Known(def, replay(def));
        known.put(d.name(), k);
      }
      ks.put(d.name(), k.keyspace());
    }
    known.keySet().retainAll(metadata.keyspaces().keySet());
    return new Schema(metadata.epoch(), versionOf(ks), ks);
  }

  private static KeyspaceMetadata replay(byte[] definition) {
    KeyspaceMetadata k = null;
    for (byte[] s : CollectionCodec.unpack(definition, false)) {
      k = DdlApplier.replay(k, Parser.parseStored(new String(s, StandardCharsets.UTF_8)));
    }
    return k;
  }

  /** Moves the keyspaces of a pre-log data directory into the (empty) metadata log. */
  private void migrateLegacy() {
    if (log.current().epoch() != 0 || coordinator.table(SystemKeyspaces.CASSETTE, SCHEMA_TABLE).isEmpty()) {
      return;
    }
    List<KeyspaceDefinition> put = new ArrayList<>();
    long now = System.currentTimeMillis() / 1000;
    try (Table.CloseableIterator<PartitionView> it = coordinator.scan(SystemKeyspaces.CASSETTE, SCHEMA_TABLE,
        KeyRange.ALL, ReadQuery.all(now), Request.INTERNAL)) {
      while (it.hasNext()) {
        PartitionView p = it.next();
        Row row = p.rows().isEmpty() ? p.staticRow() : p.rows().get(0);
        if (row == null || row.cell(STATEMENTS_COLUMN) == null) {
          continue;
        }
        byte[] def = row.cell(STATEMENTS_COLUMN).value();
        KeyspaceMetadata k = replay(def);
        if (k != null) {
          put.add(definition(k, def));
        }
      }
    }
    if (!put.isEmpty()) {
      log.commit(new MetadataChange(put, List.of()));
    }
  }

  /**
   * Applies one change: {@code change} maps the current snapshot's keyspaces to the new ones,
   * or returns null when nothing changes (IF [NOT] EXISTS). Commits the keyspaces that changed
   * as one metadata-log entry (which creates, alters and drops their storage tables), then
   * fills new indexes and publishes the event.
   */
  public synchronized Result change(UnaryOperator<Map<String, KeyspaceMetadata>> change,
                                    Result.SchemaChange event) {
    // On the ring another node may change the schema between our check and our commit: the
    // log refuses ours, we see theirs, and check again (bounded, as Cassandra retries TCM commits).
    for (int attempt = 1; ; attempt++) {
      try {
        return changeOnce(change, event);
      } catch (io.cassette.coordinator.metadata.MetadataConflictException e) {
        if (attempt >= MAX_CONFLICT_RETRIES) {
          throw io.cassette.cql.language.Errors.invalid("Schema changed concurrently " + attempt
              + " times while applying this change; retry it");
        }
        current = build(log.current());
      }
    }
  }

  /** Attempts at a schema change refused because another node changed the schema first. */
  private static final int MAX_CONFLICT_RETRIES = 10;

  private Result changeOnce(UnaryOperator<Map<String, KeyspaceMetadata>> change,
                            Result.SchemaChange event) {
    Schema before = current;
    Map<String, KeyspaceMetadata> after = change.apply(new LinkedHashMap<>(before.keyspaces()));
    if (after == null) {
      return Result.Void.INSTANCE;
    }
    List<KeyspaceDefinition> put = new ArrayList<>();
    List<String> drop = new ArrayList<>();
    List<Runnable> builds = new ArrayList<>();
    for (String name : union(before.keyspaces().keySet(), after.keySet())) {
      KeyspaceMetadata old = before.keyspaces().get(name);
      KeyspaceMetadata neu = after.get(name);
      if (old == neu || SystemKeyspaces.isSystem(name)) {
        continue;
      }
      KeyspaceDefinition existing = log.current().keyspace(name);
      if (existing != null && existing.definition() == null) {
        throw io.cassette.cql.language.Errors.invalid("Keyspace " + name + " is reserved for the node's own use");
      }
      if (neu == null) {
        drop.add(name);
        continue;
      }
      List<byte[]> stmts = new ArrayList<>();
      for (String s : SchemaDdl.keyspace(neu)) {
        stmts.add(s.getBytes(StandardCharsets.UTF_8));
      }
      byte[] def = CollectionCodec.pack(stmts);
      known.put(name, new Known(def, neu));
      put.add(definition(neu, def));
      for (TableMetadata t : neu.tables().values()) {
        TableMetadata o = old == null ? null : old.tables().get(t.name);
        for (IndexMetadata i : t.indexes.values()) {
          if (o == null || !o.id.equals(t.id) || !o.indexes.containsKey(i.name())) {
            builds.add(() -> SecondaryIndexes.build(coordinator, t, i));
          }
        }
      }
    }
    if (!put.isEmpty() || !drop.isEmpty()) {
      try {
        log.commit(new MetadataChange(put, drop), before.epoch());
      } catch (io.cassette.storage.StorageException e) {
        // Options storage cannot honour (e.g. a codec it lacks) are configuration errors.
        throw io.cassette.cql.language.Errors.config(e.getMessage());
      }
    } else {
      current = new Schema(before.epoch(), versionOf(after), after);
    }
    // Index builds scan after the new schema is visible, so writes from now on add entries too.
    for (Runnable build : builds) {
      build.run();
    }
    if (event != null) {
      for (Consumer<Result.SchemaChange> l : listeners) {
        l.accept(event);
      }
    }
    return event == null ? Result.Void.INSTANCE : event;
  }

  /** The coordinator's view of a CQL keyspace: replication and storage tables (with indexes). */
  private static KeyspaceDefinition definition(KeyspaceMetadata k, byte[] def) {
    List<TableSpec> tables = new ArrayList<>();
    for (TableMetadata t : k.tables().values()) {
      tables.add(toSpec(t));
      for (IndexMetadata i : t.indexes.values()) {
        if (SecondaryIndexes.target(t, i) != null) {
          tables.add(SecondaryIndexes.spec(t, i));
        }
      }
    }
    return new KeyspaceDefinition(k.name(), k.replication(), tables, def);
  }

  private static List<String> union(java.util.Set<String> a, java.util.Set<String> b) {
    List<String> out = new ArrayList<>(a);
    for (String s : b) {
      if (!a.contains(s)) {
        out.add(s);
      }
    }
    return out;
  }

  /** The storage view of a table's options. */
  public static TableSpec toSpec(TableMetadata t) {
    TableOptions o = t.options;
    Map<String, String> compression = new LinkedHashMap<>();
    o.compression().forEach((k, v) -> compression.put(k, shortClass(v)));
    Map<String, String> compaction = new LinkedHashMap<>();
    o.compaction().forEach((k, v) -> compaction.put(k, shortClass(v)));
    // Storage has size-tiered, unified and time-window compaction; levelled runs as size-tiered
    // while system_schema keeps showing what the user asked for.
    String strategy = compaction.get("class");
    if (!"SizeTieredCompactionStrategy".equals(strategy) && !"TimeWindowCompactionStrategy".equals(strategy)
        && !"UnifiedCompactionStrategy".equals(strategy)) {
      compaction.clear();
      compaction.put("class", "SizeTieredCompactionStrategy");
    }
    if ("ZstdCompressor".equals(compression.get("class"))) {
      compression.put("class", "LZ4Compressor"); // no pure-Java Zstd codec in storage yet
      compression.remove("compression_level");
    }
    return new TableSpec(t.keyspace, t.name, t.id, compression, compaction, o.gcGraceSeconds(),
        o.bloomFilterFpChance(), o.defaultTimeToLive());
  }

  private static String shortClass(String v) {
    return v.startsWith("org.apache.cassandra.") ? v.substring(v.lastIndexOf('.') + 1) : v;
  }

  private static UUID versionOf(Map<String, KeyspaceMetadata> keyspaces) {
    try {
      MessageDigest md = MessageDigest.getInstance("MD5");
      for (KeyspaceMetadata k : keyspaces.values()) {
        if (k.virtual()) {
          continue;
        }
        for (String s : SchemaDdl.keyspace(k)) {
          md.update(s.getBytes(StandardCharsets.UTF_8));
        }
      }
      byte[] d = md.digest();
      d[6] = (byte) ((d[6] & 0x0F) | 0x30); // a name-based (version 3) UUID, as Cassandra's
      d[8] = (byte) ((d[8] & 0x3F) | 0x80);
      return Values.toUuid(d);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Convenience: the keyspace or null. */
  public KeyspaceMetadata keyspace(String name) {
    return current.keyspace(name);
  }

  /** Replays one persisted statement (used at load). */
  static final class DdlApplier {
    private DdlApplier() {}

    static KeyspaceMetadata replay(KeyspaceMetadata ks, Statement s) {
      return SchemaBuilder.replay(ks, s);
    }
  }
}
