package io.cassette.cql.language.statements;

import io.cassette.cql.ClientWarnings;
import io.cassette.cql.ReplicaException;
import io.cassette.cql.Tracing;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.TextForms;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.ReadStats;
import io.cassette.storage.Table;
import java.net.InetAddress;
import java.util.List;
import java.util.Map;

/**
 * A stored table's reads as Cassandra observes them: the trace steps of a read ("Executing
 * single-partition query on t", "Merged data from memtables and N sstables", "Read N live rows
 * and M tombstone cells") and the tombstone thresholds, with Cassandra's warning and failure.
 *
 * <p>Counts come from the storage's {@link ReadStats}, so they cover the reads made on this
 * thread: all of them on a single node; on a ring, replicas' reads are not counted here.
 */
final class ObservedTable implements TableReader {
  /** Cassandra's RequestFailureReason.READ_TOO_MANY_TOMBSTONES. */
  static final int READ_TOO_MANY_TOMBSTONES = 1;

  private final TableReader delegate;
  private final TableMetadata table;
  private final QueryContext ctx;
  /**
   * A SELECT may read one partition in several pieces (its size bound, see ResultSizeLimits):
   * the live rows and tombstones of the pieces add up, as in the one read Cassandra makes.
   */
  private byte[] lastKey;
  private int carriedLive;
  private long carriedTombstones;

  ObservedTable(TableReader delegate, TableMetadata table, QueryContext ctx) {
    this.delegate = delegate;
    this.table = table;
    this.ctx = ctx;
  }

  @Override
  public PartitionView read(byte[] partitionKey, ReadQuery query) {
    boolean tracing = Tracing.isTracing(); // the steps' text is built only for a traced request
    if (tracing) {
      Tracing.trace("Executing single-partition query on " + table.name);
      Tracing.trace("Acquiring sstable references");
    }
    ReadStats outer = ReadStats.current();
    ReadStats stats = ReadStats.start();
    PartitionView pv;
    try {
      pv = delegate.read(partitionKey, query);
    } finally {
      if (outer != null) {
        ReadStats.restore(outer, stats);
      } else {
        ReadStats.stop();
      }
    }
    if (tracing) {
      Tracing.trace("Skipped 0/" + stats.sstables() + " non-slice-intersecting sstables, included 0 due to tombstones");
      Tracing.trace("Merged data from memtables and " + stats.sstables() + " sstables");
    }
    int live = pv.rows().size() + (pv.rows().isEmpty() && pv.staticRow() != null ? 1 : 0);
    long tombstones = stats.tombstones();
    boolean warned = false;
    if (java.util.Arrays.equals(partitionKey, lastKey)) {
      live += carriedLive;
      tombstones += carriedTombstones;
      warned = ctx.services.tombstones().warn() >= 0 && carriedTombstones > ctx.services.tombstones().warn();
    }
    lastKey = partitionKey;
    carriedLive = live;
    carriedTombstones = tombstones;
    if (tracing) {
      Tracing.trace("Read " + live + " live rows and " + tombstones + " tombstone cells");
    }
    if (warned) {
      failIfOver(tombstones); // warned once for this partition already
    } else {
      check(live, tombstones, partitionKey, query);
    }
    return pv;
  }

  @Override
  public Table.CloseableIterator<PartitionView> indexScan(KeyRange range, ReadQuery query,
                                                          io.cassette.storage.index.IndexQuery index) {
    Tracing.trace("Executing read against storage-attached indexes of " + table.name);
    return delegate.indexScan(range, query, index);
  }

  @Override
  public Table.CloseableIterator<PartitionView> scan(KeyRange range, ReadQuery query) {
    if (Tracing.isTracing()) {
      String start = range.after() == null ? "min(-9223372036854775808)" : Long.toString(range.after().token());
      String end = range.endToken() == Long.MAX_VALUE ? "min(-9223372036854775808)" : Long.toString(range.endToken());
      Tracing.trace("Executing seq scan across sstables for (" + start + ", " + end + "]");
    }
    ReadStats outer = ReadStats.current();
    ReadStats stats = ReadStats.start();
    Table.CloseableIterator<PartitionView> it;
    try {
      it = delegate.scan(range, query);
    } catch (RuntimeException e) {
      ReadStats.stop();
      throw e;
    }
    return new Table.CloseableIterator<>() {
      int live;
      byte[] lastKey;
      boolean closed;

      public boolean hasNext() {
        return it.hasNext();
      }

      public PartitionView next() {
        PartitionView pv = it.next();
        live += pv.rows().size() + (pv.rows().isEmpty() && pv.staticRow() != null ? 1 : 0);
        lastKey = pv.key().key();
        failIfOver(stats.tombstones());
        return pv;
      }

      public void close() {
        if (closed) {
          return;
        }
        closed = true;
        try {
          it.close();
        } finally {
          if (outer != null) {
            ReadStats.restore(outer, stats);
          } else {
            ReadStats.stop();
          }
        }
        Tracing.trace("Read " + live + " live rows and " + stats.tombstones() + " tombstone cells");
        if (lastKey != null) {
          warnIfOver(live, stats.tombstones(), lastKey, query);
        }
      }
    };
  }

  private void check(int live, long tombstones, byte[] partitionKey, ReadQuery query) {
    failIfOver(tombstones);
    warnIfOver(live, tombstones, partitionKey, query);
  }

  private void failIfOver(long tombstones) {
    TombstoneThresholds t = ctx.services.tombstones();
    if (t.failure() >= 0 && tombstones > t.failure()) {
      InetAddress self = ctx.services.node().listenAddress();
      throw new ReplicaException.ReadFailure(ctx.options.consistency(), 0, 1, Map.of(self, READ_TOO_MANY_TOMBSTONES),
          false, "Operation failed - received 0 responses and 1 failures: READ_TOO_MANY_TOMBSTONES from /"
          + self.getHostAddress() + ":" + ctx.services.node().ring().storagePort());
    }
  }

  private void warnIfOver(int live, long tombstones, byte[] partitionKey, ReadQuery query) {
    TombstoneThresholds t = ctx.services.tombstones();
    if (t.warn() >= 0 && tombstones > t.warn()) {
      ClientWarnings.add("Read " + live + " live rows and " + tombstones + " tombstone cells for query "
          + cql(partitionKey, query) + "; token " + DecoratedKey.of(partitionKey).token()
          + " (see tombstone_warn_threshold)");
    }
  }

  /** The read as Cassandra prints it: {@code SELECT * FROM ks.t WHERE k = 1 LIMIT 5000 ALLOW FILTERING}. */
  private String cql(byte[] partitionKey, ReadQuery query) {
    StringBuilder sb = new StringBuilder("SELECT ").append(ctx.readColumns()).append(" FROM ").append(table)
        .append(" WHERE ");
    List<byte[]> values = KeyCodec.splitPartitionKey(table, partitionKey);
    for (int i = 0; i < table.partitionKey.size(); i++) {
      ColumnMetadata c = table.partitionKey.get(i);
      sb.append(i == 0 ? "" : " AND ").append(io.cassette.cql.language.types.Identifiers.quoteIfNeeded(c.name()))
          .append(" = ").append(TextForms.toCqlLiteral(c.type(), values.get(i)));
    }
    int asked = ctx.askedRowLimit() != 0 ? ctx.askedRowLimit() : query.rowLimit();
    int limit = asked == Integer.MAX_VALUE && ctx.options.pageSize() > 0 ? ctx.options.pageSize() : asked;
    if (limit != Integer.MAX_VALUE) {
      sb.append(" LIMIT ").append(limit);
    }
    return sb.append(" ALLOW FILTERING").toString();
  }
}
