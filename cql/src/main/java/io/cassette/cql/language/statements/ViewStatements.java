package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.ClientWarnings;
import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlException;
import io.cassette.cql.CqlType;
import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Relation;
import io.cassette.cql.language.parser.Selector;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.parser.Term;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.schema.TableOptions;
import io.cassette.cql.language.schema.TimeUuid;
import io.cassette.cql.language.schema.ViewDefinition;
import io.cassette.cql.language.types.Identifiers;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * CREATE / ALTER / DROP MATERIALIZED VIEW, with Cassandra 5.0.4's checks in its order and its
 * texts (CreateViewStatement: keyspace, base table, name, base kind, SELECT clause, PRIMARY KEY,
 * WHERE, options). A view is a table of its keyspace carrying a {@link ViewDefinition}; the
 * coordinator keeps it in step with its base ({@code language.views.Views}).
 */
final class ViewStatements {
  /** Cassandra's View.USAGE_WARNING, sent with every CREATE MATERIALIZED VIEW that gets that far. */
  static final String USAGE_WARNING = "Materialized views are experimental and are not recommended for production use.";
  static final String NO_TTL = "Cannot set default_time_to_live for a materialized view. Data in a materialized view"
      + " always expire at the same time than the corresponding data in the parent table.";
  static final String NO_TTL_ALTER = "Forbidden default_time_to_live detected for a materialized view. Data in a"
      + " materialized view always expire at the same time than the corresponding data in the parent table."
      + " default_time_to_live must be set to zero, see CASSANDRA-12868 for more information";

  private ViewStatements() {}

  private record Ddl(java.util.function.Function<QueryContext, Result> body) implements Executable {
    public Result execute(QueryContext ctx) {
      return body.apply(ctx);
    }

    public List<ColumnSpec> variables() {
      return List.of();
    }
  }

  static Executable compile(Statement s, String current, Services services) {
    SchemaManager sm = services.schema();
    if (s instanceof Statement.CreateView cv) {
      String ks = cv.name().keyspace() != null ? cv.name().keyspace() : current;
      if (cv.base().keyspace() != null && !cv.base().keyspace().equals(ks)) {
        throw invalid("Cannot create a materialized view on a table in a different keyspace");
      }
      ks = SchemaStatements.keyspace(cv.name(), current);
      SchemaStatements.checkModifiable(ks);
      if (!services.materializedViews().get()) {
        throw invalid(OffByDefaultFeatures.VIEWS_DISABLED);
      }
      String keyspace = ks;
      return new Ddl(ctx -> {
        TableMetadata[] created = new TableMetadata[2];
        Result r = sm.change(m -> {
          KeyspaceMetadata k = m.get(keyspace);
          if (k == null) {
            throw invalid("Keyspace '" + keyspace + "' doesn't exist");
          }
          TableMetadata base = k.tables().get(cv.base().name());
          if (base == null || base.isView()) {
            throw invalid("Base table '" + cv.base().name() + "' doesn't exist");
          }
          TableMetadata existing = k.tables().get(cv.name().name());
          if (existing != null && !existing.isView()) {
            throw invalid("Cannot create materialized view '" + cv.name().name()
                + "' - a table with the same name already exists");
          }
          ClientWarnings.add(USAGE_WARNING);
          if (existing != null) {
            if (cv.ifNotExists()) {
              return null;
            }
            throw new CqlException.AlreadyExists(keyspace, cv.name().name(), "Cannot add already existing table \""
                + cv.name().name() + "\" to keyspace \"" + keyspace + "\"");
          }
          TableMetadata view = build(cv, base, k);
          created[0] = base;
          created[1] = view;
          m.put(keyspace, k.withTable(view));
          return m;
        }, new Result.SchemaChange("CREATED", "TABLE", keyspace, cv.name().name(), List.of()));
        if (created[1] != null) {
          io.cassette.cql.language.views.Views.build(services.coordinator(), sm.keyspace(keyspace), created[0], created[1]);
        }
        return r;
      });
    }
    if (s instanceof Statement.AlterView av) {
      String ks = SchemaStatements.keyspace(av.name(), current);
      SchemaStatements.checkModifiable(ks);
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        TableMetadata v = k == null ? null : k.tables().get(av.name().name());
        if (v == null || !v.isView()) {
          if (av.ifExists()) {
            return null;
          }
          throw invalid("Materialized view '" + ks + "." + av.name().name() + "' doesn't exist");
        }
        Map<String, Object> props = new LinkedHashMap<>(av.props().values());
        if (props.containsKey("id")) {
          throw invalid("Cannot alter table id.");
        }
        TableOptions options = v.options.with(props);
        if (options.defaultTimeToLive() > 0) {
          throw invalid(NO_TTL_ALTER);
        }
        m.put(ks, k.withTable(v.with(v.columns, options, v.indexes)));
        return m;
      }, new Result.SchemaChange("UPDATED", "TABLE", ks, av.name().name(), List.of())));
    }
    Statement.DropView dv = (Statement.DropView) s;
    String ks = SchemaStatements.keyspace(dv.name(), current);
    SchemaStatements.checkModifiable(ks);
    return new Ddl(ctx -> sm.change(m -> {
      KeyspaceMetadata k = m.get(ks);
      TableMetadata v = k == null ? null : k.tables().get(dv.name().name());
      if (v == null || !v.isView()) {
        if (dv.ifExists()) {
          return null;
        }
        throw invalid("Materialized view '" + ks + "." + dv.name().name() + "' doesn't exist");
      }
      m.put(ks, k.withoutTable(v.name));
      return m;
    }, new Result.SchemaChange("DROPPED", "TABLE", ks, dv.name().name(), List.of())));
  }

  /** The view's table, checked as Cassandra's CreateViewStatement.apply checks it, in its order. */
  private static TableMetadata build(Statement.CreateView cv, TableMetadata base, KeyspaceMetadata k) {
    String viewName = cv.name().name();
    if (base.isCounter) {
      throw invalid("Materialized views are not supported on counter tables");
    }
    if (base.options.gcGraceSeconds() == 0) {
      throw invalid("Cannot create materialized view '" + viewName + "' for base table '" + base.name
          + "' with gc_grace_seconds of 0, since this value is used to TTL undelivered updates. Setting"
          + " gc_grace_seconds too low might cause undelivered updates to expire before being replayed.");
    }
    // SELECT clause
    Set<String> selected = new LinkedHashSet<>();
    if (cv.selectors().isEmpty()) {
      for (ColumnMetadata c : base.columns) {
        selected.add(c.name());
      }
    }
    for (Selector.Aliased a : cv.selectors()) {
      if (a.alias() != null) {
        throw invalid("Cannot use aliases when defining a materialized view (got " + a.alias() + ")");
      }
      if (!(a.selector() instanceof Selector.Column col)) {
        throw invalid("Can only select columns by name when defining a materialized view (got " + a.selector() + ")");
      }
      if (base.column(col.name()) == null) {
        throw invalid("Undefined column name " + col.name() + " in table " + base);
      }
      selected.add(col.name());
    }
    for (String n : selected) {
      if (base.column(n).isStatic()) {
        throw invalid("Cannot include static column '" + n + "' in materialized view '" + viewName + "'");
      }
    }
    // PRIMARY KEY and CLUSTERING ORDER BY
    List<String> viewKey = new ArrayList<>(cv.partitionKey());
    viewKey.addAll(cv.clusteringKey());
    Set<String> keySet = new LinkedHashSet<>();
    for (String n : viewKey) {
      ColumnMetadata c = base.column(n);
      if (c == null || !selected.contains(n)) {
        throw invalid("Unknown column '" + n + "' referenced in PRIMARY KEY for materialized view '" + viewName + "'");
      }
      if (!keySet.add(n)) {
        throw invalid("Duplicate column '" + n + "' in PRIMARY KEY clause for materialized view '" + viewName + "'");
      }
      if (Types.isMultiCell(c.type())) {
        throw invalid("Invalid non-frozen " + (c.type() instanceof CqlType.UdtType ? "user-defined" : "collection")
            + " type '" + Types.toCql(c.type()) + "' for PRIMARY KEY column '" + n + "'");
      }
      if (Types.isCounter(c.type())) {
        throw invalid("counter type is not supported for PRIMARY KEY column '" + n + "'");
      }
      if (Types.isNative(c.type(), CqlType.Native.DURATION)) {
        throw invalid("duration type is not supported for PRIMARY KEY column '" + n + "'");
      }
    }
    Map<String, Boolean> order = cv.props().clusteringOrder();
    if (!order.isEmpty() && !cv.clusteringKey().equals(new ArrayList<>(order.keySet()))) {
      throw invalid("Clustering key columns must exactly match columns in CLUSTERING ORDER BY directive");
    }
    List<String> missing = new ArrayList<>();
    for (ColumnMetadata c : base.columns) {
      if ((c.kind() == ColumnMetadata.Kind.PARTITION_KEY || c.kind() == ColumnMetadata.Kind.CLUSTERING)
          && !keySet.contains(c.name())) {
        missing.add(c.name());
      }
    }
    if (!missing.isEmpty()) {
      throw invalid("Cannot create materialized view '" + viewName + "' without primary key columns "
          + String.join(", ", missing) + " from base table '" + base.name + "'");
    }
    List<String> regularInKey = new ArrayList<>();
    for (String n : viewKey) {
      ColumnMetadata c = base.column(n);
      if (c.kind() != ColumnMetadata.Kind.PARTITION_KEY && c.kind() != ColumnMetadata.Kind.CLUSTERING) {
        regularInKey.add(n);
      }
    }
    if (regularInKey.size() > 1) {
      throw invalid("Cannot include more than one non-primary key column in materialized view primary key (got "
          + String.join(", ", regularInKey) + ")");
    }
    // WHERE clause
    Set<String> restricted = new HashSet<>();
    List<String> illegal = new ArrayList<>();
    for (Relation r : cv.where()) {
      if (r.kind() == Relation.Kind.TOKEN) {
        throw invalid("Cannot use token relation when defining a materialized view");
      }
      for (String n : r.columns()) {
        ColumnMetadata c = base.column(n);
        if (c == null) {
          throw invalid("Undefined column name " + n + " in table " + base);
        }
        restricted.add(n);
        boolean key = c.kind() == ColumnMetadata.Kind.PARTITION_KEY || c.kind() == ColumnMetadata.Kind.CLUSTERING;
        if (!key && r.op() != Relation.Operator.IS_NOT_NULL && !illegal.contains(n)) {
          illegal.add(n);
        }
      }
      if (hasMarker(r)) {
        throw invalid("Bind variables are not allowed in CREATE MATERIALIZED VIEW statements");
      }
    }
    List<String> unrestricted = new ArrayList<>();
    for (String n : viewKey) {
      if (!restricted.contains(n)) {
        unrestricted.add(n);
      }
    }
    if (!unrestricted.isEmpty()) {
      throw invalid("Primary key columns " + String.join(", ", unrestricted)
          + " must be restricted with 'IS NOT NULL' or otherwise");
    }
    if (!illegal.isEmpty()) {
      throw invalid("Non-primary key columns can only be restricted with 'IS NOT NULL' (got: "
          + String.join(",", illegal) + " restricted illegally)");
    }
    // WITH options
    Map<String, Object> props = new LinkedHashMap<>(cv.props().values());
    TableOptions options = TableOptions.defaults().with(props);
    if (props.containsKey("default_time_to_live")) {
      throw invalid(NO_TTL);
    }
    Object idProp = props.get("id");
    UUID id = idProp == null ? TimeUuid.next() : UUID.fromString(String.valueOf(idProp));
    List<ColumnMetadata> columns = new ArrayList<>();
    for (int i = 0; i < cv.partitionKey().size(); i++) {
      String n = cv.partitionKey().get(i);
      columns.add(new ColumnMetadata(n, base.column(n).type(), ColumnMetadata.Kind.PARTITION_KEY, i, false));
    }
    for (int i = 0; i < cv.clusteringKey().size(); i++) {
      String n = cv.clusteringKey().get(i);
      ColumnMetadata b = base.column(n);
      // Without CLUSTERING ORDER BY a base clustering column keeps its order (Cassandra keeps its reversed type).
      boolean desc = order.containsKey(n) ? order.get(n) : b.kind() == ColumnMetadata.Kind.CLUSTERING && b.descending();
      columns.add(new ColumnMetadata(n, b.type(), ColumnMetadata.Kind.CLUSTERING, i, desc));
    }
    for (String n : selected) {
      if (!keySet.contains(n)) {
        columns.add(new ColumnMetadata(n, base.column(n).type(), ColumnMetadata.Kind.REGULAR, -1, false));
      }
    }
    TableMetadata table = new TableMetadata(k.name(), viewName, id, columns, options, Map.of(), false);
    return table.asView(new ViewDefinition(base.name, base.id, cv.selectors().isEmpty(), whereText(cv.where())));
  }

  /**
   * A view after its base table was altered to {@code after} (from {@code before}): a column
   * added to the base is added to views that selected every column ({@code SELECT *}); a
   * renamed primary-key column is renamed in the view and its WHERE clause, as Cassandra does.
   */
  static TableMetadata followBase(TableMetadata view, TableMetadata before, TableMetadata after, Statement.AlterTable at) {
    if (at.kind() == Statement.AlterKind.ADD && view.view.includeAllColumns()) {
      List<ColumnMetadata> cols = new ArrayList<>(view.columns);
      for (ColumnMetadata c : after.columns) {
        if (before.column(c.name()) == null && view.column(c.name()) == null) {
          cols.add(new ColumnMetadata(c.name(), c.type(), ColumnMetadata.Kind.REGULAR, -1, false));
        }
      }
      return view.with(cols, view.options, view.indexes);
    }
    if (at.kind() == Statement.AlterKind.RENAME) {
      List<ColumnMetadata> cols = new ArrayList<>();
      for (ColumnMetadata c : view.columns) {
        String to = at.renamed().get(c.name());
        cols.add(to == null || after.column(to) == null ? c
            : new ColumnMetadata(to, c.type(), c.kind(), c.position(), c.descending()));
      }
      List<Relation> where = new ArrayList<>();
      for (Relation r : io.cassette.cql.language.views.Views.where(view.view.whereClause())) {
        List<String> names = new ArrayList<>();
        for (String n : r.columns()) {
          names.add(at.renamed().getOrDefault(n, n));
        }
        where.add(new Relation(r.kind(), names, r.mapKey(), r.op(), r.value(), r.inValues()));
      }
      ViewDefinition d = view.view;
      return view.with(cols, view.options, view.indexes)
          .asView(new ViewDefinition(d.baseTable(), d.baseTableId(), d.includeAllColumns(), whereText(where)));
    }
    return view;
  }

  private static boolean hasMarker(Relation r) {
    if (r.value() instanceof Term.BindMarker) {
      return true;
    }
    if (r.inValues() != null) {
      for (Term t : r.inValues()) {
        if (t instanceof Term.BindMarker) {
          return true;
        }
      }
    }
    return false;
  }

  /** The WHERE clause as Cassandra keeps it in system_schema.views.where_clause. */
  static String whereText(List<Relation> where) {
    StringBuilder sb = new StringBuilder();
    for (Relation r : where) {
      if (sb.length() > 0) {
        sb.append(" AND ");
      }
      sb.append(Identifiers.quoteIfNeeded(r.column()));
      if (r.op() == Relation.Operator.IS_NOT_NULL) {
        sb.append(" IS NOT NULL");
      } else if (r.op() == Relation.Operator.IN) {
        sb.append(" IN (");
        for (int i = 0; i < r.inValues().size(); i++) {
          sb.append(i == 0 ? "" : ", ").append(r.inValues().get(i));
        }
        sb.append(')');
      } else {
        sb.append(' ').append(r.op().text).append(' ').append(r.value());
      }
    }
    return sb.toString();
  }
}
