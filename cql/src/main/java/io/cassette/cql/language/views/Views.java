package io.cassette.cql.language.views;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.view.ViewUpdates;
import io.cassette.cql.language.Errors;
import io.cassette.cql.language.parser.Parser;
import io.cassette.cql.language.parser.Relation;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.statements.Bindings;
import io.cassette.cql.language.statements.Receiver;
import io.cassette.cql.language.statements.TermCompiler;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Materialized views as the CQL schema defines them, turned into what the coordinator's write
 * path runs ({@link ViewUpdates} per base table), and the build of a new view from the rows its
 * base table already holds.
 */
public final class Views {
  private Views() {}

  /** Gives the coordinator the views of every base table (called on every schema change). */
  public static void sync(Coordinator coordinator, Collection<KeyspaceMetadata> keyspaces) {
    Map<String, ViewUpdates> byBase = new HashMap<>();
    java.util.Set<String> viewTables = new java.util.HashSet<>();
    for (KeyspaceMetadata k : keyspaces) {
      Map<String, List<ViewMapping.View>> views = new HashMap<>();
      for (TableMetadata t : k.tables().values()) {
        if (t.view != null) {
          viewTables.add(k.name() + "." + t.name);
          TableMetadata base = k.tables().get(t.view.baseTable());
          if (base != null) {
            views.computeIfAbsent(base.name, n -> new ArrayList<>()).add(compile(base, t, k));
          }
        }
      }
      for (Map.Entry<String, List<ViewMapping.View>> e : views.entrySet()) {
        byBase.put(k.name() + "." + e.getKey(), new ViewMapping(k.tables().get(e.getKey()), e.getValue()));
      }
    }
    coordinator.views().replace(byBase, viewTables);
  }

  /** The views of {@code base} in {@code k}, by name. */
  public static List<TableMetadata> of(KeyspaceMetadata k, String base) {
    List<TableMetadata> out = new ArrayList<>();
    for (TableMetadata t : k.tables().values()) {
      if (t.view != null && t.view.baseTable().equals(base)) {
        out.add(t);
      }
    }
    out.sort((a, b) -> a.name.compareTo(b.name));
    return out;
  }

  /** The relations of a view's WHERE clause as it is kept ({@code where_clause}). */
  public static List<Relation> where(String whereClause) {
    if (whereClause.isBlank()) {
      return List.of();
    }
    Statement s = Parser.parseStored("SELECT * FROM x WHERE " + whereClause);
    return ((Statement.Select) s).where();
  }

  /**
   * The restrictions of a view's WHERE clause beyond IS NOT NULL, which Cassandra allows only on
   * base primary-key columns, compiled against the base table.
   */
  static List<ViewFilter> filters(TableMetadata base, List<Relation> where, KeyspaceMetadata k) {
    List<ViewFilter> out = new ArrayList<>();
    for (Relation r : where) {
      if (r.op() == Relation.Operator.IS_NOT_NULL) {
        continue;
      }
      ColumnMetadata c = base.column(r.column());
      if (c == null || (c.kind() != ColumnMetadata.Kind.PARTITION_KEY && c.kind() != ColumnMetadata.Kind.CLUSTERING)
          || r.kind() != Relation.Kind.SINGLE) {
        throw Errors.invalid("Unsupported restriction in a materialized view's WHERE clause: " + r.column());
      }
      int index = c.kind() == ColumnMetadata.Kind.PARTITION_KEY ? c.position() : base.partitionKey.size() + c.position();
      TermCompiler terms = new TermCompiler(new Bindings(), k);
      Receiver receiver = new Receiver(base.keyspace, base.name, c.name(), c.type());
      List<byte[]> values = new ArrayList<>();
      if (r.op() == Relation.Operator.IN) {
        if (r.inValues() == null) {
          throw Errors.invalid("Bind variables are not allowed in CREATE MATERIALIZED VIEW statements");
        }
        for (io.cassette.cql.language.parser.Term t : r.inValues()) {
          values.add(terms.compile(t, receiver).get(null));
        }
      } else {
        values.add(terms.compile(r.value(), receiver).get(null));
      }
      out.add(new ViewFilter(index, c.type(), r.op(), values));
    }
    return out;
  }

  /** The base regular column in the view's primary key, or null. */
  static String viewColumn(TableMetadata base, TableMetadata view) {
    for (ColumnMetadata c : view.columns) {
      if (c.kind() != ColumnMetadata.Kind.PARTITION_KEY && c.kind() != ColumnMetadata.Kind.CLUSTERING) {
        continue;
      }
      ColumnMetadata b = base.column(c.name());
      if (b != null && b.kind() != ColumnMetadata.Kind.PARTITION_KEY && b.kind() != ColumnMetadata.Kind.CLUSTERING) {
        return c.name();
      }
    }
    return null;
  }

  private static ViewMapping.View compile(TableMetadata base, TableMetadata view, KeyspaceMetadata k) {
    return new ViewMapping.View(view, viewColumn(base, view), filters(base, where(view.view.whereClause()), k));
  }

  /**
   * Fills a new view from the rows its base table holds (Cassandra's view build), through the
   * coordinator: each base partition read, mapped, and written to the view's replicas. Runs
   * after the view is in the schema, so writes from then on update it too; a row both write and
   * build give the view carries the same timestamps, so the two agree.
   */
  public static void build(Coordinator coordinator, KeyspaceMetadata k, TableMetadata base, TableMetadata view) {
    if (coordinator.table(base.keyspace, base.name).isEmpty()) {
      return;
    }
    ViewMapping mapping = new ViewMapping(base, List.of(compile(base, view, k)));
    long now = System.currentTimeMillis() / 1000;
    List<PartitionUpdate> batch = new ArrayList<>();
    try (Table.CloseableIterator<PartitionView> it = coordinator.scan(base.keyspace, base.name, KeyRange.ALL,
        ReadQuery.all(now), Request.INTERNAL)) {
      while (it.hasNext()) {
        PartitionView pv = it.next();
        List<Row> rows = new ArrayList<>(pv.rows());
        if (pv.staticRow() != null) {
          rows.add(0, pv.staticRow());
        }
        batch.addAll(mapping.compute(new PartitionUpdate(base.keyspace, base.name, pv.key().key(), DeletionTime.LIVE,
            List.of(), rows), null, now));
        if (batch.size() >= 256) {
          coordinator.write(new Mutation(batch), Request.INTERNAL);
          batch.clear();
        }
      }
    }
    if (!batch.isEmpty()) {
      coordinator.write(new Mutation(batch), Request.INTERNAL);
    }
  }
}
