package io.cassette.cql.language.statements;

import io.cassette.cql.Tracing;
import static io.cassette.cql.language.Errors.invalid;

import io.cassette.coordinator.PartitionReader;
import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlType;
import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Operation;
import io.cassette.cql.language.parser.Relation;
import io.cassette.cql.language.parser.Relation.Operator;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.parser.Term;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A compiled INSERT, UPDATE or DELETE: its restrictions, its column operations
 * ({@link ColumnOperations}), conditions ({@link Conditions}) and how it is executed.
 */
public final class ModificationStatement implements Executable {
  /** Cassandra's limit on TTLs: 20 years. */
  public static final int MAX_TTL = 630_720_000;

  enum Kind { INSERT, UPDATE, DELETE }

  private final Kind kind;
  final TableMetadata table;
  private final TableSource source;
  private final Restrictions where;
  private final List<ColumnOperation> ops = new ArrayList<>();
  private final Value ttl;
  private final Value timestamp;
  private final boolean ifNotExists;
  private final boolean ifExists;
  private final Conditions conditions;
  private final List<ColumnSpec> variables;
  private final int[] pkIndexes;
  private final boolean deleteRows;
  private final boolean onlyStatic;
  private final boolean needsRead;

  public ModificationStatement(TableMetadata table, Statement s, TermCompiler terms,
                               TableSource source) {
    this.table = table;
    this.source = source;
    this.conditions = new Conditions(table);
    if (s instanceof Statement.Insert ins) {
      kind = Kind.INSERT;
      if (table.isCounter) {
        throw invalid("INSERT statements are not allowed on counter tables, use UPDATE instead");
      }
      ttl = usingValue(ins.ttl(), "[ttl]", Types.INT, terms);
      timestamp = usingValue(ins.timestamp(), "[timestamp]", Types.BIGINT, terms);
      ifNotExists = ins.ifNotExists();
      ifExists = false;
      where = Restrictions.compile(table, insertRelations(ins, terms), terms, false);
      deleteRows = false;
    } else if (s instanceof Statement.Update up) {
      kind = Kind.UPDATE;
      ttl = usingValue(up.ttl(), "[ttl]", Types.INT, terms);
      timestamp = usingValue(up.timestamp(), "[timestamp]", Types.BIGINT, terms);
      ifNotExists = false;
      ifExists = up.ifExists();
      if (table.isCounter && up.ttl() != null) {
        throw invalid("Cannot provide custom TTL for counter updates");
      }
      Set<String> seen = new LinkedHashSet<>();
      for (Operation o : up.operations()) {
        ColumnMetadata c = column(o.column());
        if (c.isPrimaryKey()) {
          throw invalid("PRIMARY KEY part " + c.name() + " found in SET part");
        }
        if (!seen.add(c.name()) && o.kind() == Operation.Kind.SET) {
          throw invalid("Multiple incompatible setting of column " + c.name());
        }
        ops.add(ColumnOperations.update(table, o, c, terms));
      }
      where = Restrictions.compile(table, up.where(), terms, false);
      deleteRows = false;
      conditions.compile(up.conditions(), terms);
    } else {
      Statement.Delete del = (Statement.Delete) s;
      kind = Kind.DELETE;
      ttl = null;
      timestamp = usingValue(del.timestamp(), "[timestamp]", Types.BIGINT, terms);
      ifNotExists = false;
      ifExists = del.ifExists();
      for (Statement.DeleteTarget t : del.targets()) {
        ColumnMetadata c = column(t.column());
        if (c.isPrimaryKey()) {
          throw invalid("Invalid identifier " + c.name() + " for deletion (should not be a PRIMARY KEY part)");
        }
        ops.add(ColumnOperations.deletion(table, t, c, terms));
      }
      where = Restrictions.compile(table, del.where(), terms, false);
      deleteRows = del.targets().isEmpty();
      conditions.compile(del.conditions(), terms);
    }
    if (where.hasToken) {
      throw invalid("The token function cannot be used in WHERE clauses for " + kind + " statements");
    }
    if (table.isCounter && isConditional()) {
      throw invalid("Conditional updates are not supported on counter tables"); // Cassandra's check, at prepare
    }
    List<String> missing = new ArrayList<>();
    for (ColumnMetadata c : table.partitionKey) {
      if (where.partition[c.position()] == null) {
        missing.add(c.name());
      }
    }
    if (!missing.isEmpty()) {
      throw invalid("Some partition key parts are missing: " + String.join(", ", missing));
    }
    if (!where.nonPrimaryKeyColumns.isEmpty()) {
      throw invalid("Non PRIMARY KEY columns found in where clause: " + String.join(", ", where.nonPrimaryKeyColumns));
    }
    boolean allStatic = !ops.isEmpty();
    for (ColumnOperation o : ops) {
      allStatic &= o.column().isStatic();
    }
    for (Conditions.Cond c : conditions) {
      allStatic &= c.column().isStatic();
    }
    if (allStatic && where.clusteringRestricted && kind == Kind.UPDATE) {
      throw invalid("Invalid restrictions on clustering columns since the UPDATE statement modifies only static columns");
    }
    this.onlyStatic = allStatic && !where.clusteringRestricted;
    if (kind != Kind.DELETE || !deleteRows) {
      if (!where.clusteringComplete() && !onlyStatic) {
        if (kind == Kind.DELETE) {
          throw invalid("Range deletions are not supported for specific columns");
        }
        List<String> missingCk = new ArrayList<>();
        for (ColumnMetadata c : table.clustering) {
          if (c.position() >= where.clusteringPrefix.size()) {
            missingCk.add(c.name());
          }
        }
        if (where.sliceColumns > 0) {
          throw invalid("Slice restrictions are not supported on the clustering columns in " + kind + " statements");
        }
        throw invalid("Some clustering keys are missing: " + String.join(", ", missingCk));
      }
    }
    if (kind == Kind.DELETE && deleteRows && where.sliceColumns > 0 && (!conditions.isEmpty() || ifExists)) {
      throw invalid("DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns");
    }
    if (isConditional()) {
      if (timestamp != null) {
        throw invalid("Cannot provide custom timestamp for conditional updates");
      }
      if (kind == Kind.DELETE && deleteRows && !where.clusteringComplete() && !table.clustering.isEmpty()
          && !onlyStatic) {
        throw invalid("DELETE statements must restrict all PRIMARY KEY columns with equality relations in order to delete non static columns");
      }
    }
    boolean nr = false;
    for (ColumnOperation o : ops) {
      nr |= o.needsRead();
    }
    this.needsRead = nr;
    this.variables = terms.bindings().specs();
    this.pkIndexes = SelectStatement.pkIndexes(table, where);
  }

  private ColumnMetadata column(String name) {
    ColumnMetadata c = table.column(name);
    if (c == null) {
      throw invalid("Undefined column name " + name + " in table " + table);
    }
    return c;
  }

  private Value usingValue(Term t, String name, CqlType type, TermCompiler terms) {
    return t == null ? null : terms.compile(t, new Receiver(table.keyspace, table.name, name, type));
  }

  /**
   * INSERT's values become EQ relations on the key plus SET operations on the rest (INSERT
   * JSON: each column's value is taken from the bound map by {@link InsertJson}).
   */
  private List<Relation> insertRelations(Statement.Insert ins, TermCompiler terms) {
    List<Relation> rels = new ArrayList<>();
    if (ins.json() != null) {
      Value json = terms.compile(ins.json(), new Receiver(table.keyspace, table.name, "[json]", Types.TEXT));
      boolean first = true;
      for (ColumnMetadata c : table.columns) {
        final ColumnMetadata col = c;
        final boolean check = first;
        first = false;
        Value v = InsertJson.column(table, json, col, check, ins.defaultUnset());
        if (c.isPrimaryKey()) {
          rels.add(new Relation(Relation.Kind.SINGLE, List.of(c.name()), null, Operator.EQ,
              new Term.Precompiled(v), null));
        } else {
          ops.add(ColumnOperations.set(c, v));
        }
      }
      return rels;
    }
    if (ins.columns().size() != ins.values().size()) {
      throw invalid("Unmatched column names/values");
    }
    Set<String> seen = new LinkedHashSet<>();
    for (int i = 0; i < ins.columns().size(); i++) {
      ColumnMetadata c = column(ins.columns().get(i));
      if (!seen.add(c.name())) {
        throw invalid("The column names contains duplicates");
      }
      if (c.isPrimaryKey()) {
        rels.add(new Relation(Relation.Kind.SINGLE, List.of(c.name()), null, Operator.EQ, ins.values().get(i), null));
      } else {
        ops.add(ColumnOperations.set(c, terms.compile(ins.values().get(i), Restrictions.receiver(table, c))));
      }
    }
    return rels;
  }

  boolean isConditional() {
    return ifNotExists || ifExists || !conditions.isEmpty();
  }

  /** IF NOT EXISTS or IF EXISTS: a failed conditional batch then shows every column. */
  boolean checksExistence() {
    return ifNotExists || ifExists;
  }

  /** The columns this statement's IF names, in order. */
  Set<ColumnMetadata> conditionColumns() {
    return conditions.columns();
  }

  boolean isCounter() {
    return table.isCounter;
  }

  @Override
  public List<ColumnSpec> variables() {
    return variables;
  }

  @Override
  public int[] partitionKeyIndexes() {
    return pkIndexes;
  }

  @Override
  public List<ColumnSpec> resultColumns() {
    // A conditional statement prepares with no result metadata, as Cassandra's: its columns
    // ([applied], then the current row's when not applied) are only known once executed.
    return List.of();
  }

  private ColumnSpec applied() {
    return new ColumnSpec(table.keyspace, table.name, "[applied]", Types.BOOLEAN);
  }

  // ------------------------------------------------------------------ execution

  @Override
  public Result execute(QueryContext ctx) {
    if (isConditional()) {
      return executeConditional(ctx);
    }
    long ts = timestamp(ctx);
    if (table.isCounter || needsRead) {
      // Counters and list-by-index updates read before they write: the coordinator holds
      // the partition for the read-modify-write.
      List<byte[]> keys = where.partitionKeys(ctx);
      for (byte[] key : keys) {
        ctx.services.coordinator().readModifyWrite(table.keyspace, table.name, key, table.isCounter,
            (current, writes) -> {
              collectFor(ctx, ts, key, current, writes);
              return null;
            }, ctx.request());
      }
      return Result.Void.INSTANCE;
    }
    List<PartitionUpdate> updates = new ArrayList<>();
    collect(ctx, ts, updates);
    applyAll(ctx, updates);
    return Result.Void.INSTANCE;
  }

  /** The updates of one statement (IN, index entries: several) as one mutation. */
  private static void applyAll(QueryContext ctx, List<PartitionUpdate> updates) {
    if (!updates.isEmpty()) {
      Tracing.trace("Determining replicas for mutation");
      if (Tracing.isTracing()) {
        // Cassandra's replica-side steps; here the coordinator writes right after them.
        Tracing.trace("Appending to commitlog");
        for (PartitionUpdate u : updates) {
          Tracing.trace("Adding to " + u.table() + " memtable");
        }
      }
      if (ctx.answersLater() && !Tracing.isTracing()) {
        // Answered from the replicas' acknowledgements: no thread waits for their round trips.
        ctx.later(ctx.services.coordinator().writeAsync(new Mutation(updates), ctx.request()));
      } else {
        ctx.services.coordinator().write(new Mutation(updates), ctx.request());
      }
    }
  }

  long timestamp(QueryContext ctx) {
    if (timestamp != null) {
      byte[] v = timestamp.get(ctx);
      if (v == null) {
        throw invalid("Invalid null value of timestamp");
      }
      if (v != QueryContext.UNSET) {
        long ts = Values.toLong(v);
        if (ts == Long.MIN_VALUE) {
          throw invalid("Invalid timestamp value " + ts);
        }
        return ts;
      }
    }
    return ctx.timestamp();
  }

  private int ttl(QueryContext ctx) {
    if (ttl != null) {
      byte[] v = ttl.get(ctx);
      if (v == null) {
        throw invalid("Invalid null value of TTL");
      }
      if (v != QueryContext.UNSET) {
        int n = Values.toInt(v);
        if (n < 0) {
          throw invalid("A TTL must be greater or equal to 0, but was " + n);
        }
        if (n > MAX_TTL) {
          throw invalid("ttl is too large. requested (" + n + ") maximum (" + MAX_TTL + ")");
        }
        return n;
      }
    }
    return table.options.defaultTimeToLive();
  }

  /** Adds this statement's partition updates to {@code out} (batches; no conditions). */
  void collect(QueryContext ctx, long ts, List<PartitionUpdate> out) {
    TableReader t = needsRead || table.isCounter ? source.open(table, ctx) : null;
    List<byte[]> keys = where.partitionKeys(ctx);
    for (int i = 0, n = keys.size(); i < n; i++) { // indexed: no iterator per write (C1)
      byte[] key = keys.get(i);
      collectFor(ctx, ts, key, t == null ? null : q -> t.read(key, q), out);
    }
  }

  /** @param current reads partition {@code key} (when this statement reads before writing) */
  private void collectFor(QueryContext ctx, long ts, byte[] key, PartitionReader current,
                          List<PartitionUpdate> out) {
    long now = ctx.nowInSeconds();
    PartitionUpdate.Builder b = PartitionUpdate.builder(table.keyspace, table.name, key);
    if (kind == Kind.DELETE && deleteRows) {
      DeletionTime dt = new DeletionTime(ts, now);
      if (!where.clusteringRestricted) {
        b.deletePartition(dt);
      } else if (where.clusteringComplete()) {
        for (List<byte[]> ck : where.clusteringPrefixes(ctx)) {
          checkClustering(ck);
          b.row(new Row(KeyCodec.clustering(table, ck), LivenessInfo.EMPTY, dt, List.of()));
        }
      } else {
        for (Slice s : where.slices(ctx)) {
          b.deleteRange(s, dt);
        }
      }
      out.add(b.build());
      return;
    }
    int ttlSeconds = kind == Kind.DELETE ? 0 : ttl(ctx);
    // A table without clustering columns has the one empty clustering (no restriction to evaluate).
    List<List<byte[]>> clusterings = table.clustering.isEmpty() ? ONE_EMPTY_CLUSTERING
        : onlyStatic ? List.of() : where.clusteringPrefixes(ctx);
    List<Cell> staticCells = null; // made at the first static cell
    boolean staticDone = false;
    if (clusterings.isEmpty()) {
      clusterings = ONE_EMPTY_CLUSTERING;
    }
    // indexed loops: under C1 (the board's JIT) every iterator is an allocation per write
    for (int c = 0, nc = clusterings.size(); c < nc; c++) {
      List<byte[]> ck = clusterings.get(c);
      byte[] clustering = onlyStatic ? new byte[0] : checkClustering(ck);
      RowWriter w = new RowWriter(ctx, ts, ttlSeconds, now, ops.size());
      if (needsRead || table.isCounter) {
        PartitionView pv = SelectStatement.normalize(table, current.read(ReadQuery.row(clustering, now)));
        w.current = pv.rows().isEmpty() ? null : pv.rows().get(0);
        w.currentStatic = pv.staticRow();
      }
      for (int i = 0, n = ops.size(); i < n; i++) {
        ColumnOperation o = ops.get(i);
        if (o.column().isStatic() && staticDone) {
          continue;
        }
        o.apply(w);
      }
      if (!w.staticCells().isEmpty()) {
        staticCells = staticCells == null ? new ArrayList<>() : staticCells;
        staticCells.addAll(w.staticCells());
      }
      staticDone = true;
      boolean isStaticRow = clustering.length == 0 && !table.clustering.isEmpty();
      if (isStaticRow) {
        staticCells = staticCells == null ? new ArrayList<>() : staticCells;
        staticCells.addAll(w.cells);
        continue;
      }
      LivenessInfo liveness = kind == Kind.INSERT
          ? (ttlSeconds > 0 ? LivenessInfo.expiring(ts, ttlSeconds, now) : LivenessInfo.of(ts))
          : LivenessInfo.EMPTY;
      if (!w.cells.isEmpty() || !liveness.isEmpty()) {
        b.row(new Row(clustering, liveness, DeletionTime.LIVE, sorted(w.cells)));
      }
    }
    if (staticCells != null && !staticCells.isEmpty()) {
      b.row(new Row(new byte[0], LivenessInfo.EMPTY, DeletionTime.LIVE, sorted(staticCells)));
    }
    PartitionUpdate built = b.build();
    out.add(built);
    SecondaryIndexes.addEntries(table, built, out, now);
  }

  /** Refuses null or oversized clustering values; returns the encoded clustering. */
  private byte[] checkClustering(List<byte[]> ck) {
    for (int i = 0; i < ck.size(); i++) {
      if (ck.get(i) == null) {
        throw invalid("Invalid null value for clustering key part " + table.clustering.get(i).name());
      }
    }
    byte[] enc = KeyCodec.clustering(table, ck);
    if (enc.length > 0xFFFF) {
      throw invalid("Key length of " + enc.length + " is longer than maximum of 65535");
    }
    return enc;
  }

  private static final List<List<byte[]>> ONE_EMPTY_CLUSTERING = List.of(List.of());

  private static final java.util.Comparator<Cell> CELL_ORDER = (a, b) -> {
    int c = a.column().compareTo(b.column());
    if (c != 0) {
      return c;
    }
    if (a.path() == null || b.path() == null) {
      return a.path() == null ? (b.path() == null ? 0 : -1) : 1;
    }
    return io.cassette.storage.Bytes.compare(a.path(), b.path());
  };

  private static List<Cell> sorted(List<Cell> cells) {
    boolean ascending = true;
    for (int i = 1, n = cells.size(); i < n && ascending; i++) {
      ascending = CELL_ORDER.compare(cells.get(i - 1), cells.get(i)) < 0;
    }
    if (ascending) {
      return cells; // the common case (an INSERT of distinct columns, in order): Row copies it once
    }
    List<Cell> out = new ArrayList<>(cells);
    out.sort(CELL_ORDER);
    // A later cell for the same column/path replaces an earlier one (e.g. tombstone then value).
    List<Cell> dedup = new ArrayList<>();
    for (Cell c : out) {
      if (!dedup.isEmpty()) {
        Cell last = dedup.get(dedup.size() - 1);
        if (last.column().equals(c.column()) && Arrays.equals(last.path(), c.path())) {
          dedup.set(dedup.size() - 1, c.timestamp() >= last.timestamp() ? c : last);
          continue;
        }
      }
      dedup.add(c);
    }
    return dedup;
  }

  /** Cassandra refuses a Paxos round at a serial level that is not one (e.g. QUORUM). */
  static void checkSerialConsistency(QueryContext ctx) {
    io.cassette.coordinator.ConsistencyLevel serial = ctx.request().serialConsistency();
    if (serial != io.cassette.coordinator.ConsistencyLevel.SERIAL
        && serial != io.cassette.coordinator.ConsistencyLevel.LOCAL_SERIAL) {
      throw invalid("Invalid consistency for conditional update. Must be one of SERIAL or LOCAL_SERIAL");
    }
  }

  private Result executeConditional(QueryContext ctx) {
    checkSerialConsistency(ctx);
    List<byte[]> keys = where.partitionKeys(ctx);
    if (keys.size() != 1) {
      throw invalid("IN on the partition key is not supported with conditional " + (kind == Kind.DELETE ? "deletions" : "updates"));
    }
    if (!onlyStatic && !table.clustering.isEmpty() && where.clusteringComplete()
        && where.clusteringPrefixes(ctx).size() > 1) {
      throw invalid("IN on the clustering key columns is not supported with conditional " + (kind == Kind.DELETE ? "deletions" : "updates"));
    }
    byte[] key = keys.get(0);
    return ctx.services.coordinator().compareAndSet(table.keyspace, table.name, key,
        (reader, writes) -> executeConditional(ctx, key, reader, writes), ctx.request());
  }

  /** The body of a lightweight transaction, run by the coordinator with the partition held. */
  private Result executeConditional(QueryContext ctx, byte[] key, PartitionReader reader,
                                    List<PartitionUpdate> writes) {
    {
      RowView current = currentRow(ctx, reader, key);
      List<ByteBuffer> failure = check(ctx, current);
      if (failure != null) {
        List<ColumnSpec> specs = new ArrayList<>();
        specs.add(applied());
        if (ifNotExists) {
          for (ColumnMetadata c : table.columns) {
            specs.add(new ColumnSpec(table.keyspace, table.name, c.name(), c.type()));
          }
        } else if (!ifExists && failure.size() > 1) {
          for (ColumnMetadata c : conditions.columns()) {
            specs.add(new ColumnSpec(table.keyspace, table.name, c.name(), c.type()));
          }
        }
        return new Result.Rows(specs, List.of(failure), null);
      }
      long ts = ctx.services.clock().nextMicros();
      collectFor(ctx, ts, key, reader, writes);
      List<ByteBuffer> row = new ArrayList<>();
      row.add(ByteBuffer.wrap(Values.ofBoolean(true)));
      return new Result.Rows(List.of(applied()), List.of(row), null);
    }
  }

  /** The row the conditions are checked against, or null when it does not exist. */
  RowView currentRow(QueryContext ctx, PartitionReader reader, byte[] key) {
    byte[] clustering = new byte[0];
    List<byte[]> ck = null;
    if (!onlyStatic && !table.clustering.isEmpty()) {
      ck = where.clusteringPrefixes(ctx).get(0);
      clustering = KeyCodec.clustering(table, ck);
    }
    PartitionView pv = SelectStatement.normalize(table, reader.read(ReadQuery.row(clustering, ctx.nowInSeconds())));
    Row row = pv.rows().isEmpty() ? null : pv.rows().get(0);
    boolean exists = onlyStatic ? pv.staticRow() != null : row != null;
    if (!exists) {
      return null;
    }
    return new RowView(table, key, pv.key().token(), KeyCodec.splitPartitionKey(table, key),
        ck, row, pv.staticRow());
  }

  /** Null when the conditions hold; else the [applied]=false row Cassandra returns. */
  List<ByteBuffer> check(QueryContext ctx, RowView current) {
    return conditions.check(ctx, current, ifNotExists, ifExists);
  }
}
