package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.Schema;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.system.SystemKeyspaces;
import io.cassette.cql.language.system.SystemTables;
import io.cassette.cql.language.system.VirtualTable;
import java.util.List;

/** Turns a parsed statement into an {@link Executable} against the current schema. */
public final class StatementCompiler {
  private final Services services;
  private final io.cassette.cql.language.system.SchemaTablesCache schemaTables =
      new io.cassette.cql.language.system.SchemaTablesCache();

  public StatementCompiler(Services services) {
    this.services = services;
  }

  /** @param keyspace the client's or the request's keyspace, or null */
  public Executable compile(Statement s, String keyspace) {
    Schema schema = services.schema().current();
    if (s instanceof Statement.Use u) {
      if (schema.keyspace(u.keyspace()) == null) {
        throw invalid("Keyspace '" + u.keyspace() + "' does not exist");
      }
      return new Executable() {
        public Result execute(QueryContext ctx) {
          ctx.state.setKeyspace(u.keyspace());
          return new Result.SetKeyspace(u.keyspace());
        }

        public List<ColumnSpec> variables() {
          return List.of();
        }
      };
    }
    if (s instanceof Statement.Select sel) {
      TableMetadata t = table(schema, sel.table(), keyspace);
      return new SelectStatement(t, sel, terms(schema, t), source(schema));
    }
    if (s instanceof Statement.Insert ins) {
      TableMetadata t = writableTable(schema, ins.table(), keyspace);
      return new ModificationStatement(t, ins, terms(schema, t), source(schema));
    }
    if (s instanceof Statement.Update up) {
      TableMetadata t = writableTable(schema, up.table(), keyspace);
      return new ModificationStatement(t, up, terms(schema, t), source(schema));
    }
    if (s instanceof Statement.Delete del) {
      TableMetadata t = writableTable(schema, del.table(), keyspace);
      return new ModificationStatement(t, del, terms(schema, t), source(schema));
    }
    if (s instanceof Statement.Batch b) {
      return new BatchExecution(b, this, keyspace, schema);
    }
    if (s instanceof Statement.Truncate tr) {
      TableMetadata t = table(schema, tr.table(), keyspace);
      if (t.isView()) {
        throw invalid("Cannot TRUNCATE materialized view directly; must truncate base table instead");
      }
      writableTable(schema, tr.table(), keyspace);
      List<TableMetadata> views = io.cassette.cql.language.views.Views.of(schema.keyspace(t.keyspace), t.name);
      return new Executable() {
        public Result execute(QueryContext ctx) {
          truncate(t.keyspace, t.name, ctx);
          for (TableMetadata v : views) { // as Cassandra: a base table's views are truncated with it
            truncate(v.keyspace, v.name, ctx);
          }
          for (io.cassette.cql.language.schema.IndexMetadata i : t.indexes.values()) {
            if (SecondaryIndexes.target(t, i) != null) {
              truncate(t.keyspace, SecondaryIndexes.storageName(t, i), ctx);
            }
          }
          return Result.Void.INSTANCE;
        }

        public List<ColumnSpec> variables() {
          return List.of();
        }
      };
    }
    if (s instanceof Statement.Describe d) {
      return new DescribeStatement(d, keyspace, services);
    }
    if (s instanceof Statement.CreateView || s instanceof Statement.AlterView || s instanceof Statement.DropView) {
      return ViewStatements.compile(s, keyspace, services);
    }
    if (s instanceof Statement.Unsupported u) {
      throw invalid(u.what() + " statements are not supported by Cassette");
    }
    return SchemaStatements.compile(s, keyspace, services);
  }

  /** A term compiler sharing {@code bindings} across a batch. */
  TermCompiler terms(Schema schema, TableMetadata t, Bindings bindings) {
    return new TermCompiler(bindings, schema.keyspace(t.keyspace), schema);
  }

  private TermCompiler terms(Schema schema, TableMetadata t) {
    return terms(schema, t, new Bindings());
  }

  /**
   * As Cassandra 5.0.4 answers on a ring with a node down (measured on the anchor ring): not
   * UNAVAILABLE but TRUNCATE_ERROR "Error during truncate: Cannot achieve consistency level ALL",
   * and "... Truncate timed out - received only N responses" when a node does not answer.
   */
  private void truncate(String keyspace, String table, QueryContext ctx) {
    if (services.coordinator().table(keyspace, table).isPresent()) {
      try {
        services.coordinator().truncate(keyspace, table, ctx.request());
      } catch (io.cassette.coordinator.CoordinatorException.Unavailable e) {
        throw new io.cassette.cql.CqlException(io.cassette.cql.ErrorCode.TRUNCATE_ERROR,
            "Error during truncate: " + e.getMessage());
      } catch (io.cassette.coordinator.CoordinatorException.Timeout e) {
        throw new io.cassette.cql.CqlException(io.cassette.cql.ErrorCode.TRUNCATE_ERROR,
            "Error during truncate: Truncate timed out - received only " + e.received + " responses");
      }
    }
  }

  TableSource source(Schema schema) {
    return (t, ctx) -> {
      if (t.virtual) {
        if (t.keyspace.equals(SystemKeyspaces.TRACES)) {
          return new io.cassette.cql.language.system.TraceTables(t, services.traces());
        }
        if (t.keyspace.equals(SystemKeyspaces.VIEWS) && t.name.equals("clients")) {
          return new VirtualTable(t, io.cassette.cql.language.system.SystemViews.clients(ctx.state));
        }
        if (t.keyspace.equals(SystemKeyspaces.VIEWS) && t.name.equals("settings")) {
          return new VirtualTable(t, io.cassette.cql.language.system.SystemViews.settings(services.node(),
              services.userFunctions().get().enabled(), services.materializedViews().get(), services.masking().enabled()));
        }
        Schema current = services.schema().current();
        if (io.cassette.cql.language.system.SchemaTablesCache.cacheable(t)) {
          return schemaTables.get(t, current, () -> new VirtualTable(t, SystemTables.rows(t, current, services.node())));
        }
        return new VirtualTable(t, SystemTables.rows(t, current, services.node()));
      }
      if (services.coordinator().table(t.keyspace, t.name).isEmpty()) {
        throw invalid("table " + t.name + " does not exist");
      }
      return new ObservedTable(new CoordinatedTable(services.coordinator(), t.keyspace, t.name, ctx.request(),
          ctx.prefetched()), t, ctx);
    };
  }

  static TableMetadata table(Schema schema, Statement.QualifiedName name, String keyspace) {
    String ks = SchemaStatements.keyspace(name, keyspace);
    KeyspaceMetadata k = schema.keyspace(ks);
    if (k == null) {
      throw invalid("keyspace " + ks + " does not exist");
    }
    TableMetadata t = k.tables().get(name.name());
    if (t == null) {
      throw invalid("table " + name.name() + " does not exist");
    }
    return t;
  }

  static TableMetadata writableTable(Schema schema, Statement.QualifiedName name, String keyspace) {
    TableMetadata t = table(schema, name, keyspace);
    if (t.keyspace.equals(SystemKeyspaces.VIEWS) || t.keyspace.equals(SystemKeyspaces.VIRTUAL_SCHEMA)) {
      throw invalid("Modification is not supported by table " + t.keyspace + "." + t.name);
    }
    if (t.virtual || SystemKeyspaces.isSystem(t.keyspace)) {
      SchemaStatements.checkModifiable(t.keyspace);
      throw io.cassette.cql.language.Errors.unauthorized("System keyspace '" + t.keyspace + "' is not user-modifiable");
    }
    if (t.isView()) {
      throw invalid("Cannot directly modify a materialized view");
    }
    return t;
  }

  Services services() {
    return services;
  }
}
