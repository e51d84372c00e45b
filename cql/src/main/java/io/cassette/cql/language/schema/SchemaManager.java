package io.cassette.cql.language.schema;

import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Parser;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.system.SystemKeyspaces;
import io.cassette.cql.language.types.Collections;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.Engine;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * Owns the schema: the current immutable {@link Schema} snapshot, its durable copy in the
 * engine, and schema-change listeners. Changes are serialized (one at a time), each producing
 * a new snapshot with the next epoch; readers never lock.
 *
 * <p>Durable form: table {@code system_cassette.schema}, one partition per keyspace (key = the
 * keyspace name as UTF-8), one row holding cell {@code statements}: a packed list of CQL texts
 * ({@link SchemaDdl}) that recreate the keyspace, its types, tables (with their ids) and indexes.
 */
public final class SchemaManager {
  static final String SCHEMA_TABLE = "schema";
  static final String STATEMENTS_COLUMN = "statements";
  private static final UUID SCHEMA_TABLE_ID = UUID.fromString("5c4e3a00-0000-1000-8000-00000000ca55");

  private final Engine engine;
  private final Table store;
  private final List<Consumer<Result.SchemaChange>> listeners = new CopyOnWriteArrayList<>();
  private volatile Schema current;
  /** Index builds of the change in progress (guarded by this). */
  private final List<Runnable> pendingBuilds = new ArrayList<>();

  public SchemaManager(Engine engine) {
    this.engine = engine;
    TableSpec spec = TableSpec.withDefaults(SystemKeyspaces.CASSETTE, SCHEMA_TABLE, SCHEMA_TABLE_ID);
    this.store = engine.createTable(spec);
    this.current = load();
  }

  public Schema current() {
    return current;
  }

  public void addListener(Consumer<Result.SchemaChange> listener) {
    listeners.add(listener);
  }

  public Engine engine() {
    return engine;
  }

  /** Reads every keyspace's statements back and replays them onto the built-in schema. */
  private Schema load() {
    Map<String, KeyspaceMetadata> ks = new LinkedHashMap<>(SystemKeyspaces.builtIn());
    long now = System.currentTimeMillis() / 1000;
    try (Table.CloseableIterator<PartitionView> it = store.scan(KeyRange.ALL, ReadQuery.all(now))) {
      while (it.hasNext()) {
        PartitionView p = it.next();
        Row row = p.rows().isEmpty() ? p.staticRow() : p.rows().get(0);
        if (row == null || row.cell(STATEMENTS_COLUMN) == null) {
          continue;
        }
        KeyspaceMetadata k = null;
        for (byte[] s : Collections.unpack(row.cell(STATEMENTS_COLUMN).value(), false)) {
          k = DdlApplier.replay(k, Parser.parse(new String(s, StandardCharsets.UTF_8)));
        }
        if (k != null) {
          ks.put(k.name(), k);
          for (TableMetadata t : k.tables().values()) {
            engine.createTable(toSpec(t));
            for (IndexMetadata i : t.indexes.values()) {
              if (io.cassette.cql.language.statements.SecondaryIndexes.target(t, i) != null) {
                engine.createTable(io.cassette.cql.language.statements.SecondaryIndexes.spec(t, i));
              }
            }
          }
        }
      }
    }
    return new Schema(1, versionOf(ks), ks);
  }

  /**
   * Applies one change under the schema lock: {@code change} maps the current snapshot's
   * keyspaces to the new ones, or returns null when nothing changes (IF [NOT] EXISTS).
   * Persists the keyspaces that changed, then publishes the snapshot and the event.
   */
  public synchronized Result change(UnaryOperator<Map<String, KeyspaceMetadata>> change,
                                    Result.SchemaChange event) {
    pendingBuilds.clear();
    Schema before = current;
    Map<String, KeyspaceMetadata> after = change.apply(new LinkedHashMap<>(before.keyspaces()));
    if (after == null) {
      return Result.Void.INSTANCE;
    }
    long now = System.currentTimeMillis();
    long micros = now * 1000;
    for (String name : union(before.keyspaces().keySet(), after.keySet())) {
      KeyspaceMetadata old = before.keyspaces().get(name);
      KeyspaceMetadata neu = after.get(name);
      if (old == neu || SystemKeyspaces.isSystem(name) || builtInUnchanged(name, neu)) {
        continue;
      }
      byte[] key = name.getBytes(StandardCharsets.UTF_8);
      PartitionUpdate.Builder u = PartitionUpdate.builder(SystemKeyspaces.CASSETTE, SCHEMA_TABLE, key);
      if (neu == null) {
        u.deletePartition(new DeletionTime(micros, now / 1000));
      } else {
        List<byte[]> stmts = new ArrayList<>();
        for (String s : SchemaDdl.keyspace(neu)) {
          stmts.add(s.getBytes(StandardCharsets.UTF_8));
        }
        u.row(Row.of(new byte[0], List.of(Cell.live(STATEMENTS_COLUMN, Collections.pack(stmts), micros))));
      }
      // Engine tables first: a crash after this leaves storage ahead of schema, which replay heals.
      try {
        syncEngineTables(old, neu);
      } catch (io.cassette.storage.StorageException e) {
        // Options storage cannot honour (e.g. a codec it lacks) are configuration errors.
        throw io.cassette.cql.language.Errors.config(e.getMessage());
      }
      store.apply(u.build());
    }
    current = new Schema(before.epoch() + 1, versionOf(after), after);
    // Index builds scan after the new schema is visible, so writes from now on add entries too.
    for (Runnable build : pendingBuilds) {
      build.run();
    }
    pendingBuilds.clear();
    if (event != null) {
      for (Consumer<Result.SchemaChange> l : listeners) {
        l.accept(event);
      }
    }
    return event == null ? Result.Void.INSTANCE : event;
  }

  private static boolean builtInUnchanged(String name, KeyspaceMetadata neu) {
    return false;
  }

  private void syncEngineTables(KeyspaceMetadata old, KeyspaceMetadata neu) {
    Map<String, TableMetadata> before = old == null ? Map.of() : old.tables();
    Map<String, TableMetadata> after = neu == null ? Map.of() : neu.tables();
    for (TableMetadata t : before.values()) {
      TableMetadata n = after.get(t.name);
      for (IndexMetadata i : t.indexes.values()) {
        if (n == null || !n.id.equals(t.id) || !n.indexes.containsKey(i.name())) {
          io.cassette.cql.language.statements.SecondaryIndexes.drop(engine, t, i);
        }
      }
      if (n == null || !n.id.equals(t.id)) {
        engine.dropTable(t.keyspace, t.name);
      }
    }
    for (TableMetadata t : after.values()) {
      TableMetadata o = before.get(t.name);
      if (o == null || !o.id.equals(t.id)) {
        engine.createTable(toSpec(t));
      } else if (!o.options.equals(t.options)) {
        engine.alterTable(toSpec(t));
      }
      for (IndexMetadata i : t.indexes.values()) {
        if (o == null || !o.id.equals(t.id) || !o.indexes.containsKey(i.name())) {
          pendingBuilds.add(() -> io.cassette.cql.language.statements.SecondaryIndexes.build(engine, t, i));
        }
      }
    }
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
    // Storage has size-tiered and time-window compaction; the others run as size-tiered while
    // system_schema keeps showing what the user asked for.
    String strategy = compaction.get("class");
    if (!"SizeTieredCompactionStrategy".equals(strategy) && !"TimeWindowCompactionStrategy".equals(strategy)) {
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
