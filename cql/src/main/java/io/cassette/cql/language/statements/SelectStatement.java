package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.ValueComparison;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.Bytes;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.Table;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** A compiled SELECT: partitions, slices, filters, selection, ordering, limits and paging. */
public final class SelectStatement implements Executable {
  private static final String FILTERING_MESSAGE = "Cannot execute this query as it might involve"
      + " data filtering and thus may have unpredictable performance. If you want to execute this"
      + " query despite the performance unpredictability, use ALLOW FILTERING";

  private final TableMetadata table;
  private final TableSource source;
  private final Restrictions where;
  /** Masked columns the WHERE clause restricts: the client needs UNMASK or SELECT_MASKED. */
  private final List<String> maskedRestricted;
  private final Selection selection;
  /** {@link #readColumns()}, once: table and selection are fixed for this statement. */
  private String readColumns;
  private final List<ColumnSpec> variables;
  private final boolean reversed;
  private final boolean orderAcrossPartitions;
  private final List<Statement.Ordering> ordering;
  private final Value limit;
  private final Value perPartitionLimit;
  private final boolean distinct;
  private final List<ColumnMetadata> groupBy = new ArrayList<>();
  private final int[] pkIndexes;
  /** ORDER BY c ANN OF [...]: the vector column, the query vector and the index's similarity; else null. */
  private final ColumnMetadata annColumn;
  private final Value annVector;
  private final String annSimilarity;
  /** The name of the index on annColumn: storage's graph answers through it where it is local. */
  private final String annIndex;
  /** Cassandra 5.0's bound on LIMIT with ANN ordering. */
  static final int MAX_ANN_LIMIT = 1000;

  public SelectStatement(TableMetadata table, Statement.Select s, TermCompiler terms,
                         TableSource source) {
    this.table = table;
    this.source = source;
    this.selection = new Selection(table, s.selectors(), s.json(), terms);
    this.where = Restrictions.compile(table, s.where(), terms, true);
    List<String> masked = new ArrayList<>();
    for (io.cassette.cql.language.parser.Relation r : s.where()) {
      for (String c : r.columns()) {
        if (table.mask(c) != null && !masked.contains(c)) {
          masked.add(c);
        }
      }
    }
    this.maskedRestricted = List.copyOf(masked);
    this.distinct = s.distinct();
    this.ordering = s.orderBy();
    if (where.needsFiltering && !s.allowFiltering()) {
      ColumnMetadata c = where.clusteringFilterReason;
      if (c != null && where.partitionComplete && where.nonPrimaryKeyColumns.isEmpty() && c.position() > 0) {
        ColumnMetadata prev = table.clustering.get(c.position() - 1);
        if (where.sliceColumns > 0 && where.sliceColumnName.equals(prev.name())) {
          throw invalid("Clustering column \"" + c.name() + "\" cannot be restricted (preceding column \""
              + prev.name() + "\" is restricted by a non-EQ relation)");
        }
        throw invalid("PRIMARY KEY column \"" + c.name() + "\" cannot be restricted as preceding column \""
            + prev.name() + "\" is not restricted");
      }
      throw invalid(FILTERING_MESSAGE);
    }
    if (distinct) {
      List<String> missing = new ArrayList<>();
      for (ColumnMetadata c : selection.referenced) {
        if (!c.isStatic() && c.kind() != ColumnMetadata.Kind.PARTITION_KEY) {
          throw invalid("SELECT DISTINCT queries must only request partition key columns and/or static columns (not "
              + c.name() + ")");
        }
      }
      for (ColumnMetadata c : table.partitionKey) {
        if (!selection.referenced.contains(c) && !selection.aggregate) {
          missing.add(c.name());
        }
      }
      if (!missing.isEmpty()) {
        throw invalid("SELECT DISTINCT queries must request all the partition key columns (missing "
            + String.join(", ", missing) + ")");
      }
      if (where.clusteringRestricted) {
        throw invalid("SELECT DISTINCT with WHERE clause only supports restriction by partition key and/or static columns.");
      }
    }
    boolean rev = false;
    Statement.Ordering ann = ordering.size() == 1 && ordering.get(0).ann() != null ? ordering.get(0) : null;
    if (ann != null) {
      ColumnMetadata c = table.column(ann.column());
      if (c == null) {
        throw invalid("Undefined column name " + ann.column() + " in table " + table);
      }
      if (!(c.type() instanceof io.cassette.cql.CqlType.VectorType)) {
        throw invalid("Unexpected receiver type '" + Types.toCql(c.type()) + "'; only list and vector are expected");
      }
      this.annVector = terms.compile(ann.ann(), Restrictions.receiver(table, c));
      io.cassette.cql.language.schema.IndexMetadata index = SecondaryIndexes.saiOn(table, c);
      if (index == null) {
        throw invalid("ANN ordering by vector requires the column to be indexed");
      }
      this.annColumn = c;
      this.annIndex = index.name();
      this.annSimilarity = index.options().getOrDefault("similarity_function", "COSINE")
          .toUpperCase(java.util.Locale.ROOT);
    } else {
      this.annColumn = null;
      this.annIndex = null;
      this.annVector = null;
      this.annSimilarity = null;
    }
    if (!ordering.isEmpty() && ann == null) {
      if (!where.partitionComplete) {
        throw invalid("ORDER BY is only supported when the partition key is restricted by an EQ or an IN.");
      }
      Boolean r = null;
      int expected = -1;
      for (Statement.Ordering o : ordering) {
        ColumnMetadata c = table.column(o.column());
        if (c == null) {
          throw invalid("Undefined column name " + o.column() + " in table " + table);
        }
        if (c.kind() != ColumnMetadata.Kind.CLUSTERING) {
          throw invalid("Order by is currently only supported on the clustered columns of the PRIMARY KEY, got "
              + c.name());
        }
        if (expected >= 0 && c.position() != expected + 1) {
          throw invalid("Order by currently only supports the ordering of columns following their declared order in the PRIMARY KEY");
        }
        if (expected < 0 && c.position() != 0) {
          // Allowed when the preceding clustering columns are restricted by EQ.
          if (where.clusteringPrefix.size() < c.position()) {
            throw invalid("Order by currently only supports the ordering of columns following their declared order in the PRIMARY KEY");
          }
        }
        expected = c.position();
        boolean thisRev = o.descending() != c.descending();
        if (r != null && r != thisRev) {
          throw invalid("Unsupported order by relation");
        }
        r = thisRev;
      }
      rev = r;
    }
    this.reversed = rev;
    this.orderAcrossPartitions = !ordering.isEmpty() && ann == null;
    for (String g : s.groupBy()) {
      ColumnMetadata c = table.column(g);
      if (c == null) {
        throw invalid("Undefined column name " + g + " in table " + table);
      }
      if (!c.isPrimaryKey()) {
        throw invalid("Group by is currently only supported on the columns of the PRIMARY KEY, got " + c.name());
      }
      int idx = groupBy.size();
      List<ColumnMetadata> pkAndCk = new ArrayList<>(table.partitionKey);
      pkAndCk.addAll(table.clustering);
      if (idx >= pkAndCk.size() || !pkAndCk.get(idx).equals(c)) {
        throw invalid("Group by currently only support groups of columns following their declared order in the PRIMARY KEY");
      }
      groupBy.add(c);
    }
    this.limit = s.limit() == null ? null : terms.compile(s.limit(),
        new Receiver(table.keyspace, table.name, "[limit]", Types.INT));
    this.perPartitionLimit = s.perPartitionLimit() == null ? null : terms.compile(s.perPartitionLimit(),
        new Receiver(table.keyspace, table.name, "[per_partition_limit]", Types.INT));
    this.variables = terms.bindings().specs();
    this.pkIndexes = pkIndexes(table, where);
  }

  /**
   * The restricted masked columns in the order Cassandra's TableMetadata.columns() iterates them:
   * a HashMap keyed by the names' bytes (ByteBuffer hash), so the same HashMap gives the same order.
   */
  private List<String> maskedOrder() {
    java.util.Map<java.nio.ByteBuffer, String> byBytes = new java.util.HashMap<>();
    for (io.cassette.cql.language.schema.ColumnMetadata c : table.columns) {
      byBytes.put(java.nio.ByteBuffer.wrap(c.name().getBytes(java.nio.charset.StandardCharsets.UTF_8)), c.name());
    }
    List<String> out = new ArrayList<>();
    for (String name : byBytes.values()) {
      if (maskedRestricted.contains(name)) {
        out.add(name);
      }
    }
    return out;
  }

  static int[] pkIndexes(TableMetadata table, Restrictions where) {
    int[] out = new int[table.partitionKey.size()];
    for (ColumnMetadata c : table.partitionKey) {
      Integer i = where.partitionMarkers.get(c.name());
      if (i == null) {
        return new int[0];
      }
      out[c.position()] = i;
    }
    return out;
  }

  @Override
  public List<ColumnSpec> variables() {
    return variables;
  }

  @Override
  public List<ColumnSpec> resultColumns() {
    return selection.resultSpecs();
  }

  @Override
  public int[] partitionKeyIndexes() {
    return pkIndexes;
  }

  private int positiveInt(Value v, QueryContext ctx, String what) {
    if (v == null) {
      return Integer.MAX_VALUE;
    }
    byte[] b = v.get(ctx);
    if (b == QueryContext.UNSET) {
      return Integer.MAX_VALUE;
    }
    if (b == null) {
      throw invalid("Invalid null value of " + what.toLowerCase());
    }
    int n = Values.toInt(b);
    if (n <= 0) {
      throw invalid(what + " must be strictly positive");
    }
    return n;
  }

  /**
   * An IN of more partitions reads and waits: a run answered later repeats the runs before it,
   * so k partitions cost k + 1 runs (k(k + 1) / 2 partitions handled).
   */
  private static final int MAX_KEYS_ANSWERED_LATER = 8;

  @Override
  public Result execute(QueryContext ctx) {
    for (int i = 0, n = selection.masks.size(); i < n; i++) { // indexed: no iterator per request (C1)
      selection.masks.get(i).checkArguments();
    }
    if (!maskedRestricted.isEmpty() && !ctx.services.masking().mayQueryMasked(ctx, table)) {
      // Cassandra 5.0's SelectStatement.authorize; the column list as Java prints a list
      throw io.cassette.cql.language.Errors.unauthorized("User " + ctx.state.user()
          + " has no UNMASK nor SELECT_MASKED permission on table " + table.keyspace + "." + table.name
          + ", cannot query masked columns " + maskedOrder());
    }
    List<byte[]> keys = ctx.answersLater() && !table.virtual && annColumn == null ? partitionKeys(ctx) : null;
    if (keys == null || keys.size() > MAX_KEYS_ANSWERED_LATER) {
      return run(ctx);
    }
    // Reads of single partitions only: the answer completes from the replicas' responses, no
    // thread waits for them (PrefetchedReads). Scans and index queries read and wait.
    PrefetchedReads reads = new PrefetchedReads();
    ctx.prefetched(reads);
    java.util.concurrent.CompletableFuture<Result> answer;
    try {
      // The first run on this thread, into this thread's capture of warnings: when every read is
      // answered at once (one node, a local read) that is all, with no future and no capture handed over.
      return run(ctx);
    } catch (PrefetchedReads.Pending p) {
      List<String> warnings = io.cassette.cql.ClientWarnings.current(); // what the runs to come add to
      answer = p.read.thenCompose(view -> {
        reads.arrived(view);
        return attempt(ctx, reads, warnings);
      });
    }
    if (!answer.isDone()) {
      ctx.laterResult(answer);
      return null;
    }
    try {
      return answer.join();
    } catch (java.util.concurrent.CompletionException e) {
      throw e.getCause() instanceof RuntimeException re ? re : e;
    }
  }

  /**
   * One run of the statement over the reads answered so far; when it stops at a read not
   * answered yet, the next run follows that read's answer, on the thread that brings it, with
   * the request's warnings as that thread's capture.
   */
  private java.util.concurrent.CompletableFuture<Result> attempt(QueryContext ctx, PrefetchedReads reads,
                                                                 List<String> warnings) {
    reads.rewind();
    List<String> before = io.cassette.cql.ClientWarnings.swap(warnings);
    try {
      return java.util.concurrent.CompletableFuture.completedFuture(run(ctx));
    } catch (PrefetchedReads.Pending p) {
      return p.read.thenCompose(view -> {
        reads.arrived(view);
        return attempt(ctx, reads, warnings);
      });
    } catch (RuntimeException e) {
      return java.util.concurrent.CompletableFuture.failedFuture(e);
    } finally {
      io.cassette.cql.ClientWarnings.swap(before);
    }
  }

  /**
   * The partition keys the WHERE clause names with this request's values (null: a range), made
   * once per request: execute() asks to decide how to read, and every run asks again.
   */
  private List<byte[]> partitionKeys(QueryContext ctx) {
    if (ctx.partitionKeysOf == where) {
      return ctx.partitionKeys;
    }
    List<byte[]> keys = where.partitionKeys(ctx);
    ctx.partitionKeys = keys;
    ctx.partitionKeysOf = where;
    return keys;
  }

  private Result run(QueryContext ctx) {
    int userLimit = positiveInt(limit, ctx, "LIMIT");
    int ppl = positiveInt(perPartitionLimit, ctx, "PER PARTITION LIMIT");
    boolean grouped = selection.aggregate || !groupBy.isEmpty();
    int pageSize = ctx.options.pageSize() > 0 && !grouped ? ctx.options.pageSize() : Integer.MAX_VALUE;
    PagingState state = ctx.options.pagingState() == null || grouped ? null
        : PagingState.deserialize(ctx.options.pagingState());
    List<byte[]> keys = partitionKeys(ctx);
    if ((selection.aggregate || !groupBy.isEmpty()) && !table.virtual) {
      if (keys == null) {
        io.cassette.cql.ClientWarnings.add("Aggregation query used without partition key");
      } else if (keys.size() > 1) {
        io.cassette.cql.ClientWarnings.add("Aggregation query used on multiple partition keys (IN restriction)");
      }
    }
    if (orderAcrossPartitions && keys != null && keys.size() > 1 && ctx.options.pageSize() > 0
        && ctx.options.pageSize() < Integer.MAX_VALUE && !grouped) {
      throw invalid("Cannot page queries with both ORDER BY and a IN restriction on the partition key;"
          + " you must either remove the ORDER BY or the IN and sort client side, or disable paging for this query");
    }
    List<Slice> slices = where.clusteringRestricted ? where.slices(ctx) : List.of(Slice.ALL);
    if (annColumn != null) {
      if (limit == null || userLimit == Integer.MAX_VALUE) {
        throw invalid("Top-K queries must have a limit specified and the limit must be less than the query page size");
      }
      if (userLimit > MAX_ANN_LIMIT) {
        throw invalid("Use of ANN OF in an ORDER BY clause requires a LIMIT that is not greater than "
            + MAX_ANN_LIMIT + ". LIMIT was " + userLimit);
      }
      state = null; // the k nearest rows come in one page
      pageSize = Integer.MAX_VALUE;
    }
    Collector out = new Collector(ctx, grouped, pageSize, state == null ? userLimit : state.remaining());
    out.readKeys = keys; // what a read-size failure names (no lambda per run)
    out.readKeysKnown = true;
    ctx.readColumns(readColumns());
    TableReader t = source.open(table, ctx);
    if (annColumn != null) {
      if (!slices.isEmpty() || !where.clusteringRestricted) {
        nearest(t, ctx, out, keys, slices, ppl);
      }
    } else if (!slices.isEmpty() || !where.clusteringRestricted) {
      if (keys != null) {
        boolean sortAll = orderAcrossPartitions && keys.size() > 1;
        int startIndex = 0;
        if (state != null) {
          startIndex = indexOf(keys, state.partitionKey());
        }
        List<RowView> buffered = sortAll ? new ArrayList<>() : null;
        for (int i = startIndex; i < keys.size() && !out.done; i++) {
          byte[] key = keys.get(i);
          boolean resuming = state != null && i == startIndex;
          if (resuming && state.clustering() == null) {
            continue;
          }
          List<Slice> sl = resuming ? clip(slices, state.clustering()) : slices;
          int pplLeft = resuming ? state.remainingInPartition() : ppl;
          readPartition(t, key, sl, ctx, out, pplLeft, buffered, resuming);
        }
        if (sortAll) {
          buffered.sort(clusteringOrder());
          for (RowView r : buffered) {
            if (out.done) {
              break;
            }
            out.add(r);
          }
        }
      } else if (!where.attached.isEmpty() && !table.virtual
          && AttachedIndexes.local(ctx.services.coordinator(), table, where.attached, null) != null) {
        attachedScan(AttachedIndexes.local(ctx.services.coordinator(), table, where.attached, null),
            t, ctx, out, slices, state, ppl);
      } else if (!where.attached.isEmpty() && !table.virtual && AttachedIndexes.onReplicas(ctx.services.coordinator())) {
        replicaIndexScan(t, ctx, out, slices, state, ppl);
      } else if (where.indexQuery != null && !where.hasToken && !table.virtual
          && ctx.services.coordinator().table(table.keyspace,
              SecondaryIndexes.storageName(table, where.indexQuery.index())).isPresent()) {
        indexScan(t, ctx, out, slices, state, ppl);
      } else {
        scan(t, ctx, out, slices, state, ppl);
      }
    }
    List<List<ByteBuffer>> rows = out.finish();
    ByteBuffer paging = out.paging == null ? null : out.paging.serialize();
    return new Result.Rows(selection.resultSpecs(), rows, paging);
  }

  /**
   * ORDER BY v ANN OF q LIMIT k: every row the restrictions select, scored by the index's
   * similarity to q, the k best first (exact: recall 1.0, a scan of the rows selected).
   */
  private void nearest(TableReader t, QueryContext ctx, Collector out, List<byte[]> keys, List<Slice> slices, int ppl) {
    byte[] q = annVector.get(ctx);
    if (q == null || q == QueryContext.UNSET) {
      throw invalid("Unsupported null value for column " + annColumn.name());
    }
    float[] query = io.cassette.cql.language.functions.VectorFunctions.floats(q);
    List<RowView> rows = new ArrayList<>();
    ReadQuery rq = new ReadQuery(slices, false, Integer.MAX_VALUE, ctx.nowInSeconds());
    io.cassette.storage.index.TableIndexes local = keys != null || table.virtual ? null
        : AttachedIndexes.local(ctx.services.coordinator(), table, where.attached, annIndex);
    if (keys != null) {
      for (byte[] key : keys) {
        partition(t.read(key, rq), ctx, out, ppl, rows, false);
      }
    } else if (local != null) {
      nearestIndexed(local, t, ctx, out, query, slices, ppl, rows);
    } else if (!table.virtual && AttachedIndexes.onReplicas(ctx.services.coordinator())) {
      nearestOnReplicas(t, ctx, out, query, slices, ppl, rows);
    } else {
      try (Table.CloseableIterator<PartitionView> it = t.scan(new KeyRange(null, Long.MAX_VALUE), rq)) {
        while (it.hasNext()) {
          partition(it.next(), ctx, out, ppl, rows, false);
        }
      }
    }
    List<Map.Entry<Float, RowView>> scored = new ArrayList<>(rows.size());
    for (RowView r : rows) {
      byte[] v = r.value(annColumn);
      if (v != null && v.length > 0) {
        scored.add(Map.entry(io.cassette.cql.language.functions.VectorFunctions.score(annSimilarity, query,
            io.cassette.cql.language.functions.VectorFunctions.floats(v)), r));
      }
    }
    scored.sort((a, b) -> Float.compare(b.getKey(), a.getKey()));
    for (Map.Entry<Float, RowView> e : scored) {
      if (out.done) {
        break;
      }
      out.add(e.getValue());
    }
  }

  /**
   * The candidates of the vector index (graph per SSTable, exact per memtable, merged), each
   * row read and checked against the other restrictions; when too few pass, more are fetched.
   * The caller scores the rows read on their current vectors (exact re-ranking).
   */
  private void nearestIndexed(io.cassette.storage.index.TableIndexes index, TableReader t, QueryContext ctx,
                              Collector out, float[] query, List<Slice> slices, int ppl, List<RowView> rows) {
    int k = out.remaining;
    for (int fetch = Math.max(k, 10); ; fetch *= 4) {
      rows.clear();
      List<io.cassette.storage.index.Neighbour> found = index.nearest(annIndex, query, fetch);
      for (io.cassette.storage.index.Neighbour n : found) {
        byte[] ck = n.key().clustering();
        if (ck.length > 0 && !inSlices(slices, ck)) {
          continue;
        }
        ReadQuery rq = new ReadQuery(ck.length == 0 ? slices : List.of(Slice.prefix(ck)), false, Integer.MAX_VALUE,
            ctx.nowInSeconds());
        partition(t.read(n.key().partition().key(), rq), ctx, out, ppl, rows, ck.length > 0);
      }
      if (rows.size() >= k || found.size() < fetch || fetch >= MAX_ANN_FETCH) {
        return;
      }
    }
  }

  /**
   * ANN on a ring: every range's replicas answer with the rows of their top {@code fetch} in
   * that range (Cassandra 5.0 sends a top-k range read to all ranges); the caller scores the
   * rows read and keeps the k best (the coordinator's merge and re-ranking). When the filters
   * drop too many, more are fetched.
   */
  private void nearestOnReplicas(TableReader t, QueryContext ctx, Collector out, float[] query, List<Slice> slices,
                                 int ppl, List<RowView> rows) {
    KeyRange range = tokenRange(ctx);
    if (range == null) {
      return;
    }
    int k = out.remaining;
    ReadQuery rq = new ReadQuery(slices, false, Integer.MAX_VALUE, ctx.nowInSeconds());
    for (int fetch = Math.max(k, 10); ; fetch *= 4) {
      rows.clear();
      int read = 0;
      try (Table.CloseableIterator<PartitionView> it = t.indexScan(range, rq,
          io.cassette.storage.index.IndexQuery.nearest(annIndex, query, fetch))) {
        while (it.hasNext()) {
          PartitionView pv = it.next();
          read += Math.max(1, pv.rows().size());
          partition(pv, ctx, out, ppl, rows, rowsOnly());
        }
      }
      if (rows.size() >= k || read < fetch || fetch >= MAX_ANN_FETCH) {
        return;
      }
    }
  }

  /**
   * Whether rows found by an index stand alone: a partition whose found rows are gone must not
   * surface as its static row (true unless the table has no clustering or a static column is
   * indexed, where a hit is the partition itself).
   */
  private boolean rowsOnly() {
    if (table.clustering.isEmpty()) {
      return false;
    }
    for (AttachedIndexes.Restriction r : where.attached) {
      SecondaryIndexes.Target target = SecondaryIndexes.parseTarget(table, r.index());
      if (target != null && target.column().isStatic()) {
        return false;
      }
    }
    return true;
  }

  /**
   * SAI on a ring: the index query goes to each range's replicas at the request's level, each
   * answers from its own indexes, the coordinator merges ({@link TableReader#indexScan}); every
   * row is re-checked by the filters. Pages as {@link #scan}.
   */
  private void replicaIndexScan(TableReader t, QueryContext ctx, Collector out, List<Slice> slices,
                                PagingState state, int ppl) {
    List<io.cassette.storage.index.IndexExpression> expressions = AttachedIndexes.expressions(where.attached, ctx);
    KeyRange tokens = tokenRange(ctx);
    if (expressions == null || tokens == null) {
      return;
    }
    io.cassette.storage.index.IndexQuery index = io.cassette.storage.index.IndexQuery.terms(expressions);
    DecoratedKey after = tokens.after();
    if (state != null) {
      if (state.clustering() != null) {
        // the rest of the partition the last page stopped in, read whole and filtered
        readPartition(t, state.partitionKey(), clip(slices, state.clustering()), ctx, out,
            state.remainingInPartition(), null, true);
      }
      after = DecoratedKey.of(state.partitionKey());
    }
    boolean rowsOnly = rowsOnly();
    ReadQuery q = readQuery(slices, ctx, out, ppl);
    try (Table.CloseableIterator<PartitionView> it = t.indexScan(new KeyRange(after, tokens.endToken()), q, index)) {
      while (it.hasNext() && !out.done) {
        continuePartition(t, it.next(), q, slices, ctx, out, ppl, null, rowsOnly);
      }
    }
  }

  /** Candidates an ANN query asks the index for at most, when filters drop most of them. */
  static final int MAX_ANN_FETCH = 16_384;

  /**
   * Answers through storage-attached indexes: the keys they find (every index's restrictions
   * intersected) in scan order, each row read and checked by the filters.
   */
  private void attachedScan(io.cassette.storage.index.TableIndexes index, TableReader t, QueryContext ctx,
                            Collector out, List<Slice> slices, PagingState state, int ppl) {
    List<io.cassette.storage.index.IndexExpression> expressions = AttachedIndexes.expressions(where.attached, ctx);
    KeyRange range = tokenRange(ctx);
    if (expressions == null || range == null) {
      return;
    }
    io.cassette.storage.index.PrimaryKey resume = null;
    if (state != null) {
      DecoratedKey last = DecoratedKey.of(state.partitionKey());
      if (state.clustering() == null) {
        range = new KeyRange(last, range.endToken());
      } else {
        resume = new io.cassette.storage.index.PrimaryKey(last, state.clustering());
      }
    }
    long now = ctx.nowInSeconds();
    java.util.Iterator<io.cassette.storage.index.PrimaryKey> found = index.search(expressions, range, resume);
    while (found.hasNext() && !out.done) {
      io.cassette.storage.index.PrimaryKey k = found.next();
      byte[] ck = k.clustering();
      if (ck.length == 0) {
        readPartition(t, k.partition().key(), slices, ctx, out, ppl, null, false);
        continue;
      }
      if (!inSlices(slices, ck)) {
        continue;
      }
      PartitionView base = t.read(k.partition().key(), new ReadQuery(List.of(Slice.prefix(ck)), reversed,
          Integer.MAX_VALUE, now));
      // a row found by a regular column whose row is gone must not surface the partition's statics
      partition(base, ctx, out, ppl, null, true);
    }
  }

  /** The partitions the token restrictions admit, or null when they admit none. */
  private KeyRange tokenRange(QueryContext ctx) {
    long startExclusive = Long.MIN_VALUE;
    long endToken = Long.MAX_VALUE;
    boolean empty = false;
    if (where.hasToken) {
      if (where.tokenStart != null) {
        long s = tokenValue(where.tokenStart, ctx);
        if (where.tokenStartInclusive) {
          if (s == Long.MIN_VALUE) {
            startExclusive = Long.MIN_VALUE;
          } else {
            startExclusive = s - 1;
          }
        } else {
          startExclusive = s;
        }
      }
      if (where.tokenEnd != null) {
        long e = tokenValue(where.tokenEnd, ctx);
        if (where.tokenEndInclusive) {
          endToken = e;
        } else if (e == Long.MIN_VALUE) {
          empty = true;
        } else {
          endToken = e - 1;
        }
      }
      if (endToken <= startExclusive && where.tokenEnd != null) {
        empty = true;
      }
    }
    if (empty) {
      return null;
    }
    DecoratedKey after = startExclusive == Long.MIN_VALUE && !where.hasToken ? null
        : new DecoratedKey(startExclusive, null);
    if (where.hasToken && where.tokenStart == null) {
      after = null;
    }
    return new KeyRange(after, endToken);
  }

  /** The regular and static columns selected, in table order; "*" for SELECT * or when none are. */
  private String readColumns() {
    String columns = readColumns;
    if (columns == null) {
      columns = readColumns = listReadColumns(); // a benign race: every thread computes the same
    }
    return columns;
  }

  private String listReadColumns() {
    List<String> names = new ArrayList<>();
    for (io.cassette.cql.language.schema.ColumnMetadata c : table.valueColumns()) {
      if (selection.referenced.contains(c)) {
        names.add(io.cassette.cql.language.types.Identifiers.quoteIfNeeded(c.name()));
      }
    }
    return selection.wildcard || names.isEmpty() ? "*" : String.join(", ", names);
  }

  private void scan(TableReader t, QueryContext ctx, Collector out, List<Slice> slices, PagingState state, int ppl) {
    KeyRange tokens = tokenRange(ctx);
    if (tokens == null) {
      return;
    }
    DecoratedKey after = tokens.after();
    long endToken = tokens.endToken();
    if (state != null) {
      DecoratedKey last = DecoratedKey.of(state.partitionKey());
      if (state.clustering() != null) {
        readPartition(t, state.partitionKey(), clip(slices, state.clustering()), ctx, out,
            state.remainingInPartition(), null, true);
      }
      after = last;
    }
    if (out.done) {
      return;
    }
    // The scan's row limit per partition is fixed when it opens; it is reopened after the last
    // partition read once the rows' size is known and allows reading many more at once.
    boolean reopen = true;
    while (reopen && !out.done) {
      reopen = false;
      ReadQuery q = readQuery(slices, ctx, out, ppl);
      try (Table.CloseableIterator<PartitionView> it = t.scan(new KeyRange(after, endToken), q)) {
        while (it.hasNext() && !out.done) {
          PartitionView pv = it.next();
          continuePartition(t, pv, q, slices, ctx, out, ppl, null, false);
          if (pv != null && pv.key() != null) {
            after = pv.key();
          }
          if (!out.done && q.rowLimit() < Integer.MAX_VALUE / 4 && out.readRows > 0
              && readQuery(slices, ctx, out, ppl).rowLimit() >= 4L * q.rowLimit()) {
            reopen = true;
            break;
          }
        }
      }
    }
  }

  /** Reads one partition, in several reads when the rows' size bounds how many are read at once. */
  private void readPartition(TableReader t, byte[] key, List<Slice> slices, QueryContext ctx, Collector out,
                             int ppl, List<RowView> buffered, boolean resuming) {
    ReadQuery q = readQuery(slices, ctx, out, ppl);
    continuePartition(t, t.read(key, q), q, slices, ctx, out, ppl, buffered, resuming);
  }

  /**
   * Takes {@code pv}, read with {@code q}; while the read stopped at a row limit that the size
   * bound imposed (storage may hold more), reads on after its last row.
   */
  private void continuePartition(TableReader t, PartitionView pv, ReadQuery q, List<Slice> slices, QueryContext ctx,
                                 Collector out, int ppl, List<RowView> buffered, boolean resuming) {
    while (true) {
      int taken = partition(pv, ctx, out, ppl, buffered, resuming);
      if (pv == null || out.done || distinct || q.rowLimit() == Integer.MAX_VALUE
          || !q.mayHaveMore(pv.rows()) || !out.sizeBounded()) {
        return;
      }
      byte[] last = pv.rows().get(pv.rows().size() - 1).clustering();
      if (last.length == 0 || taken >= ppl) {
        return;
      }
      ppl -= taken;
      slices = clip(slices, last);
      if (slices.isEmpty()) {
        return;
      }
      resuming = true;
      q = readQuery(slices, ctx, out, ppl);
      pv = t.read(pv.key().key(), q);
    }
  }

  /** Answers through the index: its entries in scan order, each base row re-checked. */
  private void indexScan(TableReader t, QueryContext ctx, Collector out, List<Slice> slices, PagingState state, int ppl) {
    byte[] v = where.indexQuery.value().get(ctx);
    if (v == null || v == QueryContext.UNSET) {
      throw invalid("Unsupported null value for indexed column "
          + SecondaryIndexes.target(table, where.indexQuery.index()).column().name());
    }
    TableReader index = new CoordinatedTable(ctx.services.coordinator(), table.keyspace,
        SecondaryIndexes.storageName(table, where.indexQuery.index()), ctx.request());
    Slice entries = Slice.ALL;
    if (state != null) {
      byte[] from = SecondaryIndexes.entryClustering(state.partitionKey(),
          state.clustering() == null ? new byte[0] : state.clustering());
      entries = new Slice(from, false, new byte[0], true);
    }
    long now = ctx.nowInSeconds();
    // The index partition of one value can hold every row of the table: it is read in pieces of
    // INDEX_ENTRIES_PER_READ entries, each after the last, until the page or the answer is full.
    boolean first = true;
    while (!out.done) {
      PartitionView hits = index.read(v, new ReadQuery(List.of(entries), false, INDEX_ENTRIES_PER_READ, now));
      List<Row> rows = new ArrayList<>(hits.rows());
      if (first && hits.staticRow() != null) {
        rows.add(0, hits.staticRow());
      }
      first = false;
      for (Row entry : rows) {
        if (out.done) {
          return;
        }
        byte[][] kc = SecondaryIndexes.decodeEntry(entry.clustering());
        byte[] ck = kc[1];
        if (ck.length == 0) {
          // an entry for a whole partition (static or partition key column): read in pieces too
          readPartition(t, kc[0], slices, ctx, out, ppl, null, false);
          continue;
        }
        if (!inSlices(slices, ck)) {
          continue;
        }
        PartitionView base = t.read(kc[0], new ReadQuery(List.of(Slice.prefix(ck)), reversed, Integer.MAX_VALUE, now));
        // An entry of a regular row whose row is gone must not surface the partition's statics.
        partition(base, ctx, out, ppl, null, true);
      }
      if (hits.rows().size() < INDEX_ENTRIES_PER_READ) {
        return;
      }
      entries = new Slice(hits.rows().get(hits.rows().size() - 1).clustering(), false, new byte[0], true);
    }
  }

  /** Index entries one read of an index partition returns (each a few dozen bytes). */
  static final int INDEX_ENTRIES_PER_READ = 1000;

  private static boolean inSlices(List<Slice> slices, byte[] clustering) {
    for (Slice s : slices) {
      if (s.includes(clustering)) {
        return true;
      }
    }
    return false;
  }

  private static long tokenValue(Value v, QueryContext ctx) {
    byte[] b = v.get(ctx);
    if (b == null || b == QueryContext.UNSET) {
      throw invalid("Invalid null value for partition key token");
    }
    return Values.toLong(b);
  }

  private ReadQuery readQuery(List<Slice> slices, QueryContext ctx, Collector out, int ppl) {
    int rowLimit = Integer.MAX_VALUE;
    if (where.filters.isEmpty() && !out.grouped && !orderAcrossPartitions) {
      rowLimit = Math.min(ppl, Math.min(out.remaining, out.pageSize - out.rows.size()));
      rowLimit = Math.max(rowLimit, 1);
    }
    if (distinct) {
      rowLimit = 1;
    }
    ctx.askedRowLimit(rowLimit);
    long byteLimit = Long.MAX_VALUE;
    if (!distinct) {
      rowLimit = Math.min(rowLimit, out.rowsPerRead());
      byteLimit = out.bytesPerRead();
    }
    return new ReadQuery(slices, reversed, rowLimit, ctx.nowInSeconds(), byteLimit);
  }

  /** Adds the rows of {@code pv} to {@code out}; returns how many count against the per-partition limit. */
  private int partition(PartitionView pv, QueryContext ctx, Collector out, int ppl,
                        List<RowView> buffered, boolean resuming) {
    if (pv == null || pv.isEmpty()) {
      return 0;
    }
    pv = normalize(table, pv);
    out.read(pv);
    byte[] key = pv.key().key();
    List<byte[]> keyValues = KeyCodec.splitPartitionKey(table, key);
    if (distinct || (pv.rows().isEmpty() && pv.staticRow() != null && !where.clusteringRestricted && !resuming)) {
      RowView r = new RowView(table, key, pv.key().token(), keyValues, null, null, pv.staticRow());
      if (passes(r, ctx)) {
        if (buffered != null) {
          buffered.add(r);
        } else {
          out.add(r);
          if (out.pageFull()) {
            out.paging = new PagingState(key, null, out.remaining, 0);
          }
        }
      }
      return 0;
    }
    int taken = 0;
    // indexed, not for-each: under C1 (the board's JIT) an iterator per partition read is an allocation
    List<Row> rows = pv.rows() instanceof java.util.RandomAccess ? pv.rows() : new ArrayList<>(pv.rows());
    for (int i = 0, n = rows.size(); i < n; i++) {
      Row row = rows.get(i);
      if (taken >= ppl || out.done) {
        break;
      }
      RowView r = new RowView(table, key, pv.key().token(), keyValues,
          KeyCodec.splitClustering(table, row.clustering()), row, pv.staticRow());
      if (!passes(r, ctx)) {
        continue;
      }
      taken++;
      if (buffered != null) {
        buffered.add(r);
        continue;
      }
      out.add(r);
      if (out.pageFull() && out.remaining > 0) {
        // The empty clustering is a partition's only row (no clustering columns): after it the
        // partition is finished. Resuming "after" it would read an unbounded slice again.
        boolean partitionDone = taken >= ppl || row.clustering().length == 0;
        out.paging = new PagingState(key, partitionDone ? null : row.clustering(), out.remaining, ppl - taken);
      }
    }
    return taken;
  }

  /**
   * Storage reports the empty-clustering row as the static row; in a table without clustering
   * columns it is the partition's one regular row.
   */
  static PartitionView normalize(TableMetadata table, PartitionView pv) {
    if (table.clustering.isEmpty() && pv.staticRow() != null && pv.rows().isEmpty()) {
      return new PartitionView(pv.key(), null, List.of(pv.staticRow()));
    }
    return pv;
  }

  private boolean passes(RowView r, QueryContext ctx) {
    // indexed, not for-each: once per row read, and under C1 (the board's JIT) an iterator is an allocation
    List<Restrictions.Filter> filters = where.filters;
    for (int i = 0, n = filters.size(); i < n; i++) {
      if (!filters.get(i).test(r, ctx)) {
        return false;
      }
    }
    return true;
  }

  private Comparator<RowView> clusteringOrder() {
    return (a, b) -> {
      for (ColumnMetadata c : table.clustering) {
        byte[] x = a.clusteringValues == null ? null : a.clusteringValues.get(c.position());
        byte[] y = b.clusteringValues == null ? null : b.clusteringValues.get(c.position());
        if (x == null || y == null) {
          return x == null ? (y == null ? 0 : -1) : 1;
        }
        int cmp = ValueComparison.compare(c.type(), x, y);
        if (c.descending()) {
          cmp = -cmp;
        }
        if (cmp != 0) {
          return reversed ? -cmp : cmp;
        }
      }
      return 0;
    };
  }

  private static int indexOf(List<byte[]> keys, byte[] key) {
    for (int i = 0; i < keys.size(); i++) {
      if (Arrays.equals(keys.get(i), key)) {
        return i;
      }
    }
    return keys.size();
  }

  /** The slices that remain after {@code last} in read order. */
  private List<Slice> clip(List<Slice> slices, byte[] last) {
    List<Slice> out = new ArrayList<>();
    for (Slice s : slices) {
      if (!reversed) {
        if (s.end().length > 0 && endsBefore(s, last)) {
          continue;
        }
        if (s.start().length > 0 && Bytes.compare(s.start(), last) > 0 && !Bytes.startsWith(last, s.start())) {
          out.add(s);
        } else {
          out.add(new Slice(last, false, s.end(), s.endInclusive()));
        }
      } else {
        if (s.start().length > 0 && Bytes.compare(s.start(), last) > 0 && !Bytes.startsWith(last, s.start())) {
          continue;
        }
        if (s.start().length > 0 && Bytes.compare(s.start(), last) >= 0) {
          continue;
        }
        if (s.end().length > 0 && endsBefore(s, last)) {
          out.add(s);
        } else {
          out.add(new Slice(s.start(), s.startInclusive(), last, false));
        }
      }
    }
    return out;
  }

  private static boolean endsBefore(Slice s, byte[] last) {
    int c = Bytes.compare(last, s.end());
    return s.endInclusive() ? c > 0 && !Bytes.startsWith(last, s.end()) : c >= 0;
  }

  /** Rows a storage read fetches before their size is known: the first read of every SELECT. */
  static final int PROBE_ROWS = 8;

  private static long heapSize(Row r) {
    long size = ResultSizeLimits.ROW_OVERHEAD + r.clustering().length;
    List<io.cassette.storage.Cell> cells = r.cells();
    for (int i = 0, n = cells.size(); i < n; i++) {
      io.cassette.storage.Cell c = cells.get(i);
      size += ResultSizeLimits.VALUE_OVERHEAD + (c.value() == null ? 0 : c.value().length)
          + (c.path() == null ? 0 : c.path().length);
    }
    return size;
  }

  /**
   * Cassandra 5.0's answer when coordinator_read_size_fail_threshold is passed (READ_FAILURE, one
   * failure READ_SIZE from this node).
   */
  private RuntimeException readSizeFailure(QueryContext ctx, long threshold, String tokens) {
    java.net.InetAddress self = ctx.services.node().listenAddress();
    return new io.cassette.cql.ReplicaException.ReadFailure(ctx.options.consistency(), 0, 1,
        java.util.Map.of(self, READ_SIZE), false, "Operation failed - Read on table " + table
        + " has exceeded the size failure threshold of " + String.format(java.util.Locale.ROOT, "%,d", threshold)
        + " bytes with " + tokens + ": READ_SIZE from /" + self.getHostAddress() + ":"
        + ctx.services.node().ring().storagePort());
  }

  /** Cassandra's RequestFailureReason.READ_SIZE. */
  static final int READ_SIZE = 4;

  /** What Cassandra's read-size failure names: {@code token: T}, {@code tokens: [T, U]} or a token range. */
  private String readTokens(List<byte[]> keys, QueryContext ctx) {
    if (keys == null) {
      if (!where.hasToken) {
        return "token range: (" + Long.MIN_VALUE + ", " + Long.MIN_VALUE + ")";
      }
      String start = where.tokenStart == null ? Long.toString(Long.MIN_VALUE)
          : Long.toString(tokenValue(where.tokenStart, ctx));
      String end = where.tokenEnd == null ? Long.toString(Long.MIN_VALUE) : Long.toString(tokenValue(where.tokenEnd, ctx));
      return "token range: " + (where.tokenStart != null && where.tokenStartInclusive ? "[" : "(") + start + ", " + end
          + (where.tokenEnd != null && where.tokenEndInclusive ? "]" : ")");
    }
    if (keys.size() == 1) {
      return "token: " + DecoratedKey.of(keys.get(0)).token();
    }
    StringBuilder sb = new StringBuilder("tokens: [");
    for (int i = 0; i < keys.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(DecoratedKey.of(keys.get(i)).token());
    }
    return sb.append(']').toString();
  }

  /** Accumulates output rows (or groups) up to the page size and the limit. */
  private final class Collector {
    final QueryContext ctx;
    final boolean grouped;
    final int pageSize;
    int remaining;
    boolean done;
    PagingState paging;
    final List<List<ByteBuffer>> rows = new ArrayList<>();
    List<Selection.Aggregator> aggregators;
    List<byte[]> groupKey;
    /** A page ends after the row that takes {@link #bytes} here (MAX_VALUE when not paging). */
    final long pageBytes;
    /** Past this an answer fails (READ_SIZE). */
    final long failBytes;
    /** The heap the rows collected take (estimated as {@link ResultSizeLimits} says). */
    long bytes;
    /** What a read-size failure names (computed only then). */
    List<byte[]> readKeys;
    /** {@link #readKeys} was set (null keys then mean a range read): else the failure names no range. */
    boolean readKeysKnown;

    private String tokens() {
      return readKeysKnown ? readTokens(readKeys, ctx)
          : "token range: (" + Long.MIN_VALUE + ", " + Long.MIN_VALUE + ")";
    }
    /** Stored rows read so far and their estimated heap size: how many one read may fetch. */
    long readRows;
    long readBytes;

    Collector(QueryContext ctx, boolean grouped, int pageSize, int remaining) {
      this.ctx = ctx;
      this.grouped = grouped;
      this.pageSize = pageSize;
      this.remaining = remaining;
      ResultSizeLimits limits = ctx.services.resultSize().get();
      this.pageBytes = ctx.options.pageSize() > 0 && !grouped ? limits.pageBytes() : Long.MAX_VALUE;
      this.failBytes = limits.failBytes();
      if (remaining <= 0) {
        done = true;
      }
    }

    boolean pageFull() {
      return rows.size() >= pageSize || bytes >= pageBytes;
    }

    /** Counts what storage returned (every row, kept or filtered out) for {@link #rowsPerRead}. */
    void read(PartitionView pv) {
      if (pv.staticRow() != null) {
        readRows++;
        readBytes += heapSize(pv.staticRow());
      }
      List<Row> rows = pv.rows();
      for (int i = 0, n = rows.size(); i < n; i++) {
        readRows++;
        readBytes += heapSize(rows.get(i));
      }
    }

    /**
     * How many rows one storage read may return: before any row is seen, a few
     * ({@link #PROBE_ROWS}); then as many as fit what is left of the budget, at least a quarter of it.
     */
    int rowsPerRead() {
      long budget = Math.min(pageBytes, failBytes);
      if (budget == Long.MAX_VALUE) {
        return Integer.MAX_VALUE;
      }
      if (readRows == 0) {
        return PROBE_ROWS;
      }
      long average = Math.max(1, readBytes / readRows);
      long room = Math.max(budget - bytes, budget / 4);
      return (int) Math.max(1, Math.min(Integer.MAX_VALUE / 2, room / average + 1));
    }

    /**
     * How many bytes of rows one storage read may return: what is left of the budget, at least a
     * quarter of it (the rows' data; their heap size is larger, so a read stays under the budget's
     * scale). Before any row is seen this bounds the {@link #PROBE_ROWS} probe: eight rows of 1 MiB
     * read at once ran a 64 MiB node out of heap.
     */
    long bytesPerRead() {
      long budget = Math.min(pageBytes, failBytes);
      if (budget == Long.MAX_VALUE) {
        return Long.MAX_VALUE;
      }
      return Math.max(1, Math.max(budget - bytes, budget / 4));
    }

    /** Whether reads may have been cut short by the size bound (then a full read is read on). */
    boolean sizeBounded() {
      return Math.min(pageBytes, failBytes) != Long.MAX_VALUE;
    }

    private long countedRows;

    private void counted(List<ByteBuffer> row) {
      long size = ResultSizeLimits.ROW_OVERHEAD;
      if (row instanceof io.cassette.cql.ValueRow values) {
        for (int i = 0, n = values.size(); i < n; i++) {
          byte[] b = values.bytes(i);
          size += ResultSizeLimits.VALUE_OVERHEAD + (b == null ? 0 : b.length);
        }
      } else {
        for (ByteBuffer b : row) {
          size += ResultSizeLimits.VALUE_OVERHEAD + (b == null ? 0 : b.remaining());
        }
      }
      bytes += size;
      countedRows++;
      // The first row always passes: a value the door accepted (up to the frame limit) must
      // read back, paged or not; bench/hostile's read at the limit failed READ_SIZE without this.
      if (bytes > failBytes && countedRows > 1) {
        throw readSizeFailure(ctx, failBytes, tokens());
      }
    }

    void add(RowView r) {
      if (done) {
        return;
      }
      if (grouped) {
        List<byte[]> key = groupKeyOf(r);
        if (aggregators != null && !groupBy.isEmpty() && !sameGroup(key, groupKey)) {
          emitGroup();
          if (done) {
            return;
          }
        }
        if (aggregators == null) {
          aggregators = new ArrayList<>();
          for (Selection.Sel s : selection.selectors) {
            aggregators.add(s.aggregator());
          }
          groupKey = key;
        }
        for (Selection.Aggregator a : aggregators) {
          a.add(r, ctx);
        }
        return;
      }
      // Indexed, into an array: under C1 (the board's JIT) an iterator or a growing list is an allocation per row.
      List<Selection.Sel> selectors = selection.selectors;
      byte[][] values = new byte[selectors.size()][];
      for (int i = 0; i < values.length; i++) {
        values[i] = selectors.get(i).value(r, ctx);
      }
      List<ByteBuffer> row = toBuffers(Arrays.asList(values));
      rows.add(row);
      counted(row);
      remaining--;
      if (remaining <= 0) {
        done = true;
      } else if (pageFull()) {
        done = true;
      }
    }

    private List<byte[]> groupKeyOf(RowView r) {
      List<byte[]> k = new ArrayList<>();
      for (ColumnMetadata c : groupBy) {
        k.add(r.value(c));
      }
      return k;
    }

    private boolean sameGroup(List<byte[]> a, List<byte[]> b) {
      for (int i = 0; i < a.size(); i++) {
        if (!Arrays.equals(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }

    private void emitGroup() {
      List<byte[]> values = new ArrayList<>();
      for (Selection.Aggregator a : aggregators) {
        values.add(a.result());
      }
      List<ByteBuffer> row = toBuffers(values);
      rows.add(row);
      counted(row);
      aggregators = null;
      remaining--;
      if (remaining <= 0) {
        done = true;
      }
    }

    List<List<ByteBuffer>> finish() {
      if (grouped) {
        if (aggregators != null) {
          emitGroup();
        } else if (groupBy.isEmpty() && rows.isEmpty()) {
          aggregators = new ArrayList<>();
          for (Selection.Sel s : selection.selectors) {
            aggregators.add(s.aggregator());
          }
          emitGroup();
        }
      }
      if (paging != null && remaining <= 0) {
        paging = null;
      }
      return rows;
    }

    private List<ByteBuffer> toBuffers(List<byte[]> values) {
      if (selection.json) {
        return selection.toJson(values);
      }
      return new io.cassette.cql.ValueRow(values); // the encoder writes the arrays: no wrapper per value
    }
  }
}
