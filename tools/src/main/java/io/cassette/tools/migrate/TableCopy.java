package io.cassette.tools.migrate;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Copies one table range by range: {@code SELECT cols FROM t WHERE token(pk) > ? AND
 * token(pk) <= ?}, paged, each row's values bound as raw bytes (the protocol's serialized
 * form is the same on both clusters, so every type, collections and UDTs included, copies
 * unchanged) into a prepared INSERT on the target, at most {@code inFlight} writes at a time.
 * Counter tables are copied with {@code UPDATE ... SET c = c + ?}, which is not idempotent:
 * a counter range interrupted half-way and copied again counts twice (the verification says so).
 * Null cells are left unset, so no tombstones are written.
 */
final class TableCopy {
  final String name;
  private final CqlSession source;
  private final CqlSession target;
  private final List<String> columns = new ArrayList<>();
  private final int partitionKeys;
  private final int keyColumns;
  private final boolean counters;
  private final String tokenOf;
  private final String from;
  private final ConsistencyLevel consistency;
  private final int pageSize;
  private PreparedStatement sourceSelect;
  private PreparedStatement targetSelect;
  private PreparedStatement write;
  /** Writes a partition's static columns alone (a partition with no clustering rows). */
  private PreparedStatement writeStatic;
  private final List<Integer> staticColumns = new ArrayList<>();

  TableCopy(TableMetadata t, CqlSession source, CqlSession target, ConsistencyLevel consistency, int pageSize) {
    this.source = source;
    this.target = target;
    this.consistency = consistency;
    this.pageSize = pageSize;
    this.name = t.getKeyspace().asInternal() + "." + t.getName().asInternal();
    this.from = SchemaCopier.qualified(t.getKeyspace(), t.getName());
    List<String> keys = SchemaCopier.names(t.getPartitionKey());
    this.partitionKeys = keys.size();
    columns.addAll(keys);
    for (ColumnMetadata c : t.getClusteringColumns().keySet()) {
      columns.add(c.getName().asCql(true));
    }
    this.keyColumns = columns.size();
    boolean anyCounter = false;
    for (ColumnMetadata c : t.getColumns().values()) {
      String n = c.getName().asCql(true);
      if (!columns.contains(n)) {
        if (c.isStatic()) {
          staticColumns.add(columns.size());
        }
        columns.add(n);
        anyCounter |= c.getType().equals(DataTypes.COUNTER);
      }
    }
    this.counters = anyCounter;
    this.tokenOf = "token(" + String.join(", ", keys) + ")";
  }

  void prepare() {
    String select = "SELECT " + String.join(", ", columns) + " FROM " + from
        + " WHERE " + tokenOf + " > ? AND " + tokenOf + " <= ?";
    sourceSelect = source.prepare(select);
    targetSelect = target.prepare(select);
    if (counters) {
      write = target.prepare(counterUpdate(columns.size()));
      writeStatic = null;
    } else {
      write = target.prepare(insert(columns.subList(0, columns.size())));
      List<String> staticOnly = new ArrayList<>(columns.subList(0, partitionKeys));
      for (int i : staticColumns) {
        staticOnly.add(columns.get(i));
      }
      writeStatic = staticColumns.isEmpty() ? null : target.prepare(insert(staticOnly));
    }
  }

  private String insert(List<String> cols) {
    return "INSERT INTO " + from + " (" + String.join(", ", cols) + ") VALUES ("
        + "?, ".repeat(cols.size() - 1) + "?)";
  }

  private String counterUpdate(int count) {
    List<String> sets = new ArrayList<>();
    for (int i = keyColumns; i < count; i++) {
      sets.add(columns.get(i) + " = " + columns.get(i) + " + ?");
    }
    List<String> where = new ArrayList<>();
    for (int i = 0; i < keyColumns; i++) {
      where.add(columns.get(i) + " = ?");
    }
    return "UPDATE " + from + " SET " + String.join(", ", sets) + " WHERE " + String.join(" AND ", where);
  }

  /** Copies one range; returns the checksum of the rows read from the source. */
  RowChecksum copy(TokenSplits.Range range, Throttle throttle, int inFlight) throws InterruptedException {
    RowChecksum sum = new RowChecksum();
    Semaphore permits = new Semaphore(inFlight);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    ResultSet rs = source.execute(bind(sourceSelect, range));
    ByteBuffer[] values = new ByteBuffer[columns.size()];
    for (Row row : rs) {
      long bytesBefore = sum.bytes();
      for (int i = 0; i < values.length; i++) {
        values[i] = row.getBytesUnsafe(i);
      }
      sum.add(values);
      throttle.acquire(1, sum.bytes() - bytesBefore);
      BoundStatement w = bindWrite(values);
      if (w == null) {
        continue;
      }
      if (failure.get() != null) {
        break;
      }
      permits.acquire();
      CompletionStage<AsyncResultSet> done = target.executeAsync(w);
      done.whenComplete((r, e) -> {
        if (e != null) {
          failure.compareAndSet(null, e);
        }
        permits.release();
      });
    }
    permits.acquire(inFlight); // every write of the range answered
    Throwable e = failure.get();
    if (e != null) {
      throw new IllegalStateException("writing " + name + " range " + range.index() + " failed: " + e.getMessage(), e);
    }
    return sum;
  }

  /** Rows and checksum of one range as {@code session} (the source or the target) holds it. */
  RowChecksum checksum(TokenSplits.Range range, boolean onTarget) {
    RowChecksum sum = new RowChecksum();
    CqlSession s = onTarget ? target : source;
    ResultSet rs = s.execute(bind(onTarget ? targetSelect : sourceSelect, range));
    ByteBuffer[] values = new ByteBuffer[columns.size()];
    for (Row row : rs) {
      for (int i = 0; i < values.length; i++) {
        values[i] = row.getBytesUnsafe(i);
      }
      sum.add(values);
    }
    return sum;
  }

  private BoundStatement bind(PreparedStatement select, TokenSplits.Range range) {
    return select.bind(range.start(), range.end()).setPageSize(pageSize).setConsistencyLevel(consistency);
  }

  /** The write of one row, or null when there is nothing to write. */
  private BoundStatement bindWrite(ByteBuffer[] values) {
    boolean staticRow = false;
    for (int i = partitionKeys; i < keyColumns; i++) {
      staticRow |= values[i] == null;
    }
    if (counters) {
      BoundStatement b = write.bind().setConsistencyLevel(consistency);
      int at = 0;
      for (int i = keyColumns; i < values.length; i++) {
        b = b.setBytesUnsafe(at++, values[i] == null ? ByteBuffer.wrap(new byte[8]) : values[i]);
      }
      for (int i = 0; i < keyColumns; i++) {
        b = b.setBytesUnsafe(at++, values[i]);
      }
      return staticRow ? null : b;
    }
    if (staticRow) { // only the partition's static columns: no clustering row exists
      if (writeStatic == null) {
        return null;
      }
      BoundStatement b = writeStatic.bind().setConsistencyLevel(consistency);
      for (int i = 0; i < partitionKeys; i++) {
        b = b.setBytesUnsafe(i, values[i]);
      }
      int at = partitionKeys;
      for (int i : staticColumns) {
        if (values[i] != null) {
          b = b.setBytesUnsafe(at, values[i]);
        }
        at++;
      }
      return b;
    }
    BoundStatement b = write.bind().setConsistencyLevel(consistency);
    for (int i = 0; i < values.length; i++) {
      if (values[i] != null) {
        b = b.setBytesUnsafe(i, values[i]);
      }
    }
    return b;
  }
}
