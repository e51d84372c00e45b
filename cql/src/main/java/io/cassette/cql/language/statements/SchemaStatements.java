package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.ClientWarnings;
import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlException;
import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.Result;
import io.cassette.cql.language.Errors;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.IndexMetadata;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.SchemaBuilder;
import io.cassette.cql.language.schema.SchemaManager;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.schema.TypeResolver;
import io.cassette.cql.language.system.SystemKeyspaces;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** DDL: keyspaces, tables, types and indexes, applied through the {@link SchemaManager}. */
final class SchemaStatements {
  private SchemaStatements() {}

  /** A schema statement has no markers and no result columns. */
  private record Ddl(java.util.function.Function<QueryContext, Result> body) implements Executable {
    public Result execute(QueryContext ctx) {
      return body.apply(ctx);
    }

    public List<ColumnSpec> variables() {
      return List.of();
    }
  }

  static void checkModifiable(String keyspace) {
    if (SystemKeyspaces.isReadOnly(keyspace) || keyspace.equals(SystemKeyspaces.AUTH)
        || keyspace.equals(SystemKeyspaces.DISTRIBUTED) || keyspace.equals(SystemKeyspaces.TRACES)) {
      throw Errors.unauthorized((keyspace.equals(SystemKeyspaces.VIRTUAL_SCHEMA) || keyspace.equals(SystemKeyspaces.VIEWS)
          ? "Virtual keyspace '" : "System keyspace '") + keyspace + "' is not user-modifiable");
    }
  }

  private static Result.SchemaChange event(String change, String target, String ks, String name) {
    return new Result.SchemaChange(change, target, ks, name, List.of());
  }

  static Executable compile(Statement s, String keyspace, Services services) {
    if (s instanceof Statement.CreateFunction || s instanceof Statement.CreateAggregate
        || s instanceof Statement.DropFunction) {
      return FunctionStatements.compile(s, keyspace, services);
    }
    SchemaManager sm = services.schema();
    if (s instanceof Statement.CreateKeyspace ck) {
      checkModifiable(ck.name());
      KeyspaceMetadata built = SchemaBuilder.keyspace(ck.name(), ck.props(), null);
      return new Ddl(ctx -> {
        warnReplication(built, services);
        return sm.change(m -> {
          if (m.containsKey(ck.name())) {
            if (ck.ifNotExists()) {
              return null;
            }
            throw new CqlException.AlreadyExists(ck.name(), "", "Cannot add existing keyspace \"" + ck.name() + "\"");
          }
          m.put(ck.name(), built);
          return m;
        }, event("CREATED", "KEYSPACE", ck.name(), null));
      });
    }
    if (s instanceof Statement.AlterKeyspace ak) {
      // Cassandra lets the replicated system keyspaces be altered (raise system_auth's RF on a ring).
      if (!ak.name().equals(SystemKeyspaces.AUTH)) {
        checkModifiable(ak.name());
      }
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata old = m.get(ak.name());
        if (old == null) {
          if (ak.ifExists()) {
            return null;
          }
          throw invalid("Keyspace '" + ak.name() + "' doesn't exist");
        }
        KeyspaceMetadata neu = SchemaBuilder.keyspace(ak.name(), ak.props(), old);
        warnReplication(neu, services);
        m.put(ak.name(), neu);
        return m;
      }, event("UPDATED", "KEYSPACE", ak.name(), null)));
    }
    if (s instanceof Statement.DropKeyspace dk) {
      if (SystemKeyspaces.isSystem(dk.name()) || dk.name().startsWith("system_")) {
        throw Errors.unauthorized(dk.name() + " keyspace is not user-modifiable.");
      }
      return new Ddl(ctx -> sm.change(m -> {
        if (m.remove(dk.name()) == null) {
          if (dk.ifExists()) {
            return null;
          }
          throw invalid("Keyspace '" + dk.name() + "' doesn't exist");
        }
        return m;
      }, event("DROPPED", "KEYSPACE", dk.name(), null)));
    }
    if (s instanceof Statement.CreateTable ct) {
      String ks = keyspace(ct.name(), keyspace);
      checkModifiable(ks);
      for (Statement.ColumnDef d : ct.columns()) {
        if (d.mask() != null && !services.masking().enabled()) {
          throw invalid(OffByDefaultFeatures.MASKING_DISABLED);
        }
      }
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        if (k == null) {
          throw invalid("Keyspace '" + ks + "' doesn't exist");
        }
        if (k.tables().containsKey(ct.name().name())) {
          if (ct.ifNotExists()) {
            return null;
          }
          throw new CqlException.AlreadyExists(ks, ct.name().name(), "Cannot add already existing table \""
              + ct.name().name() + "\" to keyspace \"" + ks + "\"");
        }
        m.put(ks, k.withTable(SchemaBuilder.table(ct, k)));
        return m;
      }, event("CREATED", "TABLE", ks, ct.name().name())));
    }
    if (s instanceof Statement.DropTable dt) {
      String ks = keyspace(dt.name(), keyspace);
      checkModifiable(ks);
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        if (k == null || !k.tables().containsKey(dt.name().name())) {
          if (dt.ifExists()) {
            return null;
          }
          if (k == null) {
            throw invalid("Keyspace '" + ks + "' doesn't exist");
          }
          throw invalid("Table '" + ks + "." + dt.name().name() + "' doesn't exist");
        }
        if (k.tables().get(dt.name().name()).isView()) {
          throw invalid("Cannot use DROP TABLE on a materialized view. Please use DROP MATERIALIZED VIEW instead.");
        }
        if (!io.cassette.cql.language.views.Views.of(k, dt.name().name()).isEmpty()) {
          throw invalid("Cannot drop a table when materialized views still depend on it (" + ks + ")");
        }
        m.put(ks, k.withoutTable(dt.name().name()));
        return m;
      }, event("DROPPED", "TABLE", ks, dt.name().name())));
    }
    if (s instanceof Statement.AlterColumnMask am) {
      String ks = keyspace(am.name(), keyspace);
      checkModifiable(ks);
      if (am.mask() != null && !services.masking().enabled()) {
        throw invalid(OffByDefaultFeatures.MASKING_DISABLED);
      }
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        TableMetadata t = k == null ? null : k.tables().get(am.name().name());
        if (t == null) {
          if (am.ifExists()) {
            return null;
          }
          if (k == null) {
            throw invalid("Keyspace '" + ks + "' doesn't exist");
          }
          throw invalid("Table '" + ks + "." + am.name().name() + "' doesn't exist");
        }
        ColumnMetadata c = t.column(am.column());
        if (c == null) {
          throw invalid("Column with name '" + am.column() + "' doesn't exist on table '" + t.name + "'");
        }
        io.cassette.cql.language.schema.ColumnMask mask = am.mask() == null ? null
            : io.cassette.cql.language.schema.ColumnMask.compile(am.mask(), t.name, c.name(), c.type(), k);
        m.put(ks, k.withTable(t.withMask(c.name(), mask)));
        return m;
      }, event("UPDATED", "TABLE", ks, am.name().name())));
    }
    if (s instanceof Statement.AlterTable at) {
      String ks = keyspace(at.name(), keyspace);
      checkModifiable(ks);
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        TableMetadata t = k == null ? null : k.tables().get(at.name().name());
        if (t == null) {
          if (at.ifExists()) {
            return null;
          }
          if (k == null) {
            throw invalid("Keyspace '" + ks + "' doesn't exist");
          }
          throw invalid("Table '" + ks + "." + at.name().name() + "' doesn't exist");
        }
        if (t.isView()) {
          throw invalid("Cannot use ALTER TABLE on a materialized view; use ALTER MATERIALIZED VIEW instead");
        }
        List<TableMetadata> views = io.cassette.cql.language.views.Views.of(k, t.name);
        if (at.kind() == Statement.AlterKind.DROP && !views.isEmpty() && !at.dropped().isEmpty()) {
          throw invalid("Cannot drop column " + at.dropped().get(0) + " on base table " + t.name + " with materialized views");
        }
        TableMetadata n = alterTable(at, t, k, services.clock().nextMicros());
        if (n == null) {
          return null;
        }
        KeyspaceMetadata changed = k.withTable(n);
        for (TableMetadata v : views) {
          changed = changed.withTable(ViewStatements.followBase(v, t, n, at));
        }
        m.put(ks, changed);
        return m;
      }, event("UPDATED", "TABLE", ks, at.name().name())));
    }
    if (s instanceof Statement.CreateType ct) {
      String ks = keyspace(ct.name(), keyspace);
      checkModifiable(ks);
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        if (k == null) {
          throw invalid("Keyspace '" + ks + "' doesn't exist");
        }
        if (k.types().containsKey(ct.name().name())) {
          if (ct.ifNotExists()) {
            return null;
          }
          throw invalid("A user type with name '" + ct.name().name() + "' already exists");
        }
        m.put(ks, k.withType(SchemaBuilder.type(ct, k)));
        return m;
      }, event("CREATED", "TYPE", ks, ct.name().name())));
    }
    if (s instanceof Statement.AlterType at) {
      String ks = keyspace(at.name(), keyspace);
      checkModifiable(ks);
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        UdtType u = k == null ? null : k.types().get(at.name().name());
        if (u == null) {
          if (at.ifExists()) {
            return null;
          }
          throw invalid("Type '" + ks + "." + at.name().name() + "' doesn't exist");
        }
        List<String> names = new ArrayList<>(u.fieldNames());
        List<CqlType> types = new ArrayList<>(u.fieldTypes());
        if (at.add()) {
          if (names.contains(at.field())) {
            throw invalid("Cannot add new field " + at.field() + " to type " + ks + "." + u.name()
                + ": a field with name " + at.field() + " already exists");
          }
          names.add(at.field());
          types.add(TypeResolver.resolve(at.type(), k));
        } else {
          for (Map.Entry<String, String> e : at.renamed().entrySet()) {
            int i = names.indexOf(e.getKey());
            if (i < 0) {
              throw invalid("Unkown field " + e.getKey() + " in user type " + ks + "." + u.name());
            }
            names.set(i, e.getValue());
          }
        }
        UdtType nu = new UdtType(ks, u.name(), names, types, false);
        KeyspaceMetadata nk = k.withType(nu);
        for (TableMetadata t : k.tables().values()) {
          List<ColumnMetadata> cols = new ArrayList<>();
          boolean changed = false;
          for (ColumnMetadata c : t.columns) {
            CqlType ct2 = replaceUdt(c.type(), nu);
            changed |= !ct2.equals(c.type());
            cols.add(new ColumnMetadata(c.name(), ct2, c.kind(), c.position(), c.descending()));
          }
          if (changed) {
            nk = nk.withTable(t.with(cols, t.options, t.indexes));
          }
        }
        m.put(ks, nk);
        return m;
      }, event("UPDATED", "TYPE", ks, at.name().name())));
    }
    if (s instanceof Statement.DropType dt) {
      String ks = keyspace(dt.name(), keyspace);
      checkModifiable(ks);
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        if (k == null || !k.types().containsKey(dt.name().name())) {
          if (dt.ifExists()) {
            return null;
          }
          throw invalid("Type '" + ks + "." + dt.name().name() + "' doesn't exist");
        }
        for (UdtType other : k.types().values()) {
          for (CqlType ft : other.fieldTypes()) {
            if (!other.name().equals(dt.name().name()) && usesUdt(ft, dt.name().name())) {
              throw invalid("Cannot drop user type '" + ks + "." + dt.name().name()
                  + "' as it is still used by user types " + other.name());
            }
          }
        }
        for (TableMetadata t : k.tables().values()) {
          for (ColumnMetadata c : t.columns) {
            if (usesUdt(c.type(), dt.name().name())) {
              throw invalid("Cannot drop user type '" + ks + "." + dt.name().name()
                  + "' as it is still used by tables " + t.name);
            }
          }
        }
        m.put(ks, k.withoutType(dt.name().name()));
        return m;
      }, event("DROPPED", "TYPE", ks, dt.name().name())));
    }
    if (s instanceof Statement.CreateIndex ci) {
      String ks = keyspace(ci.table(), keyspace);
      checkModifiable(ks);
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        TableMetadata t = k == null ? null : k.tables().get(ci.table().name());
        if (t == null) {
          throw invalid(k == null ? "Keyspace '" + ks + "' doesn't exist"
              : "Table '" + ci.table().name() + "' doesn't exist");
        }
        if (t.isView()) {
          throw invalid("Secondary indexes on materialized views aren't supported");
        }
        ColumnMetadata c = t.column(ci.column());
        if (c == null) {
          throw invalid("Column '" + ci.column() + "' doesn't exist");
        }
        String name = ci.indexName() != null ? ci.indexName() : t.name + "_" + c.name() + "_idx";
        for (TableMetadata other : k.tables().values()) {
          if (other.indexes.containsKey(name)) {
            if (ci.ifNotExists()) {
              return null;
            }
            throw invalid("Index '" + name + "' already exists");
          }
        }
        if (c.kind() == ColumnMetadata.Kind.PARTITION_KEY && t.partitionKey.size() == 1) {
          throw invalid("Cannot create secondary index on the only partition key column " + c.name());
        }
        Map<String, IndexMetadata> idx = new LinkedHashMap<>(t.indexes);
        Statement.CreateIndex named = new Statement.CreateIndex(name, ci.table(), ci.ifNotExists(), ci.column(),
            ci.target(), ci.customClass(), ci.props());
        IndexMetadata created = SchemaBuilder.index(named, t);
        if (SecondaryIndexes.isSai(created)) {
          StorageAttachedIndexes.validate(t, c, ci.indexName(), created);
        }
        idx.put(name, created);
        m.put(ks, k.withTable(t.with(t.columns, t.options, idx)));
        return m;
      }, event("UPDATED", "TABLE", ks, ci.table().name())));
    }
    if (s instanceof Statement.DropIndex di) {
      String ks = keyspace(di.name(), keyspace);
      checkModifiable(ks);
      String[] table = new String[1];
      KeyspaceMetadata known = sm.current().keyspace(ks);
      if (known != null) {
        for (TableMetadata t : known.tables().values()) {
          if (t.indexes.containsKey(di.name().name())) {
            table[0] = t.name;
          }
        }
      }
      return new Ddl(ctx -> sm.change(m -> {
        KeyspaceMetadata k = m.get(ks);
        if (k != null) {
          for (TableMetadata t : k.tables().values()) {
            if (t.indexes.containsKey(di.name().name())) {
              Map<String, IndexMetadata> idx = new LinkedHashMap<>(t.indexes);
              idx.remove(di.name().name());
              table[0] = t.name;
              m.put(ks, k.withTable(t.with(t.columns, t.options, idx)));
              return m;
            }
          }
        }
        if (di.ifExists()) {
          return null;
        }
        // Cassandra 5.0.4's text, its stray closing quote included.
        throw invalid("Index '" + ks + "." + di.name().name() + "' doesn't exist'");
      }, event("UPDATED", "TABLE", ks, table[0] == null ? "" : table[0])));
    }
    throw invalid("Unsupported schema statement");
  }

  private static void warnReplication(KeyspaceMetadata k, Services services) {
    // This node and its peers (none on a single node).
    NodeInfo self = services.node();
    List<String> dcs = new ArrayList<>();
    dcs.add(self.dataCenter());
    for (io.cassette.cql.language.RingView.Peer p : self.ring().peers()) {
      dcs.add(p.dataCenter());
    }
    String simple = k.replication().get("replication_factor");
    if (simple != null) {
      // SimpleStrategy counts the ring's nodes.
      if (Integer.parseInt(simple.split("/")[0]) > dcs.size()) {
        ClientWarnings.add("Your replication factor " + simple + " for keyspace " + k.name()
            + " is higher than the number of nodes " + dcs.size());
      }
      return;
    }
    // NetworkTopologyStrategy counts the nodes of each data centre it names.
    for (Map.Entry<String, String> e : k.replication().entrySet()) {
      String dc = e.getKey();
      if (dc.equals("class") || !e.getValue().matches("\\d+(/\\d+)?")) {
        continue;
      }
      long nodes = dcs.stream().filter(dc::equals).count();
      if (nodes > 0 && Integer.parseInt(e.getValue().split("/")[0]) > nodes) {
        ClientWarnings.add("Your replication factor " + e.getValue() + " for keyspace " + k.name()
            + " is higher than the number of nodes " + nodes + " for datacenter " + dc);
      }
    }
  }

  private static boolean usesUdt(CqlType t, String name) {
    if (t instanceof UdtType u) {
      if (u.name().equals(name)) {
        return true;
      }
      for (CqlType f : u.fieldTypes()) {
        if (usesUdt(f, name)) {
          return true;
        }
      }
      return false;
    }
    if (t instanceof CqlType.ListType l) {
      return usesUdt(l.element(), name);
    }
    if (t instanceof CqlType.SetType st) {
      return usesUdt(st.element(), name);
    }
    if (t instanceof CqlType.MapType mt) {
      return usesUdt(mt.key(), name) || usesUdt(mt.value(), name);
    }
    if (t instanceof CqlType.TupleType tt) {
      for (CqlType e : tt.elements()) {
        if (usesUdt(e, name)) {
          return true;
        }
      }
    }
    return false;
  }

  private static CqlType replaceUdt(CqlType t, UdtType nu) {
    if (t instanceof UdtType u && u.name().equals(nu.name())) {
      return u.frozen() ? Types.freeze(nu) : nu;
    }
    if (t instanceof CqlType.ListType l) {
      return new CqlType.ListType(replaceUdt(l.element(), nu), l.frozen());
    }
    if (t instanceof CqlType.SetType st) {
      return new CqlType.SetType(replaceUdt(st.element(), nu), st.frozen());
    }
    if (t instanceof CqlType.MapType mt) {
      return new CqlType.MapType(replaceUdt(mt.key(), nu), replaceUdt(mt.value(), nu), mt.frozen());
    }
    return t;
  }

  private static TableMetadata alterTable(Statement.AlterTable at, TableMetadata t, KeyspaceMetadata k,
                                          long nowMicros) {
    List<ColumnMetadata> cols = new ArrayList<>(t.columns);
    switch (at.kind()) {
      case ADD -> {
        boolean changed = false;
        Map<String, io.cassette.cql.language.schema.ColumnMask> masks = new LinkedHashMap<>();
        for (Statement.ColumnDef d : at.added()) {
          if (t.column(d.name()) != null) {
            if (at.ifColumnFlag()) {
              continue;
            }
            throw invalid("Column with name '" + d.name() + "' already exists");
          }
          CqlType type = TypeResolver.resolve(d.type(), k);
          TableMetadata.DroppedColumn was = t.dropped.get(d.name());
          if (was != null && !Types.isCompatible(type, was.type())) {
            throw invalid("Cannot re-add previously dropped column '" + d.name() + "' of type "
                + Types.toCql(type) + ", incompatible with previous type " + Types.toCql(was.type()));
          }
          if (d.isStatic() && t.clustering.isEmpty()) {
            throw invalid("Static columns are only useful (and thus allowed) if the table has at least one clustering column");
          }
          if (t.isCounter != Types.isCounter(type) && !t.valueColumns().isEmpty()) {
            throw invalid(t.isCounter ? "Cannot add a non counter column (" + d.name() + ") in a counter table"
                : "Cannot add a counter column (" + d.name() + ") in a non counter table");
          }
          cols.add(new ColumnMetadata(d.name(), type, d.isStatic() ? ColumnMetadata.Kind.STATIC
              : ColumnMetadata.Kind.REGULAR, -1, false));
          if (d.mask() != null) {
            // kept even with masking off, as Cassandra 5.0.4 does for ALTER TABLE ADD
            masks.put(d.name(), io.cassette.cql.language.schema.ColumnMask.compile(d.mask(), t.name, d.name(), type, k));
          }
          changed = true;
        }
        if (!changed) {
          return null;
        }
        TableMetadata added = t.with(cols, t.options, t.indexes);
        for (Map.Entry<String, io.cassette.cql.language.schema.ColumnMask> e : masks.entrySet()) {
          added = added.withMask(e.getKey(), e.getValue());
        }
        return added;
      }
      case DROP -> {
        boolean changed = false;
        Map<String, TableMetadata.DroppedColumn> dropped = new LinkedHashMap<>(t.dropped);
        long now = nowMicros;
        for (String name : at.dropped()) {
          ColumnMetadata c = t.column(name);
          if (c == null) {
            if (at.ifColumnFlag()) {
              continue;
            }
            throw invalid("Column " + name + " was not found in table '" + t.keyspace + "." + t.name + "'");
          }
          if (c.isPrimaryKey()) {
            throw invalid("Cannot drop PRIMARY KEY column " + name);
          }
          for (IndexMetadata i : t.indexes.values()) {
            if (i.options().getOrDefault("target", "").contains(name)) {
              throw invalid("Cannot drop column " + name + " because it has dependent secondary indexes (" + i.name() + ")");
            }
          }
          cols.remove(c);
          dropped.put(c.name(), new TableMetadata.DroppedColumn(now, c.type()));
          changed = true;
        }
        return changed ? t.with(cols, t.options, t.indexes).withDropped(dropped) : null;
      }
      case ALTER -> throw invalid("Altering column types is no longer supported");
      case RENAME -> {
        for (Map.Entry<String, String> e : at.renamed().entrySet()) {
          ColumnMetadata c = null;
          for (ColumnMetadata x : cols) {
            if (x.name().equals(e.getKey())) {
              c = x;
            }
          }
          if (c == null) {
            if (at.ifColumnFlag()) {
              continue;
            }
            throw invalid("Column " + e.getKey() + " was not found in table " + t.name);
          }
          if (!c.isPrimaryKey()) {
            throw invalid("Cannot rename non PRIMARY KEY column " + e.getKey());
          }
          for (ColumnMetadata x : cols) {
            if (x.name().equals(e.getValue())) {
              throw invalid("Cannot rename column " + e.getKey() + " to " + e.getValue()
                  + " in table '" + t.name + "'; another column with that name already exists");
            }
          }
          cols.set(cols.indexOf(c), new ColumnMetadata(e.getValue(), c.type(), c.kind(), c.position(), c.descending()));
        }
        TableMetadata renamed = t.with(cols, t.options, t.indexes);
        for (Map.Entry<String, String> e : at.renamed().entrySet()) {
          if (t.mask(e.getKey()) != null && renamed.column(e.getValue()) != null) {
            renamed = renamed.withMask(e.getValue(), t.mask(e.getKey()));
          }
        }
        return renamed;
      }
      default -> {
        if (at.props().values().containsKey("id")) {
          throw Errors.config("Cannot alter table id.");
        }
        return t.with(cols, t.options.with(at.props().values()), t.indexes);
      }
    }
  }

  static String keyspace(Statement.QualifiedName name, String current) {
    if (name.keyspace() != null) {
      return name.keyspace();
    }
    if (current == null) {
      throw invalid("No keyspace has been specified. USE a keyspace, or explicitly specify keyspace.tablename");
    }
    return current;
  }
}
