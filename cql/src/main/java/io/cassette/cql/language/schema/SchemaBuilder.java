package io.cassette.cql.language.schema;

import static io.cassette.cql.language.Errors.config;
import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.language.Errors;
import io.cassette.cql.language.parser.RawType;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.types.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/** Builds and validates schema objects from DDL statements, with Cassandra's messages. */
public final class SchemaBuilder {
  private static final Pattern NAME = Pattern.compile("\\w+");
  /** The durable schema's record of dropped columns (never accepted from clients). */
  static final String DROPPED_OPTION = "cassette_dropped_columns";
  /** The durable form's mark of a materialized view (see {@link SchemaDdl#table}). */
  static final String VIEW_OPTION = "cassette_view";
  private static final int KEYSPACE_NAME_MAX = 48;
  private static final int TABLE_NAME_MAX = 222;
  private static final String SIMPLE = "org.apache.cassandra.locator.SimpleStrategy";
  private static final String NTS = "org.apache.cassandra.locator.NetworkTopologyStrategy";

  private SchemaBuilder() {}

  public static KeyspaceMetadata keyspace(String name, Statement.Properties props, KeyspaceMetadata existing) {
    if (name.isEmpty() || name.length() > KEYSPACE_NAME_MAX || !NAME.matcher(name).matches()) {
      throw invalid("Keyspace name must not be empty, more than " + KEYSPACE_NAME_MAX
          + " characters long, or contain non-alphanumeric-underscore characters (got \"" + name + "\")");
    }
    Map<String, String> replication = existing == null ? null : existing.replication();
    boolean durable = existing == null || existing.durableWrites();
    for (Map.Entry<String, Object> e : props.values().entrySet()) {
      switch (e.getKey()) {
        case "replication" -> {
          if (!(e.getValue() instanceof Map<?, ?>)) {
            throw Errors.syntax("Invalid value for property 'replication'. It should be a map.");
          }
          @SuppressWarnings("unchecked")
          Map<String, String> m = (Map<String, String>) e.getValue();
          replication = replication(m);
        }
        case "durable_writes" -> durable = Boolean.parseBoolean(String.valueOf(e.getValue()));
        default -> throw Errors.syntax("Unknown property '" + e.getKey() + "'");
      }
    }
    if (replication == null) {
      throw invalid("Missing mandatory option 'replication'");
    }
    return new KeyspaceMetadata(name, replication,
        durable, existing == null ? Map.of() : existing.tables(),
        existing == null ? Map.of() : existing.types(), false,
        existing == null ? List.of() : existing.functions(), existing == null ? List.of() : existing.aggregates());
  }

  private static Map<String, String> replication(Map<String, String> m) {
    String cls = m.get("class");
    if (cls == null) {
      throw config("Missing replication strategy class");
    }
    String full = cls.contains(".") ? cls : "org.apache.cassandra.locator." + cls;
    Map<String, String> out = new LinkedHashMap<>();
    out.put("class", full);
    if (full.equals(SIMPLE)) {
      String rf = m.get("replication_factor");
      if (rf == null) {
        rf = "1"; // Cassandra 5.0 falls back to default_keyspace_rf (1)
      }
      checkRf(rf);
      for (String k : m.keySet()) {
        if (!k.equals("class") && !k.equals("replication_factor")) {
          throw config("Unrecognized strategy option {" + k + "} passed to SimpleStrategy for keyspace");
        }
      }
      out.put("replication_factor", rf);
    } else if (full.equals(NTS)) {
      for (Map.Entry<String, String> e : m.entrySet()) {
        if (e.getKey().equals("class")) {
          continue;
        }
        checkRf(e.getValue());
        if (e.getKey().equals("replication_factor")) {
          out.put("datacenter1", e.getValue());
        } else {
          out.put(e.getKey(), e.getValue());
        }
      }
    } else if (full.equals("org.apache.cassandra.locator.LocalStrategy")) {
      throw config("Unable to use given strategy class: LocalStrategy is reserved for internal use.");
    } else {
      throw config("Unable to find replication strategy class '" + full + "'");
    }
    return out;
  }

  private static void checkRf(String rf) {
    try {
      int n = Integer.parseInt(rf.contains("/") ? rf.substring(0, rf.indexOf('/')) : rf);
      if (n < 0) {
        throw config("Replication factor must be non-negative; found " + rf);
      }
    } catch (NumberFormatException e) {
      throw config("Replication factor must be numeric; found " + rf);
    }
  }

  public static TableMetadata table(Statement.CreateTable ct, KeyspaceMetadata ks) {
    String name = ct.name().name();
    if (name.isEmpty() || name.length() > TABLE_NAME_MAX || !NAME.matcher(name).matches()) {
      throw invalid("Table name must not be empty, more than " + TABLE_NAME_MAX
          + " characters long, or contain non-alphanumeric-underscore characters (got \"" + name + "\")");
    }
    if (ct.partitionKey().isEmpty()) {
      throw invalid("No PRIMARY KEY specifed for table '" + name + "' (exactly one required)");
    }
    Map<String, Statement.ColumnDef> defs = new LinkedHashMap<>();
    for (Statement.ColumnDef d : ct.columns()) {
      if (defs.put(d.name(), d) != null) {
        throw invalid("Duplicate column '" + d.name() + "' declaration for table '" + name + "'");
      }
    }
    Set<String> keyCols = new HashSet<>();
    for (String k : ct.partitionKey()) {
      if (!defs.containsKey(k)) {
        throw invalid("Unknown column '" + k + "' referenced in PRIMARY KEY for table '" + name + "'");
      }
      if (!keyCols.add(k)) {
        throw invalid("Duplicate column '" + k + "' in PRIMARY KEY clause for table '" + name + "'");
      }
    }
    for (String k : ct.clusteringKey()) {
      if (!defs.containsKey(k)) {
        throw invalid("Unknown column '" + k + "' referenced in PRIMARY KEY for table '" + name + "'");
      }
      if (!keyCols.add(k)) {
        throw invalid("Duplicate column '" + k + "' in PRIMARY KEY clause for table '" + name + "'");
      }
    }
    Map<String, Boolean> order = ct.props().clusteringOrder();
    List<String> orderCols = new ArrayList<>(order.keySet());
    for (int i = 0; i < orderCols.size(); i++) {
      String c = orderCols.get(i);
      if (!ct.clusteringKey().contains(c)) {
        throw invalid("Only clustering key columns can be defined in CLUSTERING ORDER directive: ["
            + c + "] are not clustering columns");
      }
      if (i >= ct.clusteringKey().size() || !ct.clusteringKey().get(i).equals(c)) {
        throw invalid("The order of columns in the CLUSTERING ORDER directive must match that of the"
            + " clustering columns (" + c + " must appear before " + ct.clusteringKey().get(i) + ")");
      }
    }
    List<ColumnMetadata> cols = new ArrayList<>();
    boolean counters = false;
    boolean nonCounters = false;
    for (Statement.ColumnDef d : ct.columns()) {
      CqlType type = TypeResolver.resolve(d.type(), ks);
      ColumnMetadata.Kind kind;
      int pos = -1;
      boolean desc = false;
      if (ct.partitionKey().contains(d.name())) {
        kind = ColumnMetadata.Kind.PARTITION_KEY;
        pos = ct.partitionKey().indexOf(d.name());
      } else if (ct.clusteringKey().contains(d.name())) {
        kind = ColumnMetadata.Kind.CLUSTERING;
        pos = ct.clusteringKey().indexOf(d.name());
        desc = Boolean.TRUE.equals(order.get(d.name()));
      } else {
        kind = d.isStatic() ? ColumnMetadata.Kind.STATIC : ColumnMetadata.Kind.REGULAR;
      }
      if (kind == ColumnMetadata.Kind.PARTITION_KEY || kind == ColumnMetadata.Kind.CLUSTERING) {
        if (d.isStatic()) {
          throw invalid("Static column " + d.name() + " cannot be part of the PRIMARY KEY");
        }
        if (Types.isMultiCell(type)) {
          throw invalid("Invalid non-frozen " + (type instanceof UdtType ? "user-defined type"
              : "collection type") + " " + Types.toCql(type) + " for PRIMARY KEY column '" + d.name() + "'");
        }
        if (Types.isCounter(type)) {
          throw invalid("counter type is not supported for PRIMARY KEY column '" + d.name() + "'");
        }
        if (Types.isNative(type, CqlType.Native.DURATION)) {
          throw invalid("duration type is not supported for PRIMARY KEY column '" + d.name() + "'");
        }
      } else {
        if (Types.isCounter(type)) {
          counters = true;
        } else {
          nonCounters = true;
        }
      }
      if (type instanceof UdtType u && !u.frozen()) {
        for (CqlType ft : u.fieldTypes()) {
          if (Types.isMultiCell(ft)) {
            throw invalid("Non-frozen UDTs with nested non-frozen collections are not supported for column " + d.name());
          }
        }
      }
      if (d.isStatic() && ct.clusteringKey().isEmpty()) {
        throw invalid("Static columns are only useful (and thus allowed) if the table has at least one clustering column");
      }
      cols.add(new ColumnMetadata(d.name(), type, kind, pos, desc));
    }
    if (counters && nonCounters) {
      throw invalid("Cannot mix counter and non counter columns in the same table");
    }
    if (ct.props().compactStorage()) {
      throw invalid("COMPACT STORAGE tables are not supported starting with version 4.0");
    }
    Map<String, Object> opts = new LinkedHashMap<>(ct.props().values());
    Object droppedProp = opts.remove(DROPPED_OPTION);
    Object viewProp = opts.remove(VIEW_OPTION);
    Object idProp = opts.get("id");
    UUID id = idProp == null ? TimeUuid.next() : UUID.fromString(String.valueOf(idProp));
    TableOptions options = TableOptions.defaults().with(opts);
    if (counters && options.defaultTimeToLive() > 0) {
      throw invalid("Cannot set default_time_to_live on a table with counters");
    }
    Map<String, TableMetadata.DroppedColumn> dropped = new LinkedHashMap<>();
    if (droppedProp instanceof Map<?, ?> m && idProp != null) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        String v = String.valueOf(e.getValue());
        int colon = v.indexOf(':');
        dropped.put(String.valueOf(e.getKey()), new TableMetadata.DroppedColumn(Long.parseLong(v.substring(0, colon)),
            TypeResolver.parse(v.substring(colon + 1), ks)));
      }
    }
    Map<String, ColumnMask> masks = new LinkedHashMap<>();
    for (ColumnMetadata c : cols) {
      Statement.ColumnDef d = defs.get(c.name());
      if (d.mask() != null) {
        masks.put(c.name(), ColumnMask.compile(d.mask(), name, c.name(), c.type(), ks));
      }
    }
    ViewDefinition view = null;
    if (viewProp instanceof Map<?, ?> v && idProp != null) {
      view = new ViewDefinition(String.valueOf(v.get("base")), UUID.fromString(String.valueOf(v.get("base_id"))),
          Boolean.parseBoolean(String.valueOf(v.get("include_all"))), String.valueOf(v.get("where")));
    }
    return new TableMetadata(ks.name(), name, id, cols, options, Map.of(), false, dropped, masks, view);
  }

  public static UdtType type(Statement.CreateType ct, KeyspaceMetadata ks) {
    Set<String> seen = new HashSet<>();
    List<CqlType> types = new ArrayList<>();
    for (int i = 0; i < ct.fieldNames().size(); i++) {
      String f = ct.fieldNames().get(i);
      if (!seen.add(f)) {
        throw invalid("Duplicate field name " + f + " in type " + ct.name().name());
      }
      RawType rt = ct.fieldTypes().get(i);
      if (rt.name().equals(ct.name().name()) && rt.params().isEmpty()) {
        throw invalid("A user type cannot contain itself");
      }
      CqlType t = TypeResolver.resolve(rt, ks);
      if (Types.isCounter(t)) {
        throw invalid("A user type cannot contain counters");
      }
      if (t instanceof UdtType && Types.isMultiCell(t)) {
        throw invalid("A user type cannot contain non-frozen UDTs");
      }
      types.add(t);
    }
    return new UdtType(ks.name(), ct.name().name(), List.copyOf(ct.fieldNames()), types, false);
  }

  /** Applies a persisted statement while loading (no validation beyond parsing). */
  static KeyspaceMetadata replay(KeyspaceMetadata ks, Statement s) {
    if (s instanceof Statement.CreateKeyspace ck) {
      return keyspace(ck.name(), ck.props(), null);
    }
    if (s instanceof Statement.CreateType ct) {
      return ks.withType(type(ct, ks));
    }
    if (s instanceof Statement.CreateTable ct) {
      return ks.withTable(table(ct, ks));
    }
    if (s instanceof Statement.CreateIndex ci) {
      TableMetadata t = ks.tables().get(ci.table().name());
      Map<String, IndexMetadata> idx = new LinkedHashMap<>(t.indexes);
      idx.put(ci.indexName(), index(ci, t));
      return ks.withTable(t.with(t.columns, t.options, idx));
    }
    if (s instanceof Statement.CreateFunction cf) {
      return ks.withFunction(function(cf, ks));
    }
    if (s instanceof Statement.CreateAggregate ca) {
      return ks.withAggregate(aggregate(ca, ks));
    }
    throw new IllegalStateException("unexpected schema statement " + s);
  }

  /** The function a CREATE FUNCTION defines (types resolved in {@code ks}; the body is not compiled here). */
  public static UserFunction function(Statement.CreateFunction cf, KeyspaceMetadata ks) {
    List<CqlType> args = new ArrayList<>();
    for (RawType r : cf.argTypes()) {
      args.add(TypeResolver.resolve(r, ks));
    }
    return new UserFunction(ks.name(), cf.name().name(), cf.argNames(), args, cf.calledOnNullInput(),
        TypeResolver.resolve(cf.returnType(), ks), cf.language().toLowerCase(java.util.Locale.ROOT), cf.body());
  }

  /**
   * The aggregate a CREATE AGGREGATE defines, its state and final functions looked up in {@code ks}
   * by signature (the caller checks they exist); the return type is the final function's, else the state type.
   */
  public static UserAggregate aggregate(Statement.CreateAggregate ca, KeyspaceMetadata ks) {
    List<CqlType> args = new ArrayList<>();
    for (RawType r : ca.argTypes()) {
      args.add(TypeResolver.resolve(r, ks));
    }
    CqlType stype = TypeResolver.resolve(ca.stateType(), ks);
    CqlType ret = stype;
    if (ca.finalFunction() != null) {
      UserFunction ff = findFunction(ks, ca.finalFunction(), List.of(stype));
      if (ff != null) {
        ret = ff.returnType();
      }
    }
    byte[] init = null;
    if (ca.initcond() != null) {
      init = new io.cassette.cql.language.statements.TermCompiler(new io.cassette.cql.language.statements.Bindings(), ks)
          .compile(ca.initcond(), new io.cassette.cql.language.statements.Receiver(ks.name(), "--dummy--",
              "(aggregate_initcond)", stype)).get(null);
    }
    return new UserAggregate(ks.name(), ca.name().name(), args, ca.stateFunction(), stype, ca.finalFunction(),
        init, ret);
  }

  /** The function of {@code ks} named {@code name} taking exactly {@code args}, or null. */
  public static UserFunction findFunction(KeyspaceMetadata ks, String name, List<CqlType> args) {
    for (UserFunction f : ks.functions(name)) {
      if (f.argumentTypes().equals(args)) {
        return f;
      }
    }
    return null;
  }

  public static IndexMetadata index(Statement.CreateIndex ci, TableMetadata t) {
    String col = io.cassette.cql.language.types.Identifiers.quoteIfNeeded(ci.column());
    String target = switch (ci.target()) {
      case "keys" -> "keys(" + col + ")";
      case "entries" -> "entries(" + col + ")";
      case "full" -> "full(" + col + ")";
      case "values" -> "values(" + col + ")";
      default -> t.column(ci.column()) != null && Types.isMultiCell(t.column(ci.column()).type())
          && Types.isCollection(t.column(ci.column()).type()) ? "values(" + col + ")" : col;
    };
    Map<String, String> options = new LinkedHashMap<>();
    if (ci.customClass() != null) {
      options.put("class_name", ci.customClass());
    }
    options.put("target", target);
    if (ci.props() != null && ci.props().values().get("options") instanceof Map<?, ?> given) {
      for (Map.Entry<?, ?> e : given.entrySet()) {
        options.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
      }
    }
    return new IndexMetadata(ci.indexName(), ci.customClass() != null ? "CUSTOM" : "COMPOSITES", options);
  }
}
