package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.coordinator.BatchType;
import io.cassette.coordinator.PartitionReader;
import io.cassette.cql.ClientWarnings;
import io.cassette.cql.ColumnSpec;
import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.Schema;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.Cell;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A BATCH: its statements' partition updates written as one mutation (atomic on this node),
 * counters applied under their partition locks, conditions checked on one partition.
 */
public final class BatchExecution implements Executable {
  /** Cassandra's batch_size_warn_threshold (5 KiB). */
  public static final int WARN_THRESHOLD_BYTES = 5 * 1024;

  private final int type;
  private final List<ModificationStatement> statements = new ArrayList<>();
  private final List<ColumnSpec> variables;
  private final Value timestamp;

  BatchExecution(Statement.Batch b, StatementCompiler compiler, String keyspace, Schema schema) {
    this.type = b.type();
    Bindings bindings = new Bindings();
    for (Statement s : b.statements()) {
      Statement.QualifiedName name = s instanceof Statement.Insert i ? i.table()
          : s instanceof Statement.Update u ? u.table() : ((Statement.Delete) s).table();
      TableMetadata t = StatementCompiler.writableTable(schema, name, keyspace);
      if (b.timestamp() != null && hasTimestamp(s)) {
        throw invalid("Timestamp must be set either on BATCH or individual statements");
      }
      statements.add(new ModificationStatement(t, s, compiler.terms(schema, t, bindings), compiler.source(schema)));
    }
    this.timestamp = b.timestamp() == null ? null : new TermCompiler(bindings, null).compile(b.timestamp(),
        new Receiver(null, null, "[timestamp]", Types.BIGINT));
    this.variables = bindings.specs();
    validate(type, statements, b.timestamp() != null);
  }

  private static boolean hasTimestamp(Statement s) {
    return s instanceof Statement.Insert i ? i.timestamp() != null
        : s instanceof Statement.Update u ? u.timestamp() != null : ((Statement.Delete) s).timestamp() != null;
  }

  /** Cassandra's rules on mixing counters, conditions and timestamps in one batch. */
  public static void validate(int type, List<ModificationStatement> statements, boolean batchTimestamp) {
    boolean counters = false;
    boolean nonCounters = false;
    boolean conditional = false;
    for (ModificationStatement s : statements) {
      counters |= s.isCounter();
      nonCounters |= !s.isCounter();
      conditional |= s.isConditional();
    }
    if (type == Statement.Batch.COUNTER && nonCounters) {
      throw invalid("Cannot include non-counter statement in a counter batch");
    }
    if (counters && nonCounters) {
      throw invalid("Counter and non-counter mutations cannot exist in the same batch");
    }
    if (type == Statement.Batch.LOGGED && counters) {
      throw invalid("Cannot include a counter statement in a logged batch");
    }
    if (conditional && batchTimestamp) {
      throw invalid("Cannot provide custom timestamp for conditional BATCH");
    }
    if (conditional && counters) {
      throw invalid("Cannot include a counter statement in a conditional batch");
    }
  }

  @Override
  public List<ColumnSpec> variables() {
    return variables;
  }

  @Override
  public Result execute(QueryContext ctx) {
    List<QueryContext> ctxs = new ArrayList<>();
    for (int i = 0; i < statements.size(); i++) {
      ctxs.add(ctx);
    }
    Long ts = null;
    if (timestamp != null) {
      byte[] v = timestamp.get(ctx);
      if (v != null && v != QueryContext.UNSET) {
        ts = Values.toLong(v);
      }
    }
    return run(type, statements, ctxs, ts, ctx);
  }

  /** Runs compiled statements, each with its own bound values (protocol BATCH messages too). */
  public static Result run(int type, List<ModificationStatement> statements, List<QueryContext> ctxs,
                           Long batchTimestamp, QueryContext batchCtx) {
    boolean conditional = false;
    boolean counters = false;
    for (ModificationStatement s : statements) {
      conditional |= s.isConditional();
      counters |= s.isCounter();
    }
    if (counters) {
      for (int i = 0; i < statements.size(); i++) {
        statements.get(i).execute(ctxs.get(i));
      }
      return Result.Void.INSTANCE;
    }
    long ts = batchTimestamp != null ? batchTimestamp : batchCtx.timestamp();
    if (conditional) {
      ModificationStatement.checkSerialConsistency(batchCtx);
      return runConditional(statements, ctxs, batchCtx);
    }
    List<PartitionUpdate> updates = new ArrayList<>();
    for (int i = 0; i < statements.size(); i++) {
      ModificationStatement s = statements.get(i);
      s.collect(ctxs.get(i), statementTimestamp(s, ctxs.get(i), ts), updates);
    }
    warnSize(updates);
    if (type == Statement.Batch.UNLOGGED) {
      warnUnlogged(updates);
    }
    if (!updates.isEmpty()) {
      batchCtx.services.coordinator().batch(merge(updates),
          type == Statement.Batch.UNLOGGED ? BatchType.UNLOGGED : BatchType.LOGGED, batchCtx.request());
    }
    return Result.Void.INSTANCE;
  }

  private static long statementTimestamp(ModificationStatement s, QueryContext ctx, long batchTs) {
    long own = s.timestamp(ctx);
    return own == ctx.timestamp() ? batchTs : own;
  }

  /** Updates of one partition are applied atomically; merge them so each key appears once. */
  private static List<PartitionUpdate> merge(List<PartitionUpdate> updates) {
    List<PartitionUpdate> out = new ArrayList<>();
    for (PartitionUpdate u : updates) {
      int found = -1;
      for (int i = 0; i < out.size(); i++) {
        PartitionUpdate o = out.get(i);
        if (o.keyspace().equals(u.keyspace()) && o.table().equals(u.table()) && Arrays.equals(o.key(), u.key())) {
          found = i;
          break;
        }
      }
      if (found < 0) {
        out.add(u);
        continue;
      }
      PartitionUpdate o = out.get(found);
      List<io.cassette.storage.RangeTombstone> rts = new ArrayList<>(o.rangeTombstones());
      rts.addAll(u.rangeTombstones());
      List<Row> rows = new ArrayList<>(o.rows());
      for (Row r : u.rows()) {
        int same = -1;
        for (int j = 0; j < rows.size(); j++) {
          if (Arrays.equals(rows.get(j).clustering(), r.clustering())) {
            same = j;
          }
        }
        if (same < 0) {
          rows.add(r);
        } else {
          Row a = rows.get(same);
          List<Cell> cells = new ArrayList<>(a.cells());
          cells.addAll(r.cells());
          cells.sort((x, y) -> {
            int c = x.column().compareTo(y.column());
            if (c != 0) {
              return c;
            }
            if (x.path() == null || y.path() == null) {
              return x.path() == null ? (y.path() == null ? Long.compare(x.timestamp(), y.timestamp()) : -1) : 1;
            }
            int p = io.cassette.storage.Bytes.compare(x.path(), y.path());
            return p != 0 ? p : Long.compare(x.timestamp(), y.timestamp());
          });
          List<Cell> dedup = new ArrayList<>();
          for (Cell c : cells) {
            if (!dedup.isEmpty()) {
              Cell last = dedup.get(dedup.size() - 1);
              if (last.column().equals(c.column()) && Arrays.equals(last.path(), c.path())) {
                dedup.set(dedup.size() - 1, c);
                continue;
              }
            }
            dedup.add(c);
          }
          io.cassette.storage.LivenessInfo li = a.liveness().timestamp() >= r.liveness().timestamp()
              ? a.liveness() : r.liveness();
          io.cassette.storage.DeletionTime dt = a.deletion().supersedes(r.deletion());
          rows.set(same, new Row(a.clustering(), li, dt, dedup));
        }
      }
      rows.sort((x, y) -> io.cassette.storage.Bytes.compare(x.clustering(), y.clustering()));
      out.set(found, new PartitionUpdate(o.keyspace(), o.table(), o.key(),
          o.partitionDeletion().supersedes(u.partitionDeletion()), rts, rows));
    }
    return out;
  }

  private static Result runConditional(List<ModificationStatement> statements, List<QueryContext> ctxs,
                                       QueryContext batchCtx) {
    Set<String> tables = new LinkedHashSet<>();
    for (ModificationStatement s : statements) {
      tables.add(s.table.keyspace + "." + s.table.name);
    }
    if (tables.size() > 1) {
      throw invalid("Batch with conditions cannot span multiple tables"); // checked before partitions, as Cassandra
    }
    Set<String> partitions = new LinkedHashSet<>();
    byte[] key = null;
    for (int i = 0; i < statements.size(); i++) {
      ModificationStatement s = statements.get(i);
      List<PartitionUpdate> probe = new ArrayList<>();
      s.collect(ctxs.get(i), 0, probe);
      for (PartitionUpdate u : probe) {
        partitions.add(u.keyspace() + "." + u.table() + ":" + Arrays.toString(u.key()));
        key = u.key();
      }
    }
    if (partitions.size() > 1) {
      throw invalid("Batch with conditions cannot span multiple partitions");
    }
    ModificationStatement first = statements.get(0);
    byte[] partition = key;
    return batchCtx.services.coordinator().compareAndSet(first.table.keyspace, first.table.name, partition,
        (reader, writes) -> runConditional(statements, ctxs, batchCtx, partition, reader, writes),
        batchCtx.request());
  }

  /** The body of a conditional batch, run by the coordinator with the partition held. */
  private static Result runConditional(List<ModificationStatement> statements, List<QueryContext> ctxs,
                                       QueryContext batchCtx, byte[] key, PartitionReader reader,
                                       List<PartitionUpdate> writes) {
    ModificationStatement first = statements.get(0);
    {
      // As Cassandra: every condition is checked; if one fails, the answer is [applied] false
      // with the current row of each conditional statement (those that exist, each once), its
      // primary key and the conditions' columns, or every column when one checks existence.
      boolean failed = false;
      boolean everyColumn = false;
      Set<ColumnMetadata> columns = new LinkedHashSet<>();
      List<RowView> rows = new ArrayList<>();
      Set<List<ByteBuffer>> seenRows = new java.util.HashSet<>();
      for (int i = 0; i < statements.size(); i++) {
        ModificationStatement s = statements.get(i);
        if (!s.isConditional()) {
          continue;
        }
        RowView current = s.currentRow(ctxs.get(i), reader, key);
        failed |= s.check(ctxs.get(i), current) != null;
        everyColumn |= s.checksExistence();
        columns.addAll(s.conditionColumns());
        if (current != null) {
          List<ByteBuffer> pk = new ArrayList<>();
          for (ColumnMetadata c : primaryKey(s.table)) {
            byte[] v = current.value(c);
            pk.add(v == null ? null : ByteBuffer.wrap(v));
          }
          if (seenRows.add(pk)) {
            rows.add(current);
          }
        }
      }
      if (failed) {
        List<ColumnMetadata> shown = new ArrayList<>();
        if (everyColumn) {
          shown.addAll(first.table.columns);
        } else if (!rows.isEmpty()) {
          shown.addAll(primaryKey(first.table));
          for (ColumnMetadata c : columns) {
            if (!shown.contains(c)) {
              shown.add(c);
            }
          }
        }
        if (rows.isEmpty()) {
          shown.clear();
        }
        List<ColumnSpec> specs = new ArrayList<>();
        specs.add(new ColumnSpec(first.table.keyspace, first.table.name, "[applied]", Types.BOOLEAN));
        for (ColumnMetadata c : shown) {
          specs.add(new ColumnSpec(first.table.keyspace, first.table.name, c.name(), c.type()));
        }
        List<List<ByteBuffer>> out = new ArrayList<>();
        for (RowView r : rows.isEmpty() ? java.util.Collections.<RowView>singletonList(null) : rows) {
          List<ByteBuffer> row = new ArrayList<>();
          row.add(ByteBuffer.wrap(Values.ofBoolean(false)));
          for (ColumnMetadata c : shown) {
            byte[] v = r.value(c);
            row.add(v == null ? null : ByteBuffer.wrap(v));
          }
          out.add(row);
        }
        return new Result.Rows(specs, out, null);
      }
      long ts = batchCtx.services.clock().nextMicros();
      List<PartitionUpdate> updates = new ArrayList<>();
      for (int i = 0; i < statements.size(); i++) {
        statements.get(i).collect(ctxs.get(i), ts, updates);
      }
      writes.addAll(merge(updates));
      List<ByteBuffer> row = new ArrayList<>();
      row.add(ByteBuffer.wrap(Values.ofBoolean(true)));
      return new Result.Rows(List.of(new ColumnSpec(first.table.keyspace, first.table.name, "[applied]",
          Types.BOOLEAN)), List.of(row), null);
    }
  }

  private static List<ColumnMetadata> primaryKey(TableMetadata table) {
    return table.columns.subList(0, table.partitionKey.size() + table.clustering.size());
  }

  private static void warnSize(List<PartitionUpdate> updates) {
    if (updates.size() <= 1) {
      return;
    }
    long size = 0;
    Set<String> tables = new LinkedHashSet<>();
    for (PartitionUpdate u : updates) {
      tables.add(u.keyspace() + "." + u.table());
      for (Row r : u.rows()) {
        for (Cell c : r.cells()) {
          size += c.value() == null ? 0 : c.value().length;
        }
      }
    }
    if (size > WARN_THRESHOLD_BYTES) {
      ClientWarnings.add("Batch for " + tables + " is of size " + pretty(size)
          + ", exceeding specified threshold of " + pretty(WARN_THRESHOLD_BYTES) + " by "
          + pretty(size - WARN_THRESHOLD_BYTES) + ".");
    }
  }

  private static void warnUnlogged(List<PartitionUpdate> updates) {
    Set<String> keys = new LinkedHashSet<>();
    Set<String> tables = new LinkedHashSet<>();
    for (PartitionUpdate u : updates) {
      keys.add(Arrays.toString(u.key()));
      tables.add(u.keyspace() + "." + u.table());
    }
    if (keys.size() > 10) {
      ClientWarnings.add("Unlogged batch covering " + keys.size() + " partitions detected against table"
          + (tables.size() > 1 ? "s " : " ") + tables + ". You should use a logged batch for atomicity,"
          + " or asynchronous writes for performance.");
    }
  }

  private static String pretty(long bytes) {
    if (bytes >= 1L << 20) {
      return String.format("%.3fMiB", bytes / (double) (1L << 20));
    }
    if (bytes >= 1024) {
      return String.format("%.3fKiB", bytes / 1024.0);
    }
    return bytes + "B";
  }
}
