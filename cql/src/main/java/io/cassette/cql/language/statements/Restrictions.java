package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.TupleType;
import io.cassette.cql.language.parser.Relation;
import io.cassette.cql.language.parser.Relation.Operator;
import io.cassette.cql.language.parser.Term;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.IndexMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.ValueComparison;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.Bytes;
import io.cassette.storage.Slice;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A WHERE clause compiled for one table: which partitions (EQ/IN keys, token range or all),
 * which clustering slices, and which row filters remain. Follows Cassandra's rules for what
 * needs ALLOW FILTERING and what is refused outright.
 */
public final class Restrictions {
  /** One column restricted by = or IN: the candidate values. */
  static final class KeyValues {
    final List<Value> values = new ArrayList<>();
    Value inList; // IN ? : one list value
    final CqlType type;

    KeyValues(CqlType type) {
      this.type = type;
    }

    List<byte[]> get(QueryContext ctx, String column, boolean partition) {
      if (inList == null && values.size() == 1) {
        // The common "col = ?" case: no sorting, no set.
        byte[] b = values.get(0).get(ctx);
        if (b == QueryContext.UNSET) {
          throw invalid("Invalid unset value for column " + column);
        }
        if (b == null) {
          throw invalid("Invalid null value in condition for column " + column);
        }
        return List.of(b);
      }
      List<byte[]> out = new ArrayList<>();
      if (inList != null) {
        byte[] l = inList.get(ctx);
        if (l == null) {
          throw invalid("Invalid null value for IN restriction");
        }
        if (l == QueryContext.UNSET) {
          throw invalid("Invalid unset value for column " + column);
        }
        out.addAll(CollectionCodec.unpack(l, false));
      } else {
        for (Value v : values) {
          byte[] b = v.get(ctx);
          if (b == QueryContext.UNSET) {
            throw invalid("Invalid unset value for column " + column);
          }
          if (b == null) {
            if (values.size() > 1) {
              continue; // IN (1, null): Cassandra ignores null IN values
            }
            throw invalid("Invalid null value in condition for column " + column);
          }
          out.add(b);
        }
      }
      TreeMap<byte[], byte[]> sorted = new TreeMap<>((a, b) -> ValueComparison.compare(type, a, b));
      for (byte[] b : out) {
        sorted.put(b, b);
      }
      return new ArrayList<>(sorted.keySet());
    }
  }

  /** A bound of a slice on one column or a column tuple. */
  record Bound(Value value, boolean inclusive) {}

  /** A post-read predicate. */
  interface Filter {
    boolean test(RowView row, QueryContext ctx);
  }

  final TableMetadata table;
  final KeyValues[] partition;
  Value tokenStart;
  boolean tokenStartInclusive;
  Value tokenEnd;
  boolean tokenEndInclusive;
  boolean hasToken;
  /** EQ/IN prefix of clustering columns. */
  final List<KeyValues> clusteringPrefix = new ArrayList<>();
  /** Multi-column IN over the clustering prefix: each value is a tuple. */
  Value multiIn;
  List<Value> multiInValues;
  int multiColumns;
  /** Slice on the column after the prefix (or a multi-column slice when sliceColumns > 1). */
  Bound sliceStart;
  Bound sliceEnd;
  int sliceColumns;
  final List<Filter> filters = new ArrayList<>();
  final List<String> filteredColumns = new ArrayList<>();
  boolean needsFiltering;
  boolean usesIndex;
  boolean clusteringRestricted;
  final Map<String, Integer> partitionMarkers = new LinkedHashMap<>();
  final List<String> nonPrimaryKeyColumns = new ArrayList<>();

  private Restrictions(TableMetadata table) {
    this.table = table;
    this.partition = new KeyValues[table.partitionKey.size()];
  }

  /** Compiles {@code where}; {@code forSelect} allows filtering and slices on keys. */
  public static Restrictions compile(TableMetadata table, List<Relation> where, TermCompiler terms,
                                     boolean forSelect) {
    Restrictions r = new Restrictions(table);
    Map<String, List<Relation>> byColumn = new LinkedHashMap<>();
    for (Relation rel : where) {
      if (rel.kind() == Relation.Kind.TOKEN) {
        r.token(rel, terms);
        continue;
      }
      if (rel.kind() == Relation.Kind.MULTI) {
        r.multi(rel, terms);
        continue;
      }
      for (String c : rel.columns()) {
        if (table.column(c) == null) {
          throw invalid("Undefined column name " + c + " in table " + table);
        }
      }
      byColumn.computeIfAbsent(rel.column(), k -> new ArrayList<>()).add(rel);
    }
    // Partition key.
    boolean allPk = true;
    boolean anyPk = false;
    for (ColumnMetadata c : table.partitionKey) {
      List<Relation> rels = byColumn.remove(c.name());
      if (rels == null) {
        allPk = false;
        continue;
      }
      anyPk = true;
      for (Relation rel : rels) {
        if (rel.op() == Operator.EQ || rel.op() == Operator.IN) {
          if (r.partition[c.position()] != null) {
            if (rel.op() == Operator.EQ) {
              throw invalid(c.name() + " cannot be restricted by more than one relation if it includes an Equal");
            }
            throw invalid(c.name() + " cannot be restricted by more than one relation if it includes a IN");
          }
          r.partition[c.position()] = r.keyValues(c, rel, terms);
          if (rel.op() == Operator.EQ && rel.value() instanceof Term.BindMarker m) {
            r.partitionMarkers.put(c.name(), m.index());
          }
        } else if (forSelect) {
          if (!rel.op().isSlice() && rel.op() != Operator.NEQ) {
            throw invalid("Unsupported restriction on partition key column " + c.name());
          }
          r.filter(c, rel, terms);
          r.needsFiltering = true;
          r.sliceOnPartitionKey = true;
        } else {
          throw invalid("Only EQ and IN relation are supported on the partition key (unless you use the token() function or allow filtering)");
        }
      }
    }
    r.partitionComplete = allPk && !r.sliceOnPartitionKey;
    for (KeyValues kv : r.partition) {
      if (kv == null) {
        r.partitionComplete = false;
      }
    }
    if (anyPk && !r.partitionComplete && forSelect) {
      r.needsFiltering = true;
      for (ColumnMetadata c : table.partitionKey) {
        if (r.partition[c.position()] != null) {
          KeyValues kv = r.partition[c.position()];
          r.filters.add((row, ctx) -> {
            byte[] v = row.value(c);
            for (byte[] x : kv.get(ctx, c.name(), true)) {
              if (ValueComparison.compare(c.type(), v, x) == 0) {
                return true;
              }
            }
            return false;
          });
          r.partition[c.position()] = null;
        }
      }
    }
    // Clustering columns.
    boolean prefixOpen = r.multiColumns == 0 && r.sliceColumns == 0;
    int position = r.multiColumns + r.sliceColumns;
    for (ColumnMetadata c : table.clustering) {
      List<Relation> rels = byColumn.remove(c.name());
      if (rels == null) {
        if (c.position() >= position) {
          prefixOpen = false;
        }
        continue;
      }
      r.clusteringRestricted = true;
      for (Relation rel : rels) {
        boolean usable = prefixOpen && c.position() == r.clusteringPrefix.size() && r.sliceColumns == 0
            && r.multiColumns == 0;
        boolean sliceUsable = usable || (prefixOpen && r.sliceColumns == 1
            && c.position() == r.clusteringPrefix.size() && r.sliceColumnName.equals(c.name()));
        if ((rel.op() == Operator.EQ || rel.op() == Operator.IN) && usable) {
          r.clusteringPrefix.add(r.keyValues(c, rel, terms));
        } else if (rel.op().isSlice() && sliceUsable) {
          r.sliceColumns = 1;
          r.sliceColumnName = c.name();
          Bound b = new Bound(terms.compile(rel.value(), receiver(table, c)), rel.op() == Operator.GTE
              || rel.op() == Operator.LTE);
          boolean lower = rel.op() == Operator.GT || rel.op() == Operator.GTE;
          if (lower) {
            if (r.sliceStart != null) {
              throw invalid("More than one restriction was found for the start bound on " + c.name());
            }
            r.sliceStart = b;
          } else {
            if (r.sliceEnd != null) {
              throw invalid("More than one restriction was found for the end bound on " + c.name());
            }
            r.sliceEnd = b;
          }
        } else {
          if (!forSelect) {
            if (rel.op().isSlice() || rel.op() == Operator.EQ || rel.op() == Operator.IN) {
              throw invalid("PRIMARY KEY column \"" + c.name() + "\" cannot be restricted as preceding column \""
                  + table.clustering.get(Math.max(0, c.position() - 1)).name() + "\" is not restricted");
            }
            throw invalid("Invalid operator " + rel.op().text + " for PRIMARY KEY column " + c.name());
          }
          r.filter(c, rel, terms);
          r.needsFiltering = true;
          r.clusteringFilterReason = r.clusteringFilterReason == null ? c : r.clusteringFilterReason;
        }
      }
      if (r.sliceColumns > 0 || !prefixOpen) {
        prefixOpen = false;
      }
      if (r.clusteringPrefix.size() <= c.position() && r.sliceColumns == 0) {
        prefixOpen = false;
      }
    }
    // Everything else: regular and static columns.
    for (Map.Entry<String, List<Relation>> e : byColumn.entrySet()) {
      ColumnMetadata c = table.column(e.getKey());
      r.nonPrimaryKeyColumns.add(c.name());
      for (Relation rel : e.getValue()) {
        r.filter(c, rel, terms);
        IndexMetadata attached = rel.kind() != Relation.Kind.SINGLE ? null : AttachedIndexes.indexFor(table, c, rel.op());
        if (attached != null) {
          // a storage-attached index answers it; the filter above still checks every row found
          r.usesIndex = true;
          CqlType vt = c.type();
          if (rel.op() == Operator.CONTAINS) {
            vt = vt instanceof ListType l ? l.element() : vt instanceof SetType s ? s.element() : ((MapType) vt).value();
          } else if (rel.op() == Operator.CONTAINS_KEY) {
            vt = ((MapType) vt).key();
          }
          r.attached.add(new AttachedIndexes.Restriction(attached, rel.op(),
              terms.compile(rel.value(), receiver(table, c).named(c.name(), vt)), vt));
          continue;
        }
        IndexMetadata index = rel.kind() != Relation.Kind.SINGLE ? null
            : rel.op() == Operator.EQ ? indexFor(table, c, SecondaryIndexes.Kind.SIMPLE, SecondaryIndexes.Kind.FULL)
            : rel.op() == Operator.CONTAINS ? indexFor(table, c, SecondaryIndexes.Kind.VALUES)
            : rel.op() == Operator.CONTAINS_KEY ? indexFor(table, c, SecondaryIndexes.Kind.KEYS) : null;
        if (index != null) {
          r.usesIndex = true;
          if (r.indexQuery == null) {
            CqlType vt = c.type();
            if (rel.op() == Operator.CONTAINS) {
              vt = vt instanceof ListType l ? l.element() : vt instanceof SetType s ? s.element() : ((MapType) vt).value();
            } else if (rel.op() == Operator.CONTAINS_KEY) {
              vt = ((MapType) vt).key();
            }
            r.indexQuery = new IndexQuery(index, terms.compile(rel.value(), receiver(table, c).named(c.name(), vt)));
          }
        } else if (rel.kind() == Relation.Kind.SINGLE && rel.op() == Operator.NEQ
            && SecondaryIndexes.saiOn(table, c) != null) {
          throw invalid("Unsupported \"!=\" relation: " + c.name() + " != " + rel.value());
        } else if (rel.kind() == Relation.Kind.SINGLE && rel.op().isSlice() && SecondaryIndexes.saiOn(table, c) != null
            && !Types.isNative(c.type(), CqlType.Native.TEXT) && !Types.isNative(c.type(), CqlType.Native.ASCII)) {
          // SAI answers ranges on numeric, date and time columns (not on text): no ALLOW FILTERING
          r.usesIndex = true;
        } else if (customIndexed(table, c) && (rel.op() == Operator.EQ || rel.op() == Operator.CONTAINS
            || rel.op() == Operator.CONTAINS_KEY)) {
          r.usesIndex = true; // a custom index: answered by a filtered scan
        } else {
          r.needsFiltering = true;
        }
      }
    }
    if (!r.partitionComplete && !r.hasToken && r.clusteringRestricted && forSelect) {
      r.needsFiltering = true;
    }
    return r;
  }

  /** An index lookup that can answer the query: the index and the value to look up. */
  record IndexQuery(IndexMetadata index, Value value) {}

  IndexQuery indexQuery;
  /** Restrictions a storage-attached index answers (all of them are filters as well). */
  final List<AttachedIndexes.Restriction> attached = new ArrayList<>();
  boolean partitionComplete;
  boolean sliceOnPartitionKey;
  String sliceColumnName = "";
  ColumnMetadata clusteringFilterReason;

  private static IndexMetadata indexFor(TableMetadata t, ColumnMetadata c, SecondaryIndexes.Kind... kinds) {
    for (IndexMetadata i : t.indexes.values()) {
      SecondaryIndexes.Target target = SecondaryIndexes.target(t, i);
      if (target != null && target.column().equals(c) && java.util.Arrays.asList(kinds).contains(target.kind())) {
        return i;
      }
    }
    return null;
  }

  /** A custom index (SAI, SASI...) on {@code c}: Cassette answers it with a filtered scan. */
  private static boolean customIndexed(TableMetadata t, ColumnMetadata c) {
    for (IndexMetadata i : t.indexes.values()) {
      // SAI targets are exact (its lookups go through indexFor); other custom classes are trusted
      if (i.options().containsKey("class_name") && !SecondaryIndexes.isSai(i) && indexed(t, c)) {
        return true;
      }
    }
    return false;
  }

  private static boolean indexed(TableMetadata t, ColumnMetadata c) {
    for (IndexMetadata i : t.indexes.values()) {
      String target = i.options().getOrDefault("target", "");
      if (target.equals(c.name()) || target.equals("\"" + c.name() + "\"") || target.contains("(" + c.name() + ")")) {
        return true;
      }
    }
    return false;
  }

  static Receiver receiver(TableMetadata t, ColumnMetadata c) {
    return new Receiver(t.keyspace, t.name, c.name(), c.type());
  }

  private KeyValues keyValues(ColumnMetadata c, Relation rel, TermCompiler terms) {
    KeyValues kv = new KeyValues(c.type());
    Receiver rc = receiver(table, c);
    if (rel.op() == Operator.EQ) {
      kv.values.add(terms.compile(rel.value(), rc));
    } else if (rel.inValues() != null) {
      for (Term t : rel.inValues()) {
        kv.values.add(terms.compile(t, rc));
      }
    } else {
      kv.inList = terms.compile(rel.value(), rc.named("in(" + c.name() + ")", new ListType(c.type(), false)));
    }
    return kv;
  }

  private void token(Relation rel, TermCompiler terms) {
    List<String> expected = new ArrayList<>();
    for (ColumnMetadata c : table.partitionKey) {
      expected.add(c.name());
    }
    if (!rel.columns().equals(expected)) {
      for (String col : rel.columns()) {
        if (table.column(col) == null) {
          throw invalid("Undefined column name " + col + " in table " + table);
        }
      }
      throw invalid("The token() function must be applied to all partition key components or none of them");
    }
    Receiver rc = new Receiver(table.keyspace, table.name, "partition key token", io.cassette.cql.language.types.Types.BIGINT);
    Value v;
    if (rel.value() instanceof Term.FunctionCall f && f.name().equals("token")) {
      if (f.args().size() != table.partitionKey.size()) {
        throw invalid("Invalid number of arguments in call to function system.token: "
            + table.partitionKey.size() + " required but " + f.args().size() + " provided");
      }
      List<Value> args = new ArrayList<>();
      for (int i = 0; i < f.args().size(); i++) {
        args.add(terms.compile(f.args().get(i), receiver(table, table.partitionKey.get(i))));
      }
      v = ctx -> {
        List<byte[]> parts = new ArrayList<>();
        for (Value a : args) {
          byte[] b = a.get(ctx);
          if (b == null || b == QueryContext.UNSET) {
            return null;
          }
          parts.add(b);
        }
        return Values.ofLong(io.cassette.storage.Murmur3Token.of(KeyCodec.partitionKey(table, parts)));
      };
    } else {
      v = terms.compile(rel.value(), rc);
    }
    hasToken = true;
    switch (rel.op()) {
      case GT, GTE -> {
        tokenStart = v;
        tokenStartInclusive = rel.op() == Operator.GTE;
      }
      case LT, LTE -> {
        tokenEnd = v;
        tokenEndInclusive = rel.op() == Operator.LTE;
      }
      case EQ -> {
        tokenStart = v;
        tokenStartInclusive = true;
        tokenEnd = v;
        tokenEndInclusive = true;
      }
      default -> throw invalid(rel.op().text + " cannot be used with the token function");
    }
  }

  private void multi(Relation rel, TermCompiler terms) {
    List<ColumnMetadata> cols = new ArrayList<>();
    for (int i = 0; i < rel.columns().size(); i++) {
      ColumnMetadata c = table.column(rel.columns().get(i));
      if (c == null) {
        throw invalid("Undefined column name " + rel.columns().get(i) + " in table " + table);
      }
      if (c.kind() != ColumnMetadata.Kind.CLUSTERING) {
        throw invalid("Multi-column relations can only be applied to clustering columns but was applied to: " + c.name());
      }
      if (c.position() != i) {
        throw invalid("Clustering columns must appear in the PRIMARY KEY order in multi-column relations: ("
            + String.join(", ", rel.columns()) + ")");
      }
      cols.add(c);
    }
    clusteringRestricted = true;
    List<CqlType> types = new ArrayList<>();
    for (ColumnMetadata c : cols) {
      types.add(c.type());
    }
    TupleType tt = new TupleType(types);
    String name = "(" + String.join(",", rel.columns()) + ")";
    Receiver rc = new Receiver(table.keyspace, table.name, name, tt);
    switch (rel.op()) {
      case EQ -> {
        multiColumns = cols.size();
        multiInValues = List.of(terms.compile(rel.value(), rc));
      }
      case IN -> {
        multiColumns = cols.size();
        if (rel.inValues() != null) {
          multiInValues = new ArrayList<>();
          for (Term t : rel.inValues()) {
            multiInValues.add(terms.compile(t, rc));
          }
        } else {
          multiIn = terms.compile(rel.value(), rc.named("in" + name, new ListType(tt, false)));
        }
      }
      case GT, GTE, LT, LTE -> {
        sliceColumns = Math.max(sliceColumns, cols.size());
        sliceTuple = tt;
        Bound b = new Bound(terms.compile(rel.value(), rc), rel.op() == Operator.GTE || rel.op() == Operator.LTE);
        if (rel.op() == Operator.GT || rel.op() == Operator.GTE) {
          sliceStart = b;
        } else {
          sliceEnd = b;
        }
      }
      default -> throw invalid("Unsupported operator " + rel.op().text + " in multi-column relation");
    }
  }

  TupleType sliceTuple;

  private void filter(ColumnMetadata c, Relation rel, TermCompiler terms) {
    filteredColumns.add(c.name());
    Receiver rc = receiver(table, c);
    CqlType type = c.type();
    switch (rel.op()) {
      case IS_NOT_NULL -> throw invalid("Unsupported restriction: " + c.name() + " IS NOT NULL");
      case LIKE -> throw invalid("LIKE restriction is only supported on properly indexed columns. "
          + c.name() + " LIKE " + rel.value() + " is not valid.");
      case CONTAINS, CONTAINS_KEY -> {
        if (!Types.isCollection(type)) {
          throw invalid("Cannot use " + rel.op().text + " on non-collection column " + c.name());
        }
        boolean key = rel.op() == Operator.CONTAINS_KEY;
        if (key && !(type instanceof MapType)) {
          throw invalid("Cannot use CONTAINS KEY on non-map column " + c.name());
        }
        CqlType elem = type instanceof ListType l ? l.element() : type instanceof SetType s ? s.element()
            : key ? ((MapType) type).key() : ((MapType) type).value();
        Value v = terms.compile(rel.value(), rc.named(key ? "key(" + c.name() + ")" : "value(" + c.name() + ")", elem));
        boolean isMap = type instanceof MapType;
        filters.add((row, ctx) -> {
          byte[] coll = row.value(c);
          byte[] x = v.get(ctx);
          if (coll == null || x == null) {
            return false;
          }
          List<byte[]> es = CollectionCodec.unpack(coll, isMap);
          for (int i = 0; i < es.size(); i++) {
            if (isMap && (i % 2 == 0) != key) {
              continue;
            }
            if (ValueComparison.compare(elem, es.get(i), x) == 0) {
              return true;
            }
          }
          return false;
        });
      }
      case IN -> {
        KeyValues kv = keyValues(c, rel, terms);
        filters.add((row, ctx) -> {
          byte[] v = row.value(c);
          if (v == null) {
            return false;
          }
          for (byte[] x : kv.get(ctx, c.name(), false)) {
            if (ValueComparison.compare(type, v, x) == 0) {
              return true;
            }
          }
          return false;
        });
      }
      default -> {
        if (rel.kind() == Relation.Kind.MAP_ELEMENT) {
          if (!(type instanceof MapType mt)) {
            throw invalid("Column " + c.name() + " cannot be used as a map");
          }
          Value k = terms.compile(rel.mapKey(), rc.named("key(" + c.name() + ")", mt.key()));
          Value v = terms.compile(rel.value(), rc.named("value(" + c.name() + ")", mt.value()));
          Operator op = rel.op();
          filters.add((row, ctx) -> {
            byte[] m = row.value(c);
            byte[] kk = k.get(ctx);
            byte[] vv = v.get(ctx);
            if (m == null || kk == null || vv == null) {
              return false;
            }
            List<byte[]> es = CollectionCodec.unpack(m, true);
            for (int i = 0; i < es.size(); i += 2) {
              if (ValueComparison.compare(mt.key(), es.get(i), kk) == 0) {
                return matches(op, ValueComparison.compare(mt.value(), es.get(i + 1), vv));
              }
            }
            return false;
          });
          return;
        }
        if (Types.isMultiCell(type)) {
          throw invalid("Collection column '" + c.name() + "' (" + Types.toCql(type)
              + ") cannot be restricted by a '" + rel.op().text + "' relation");
        }
        Value v = terms.compile(rel.value(), rc);
        Operator op = rel.op();
        filters.add((row, ctx) -> {
          byte[] x = v.get(ctx);
          if (x == QueryContext.UNSET) {
            throw invalid("Invalid unset value for column " + c.name());
          }
          byte[] val = row.value(c);
          if (val == null || x == null) {
            return op == Operator.NEQ && (val == null) != (x == null);
          }
          return matches(op, ValueComparison.compare(type, val, x));
        });
      }
    }
  }

  static boolean matches(Operator op, int cmp) {
    return switch (op) {
      case EQ -> cmp == 0;
      case NEQ -> cmp != 0;
      case LT -> cmp < 0;
      case LTE -> cmp <= 0;
      case GT -> cmp > 0;
      case GTE -> cmp >= 0;
      default -> false;
    };
  }

  // ------------------------------------------------------------------ execution helpers

  /** The partition keys selected by EQ/IN (encoded), or null when not all restricted. */
  List<byte[]> partitionKeys(QueryContext ctx) {
    if (!partitionComplete) {
      return null;
    }
    if (table.partitionKey.size() == 1) {
      ColumnMetadata only = table.partitionKey.get(0);
      List<byte[]> vs = partition[0].get(ctx, only.name(), true);
      // indexed, and vs itself returned (a fresh list per call): every point read comes here
      for (int i = 0, n = vs.size(); i < n; i++) {
        byte[] v = vs.get(i);
        if (v.length == 0) {
          throw invalid("Key may not be empty");
        }
        if (v.length > 0xFFFF) {
          throw invalid("Key length of " + v.length + " is longer than maximum of 65535");
        }
      }
      return vs;
    }
    List<List<byte[]>> combos = new ArrayList<>();
    combos.add(new ArrayList<>());
    for (ColumnMetadata c : table.partitionKey) {
      List<byte[]> vs = partition[c.position()].get(ctx, c.name(), true);
      List<List<byte[]>> next = new ArrayList<>();
      for (List<byte[]> prefix : combos) {
        for (byte[] v : vs) {
          List<byte[]> n = new ArrayList<>(prefix);
          n.add(v);
          next.add(n);
        }
      }
      combos = next;
    }
    List<byte[]> keys = new ArrayList<>();
    for (List<byte[]> combo : combos) {
      for (int i = 0; i < combo.size(); i++) {
        if (combo.get(i).length == 0 && table.partitionKey.size() == 1) {
          throw invalid("Key may not be empty");
        }
      }
      byte[] k = KeyCodec.partitionKey(table, combo);
      if (k.length > 0xFFFF) {
        throw invalid("Key length of " + k.length + " is longer than maximum of 65535");
      }
      keys.add(k);
    }
    return keys;
  }

  /** Complete clustering prefixes from EQ/IN restrictions (each a list of column values). */
  List<List<byte[]>> clusteringPrefixes(QueryContext ctx) {
    List<List<byte[]>> combos = new ArrayList<>();
    combos.add(new ArrayList<>());
    if (multiColumns > 0 && (multiIn != null || multiInValues != null)) {
      combos.clear();
      List<byte[]> tuples = new ArrayList<>();
      if (multiIn != null) {
        byte[] l = multiIn.get(ctx);
        if (l == null) {
          throw invalid("Invalid null value for IN restriction");
        }
        tuples.addAll(CollectionCodec.unpack(l, false));
      } else {
        for (Value v : multiInValues) {
          byte[] t = v.get(ctx);
          if (t == null) {
            throw invalid("Invalid null value in condition for columns");
          }
          tuples.add(t);
        }
      }
      for (byte[] t : tuples) {
        List<byte[]> fs = CollectionCodec.unpackFields(t, multiColumns);
        for (byte[] f : fs) {
          if (f == null) {
            throw invalid("Invalid null value in condition for column " + table.clustering.get(fs.indexOf(f)).name());
          }
        }
        combos.add(new ArrayList<>(fs));
      }
    }
    for (KeyValues kv : clusteringPrefix) {
      int pos = combos.isEmpty() ? 0 : combos.get(0).size();
      List<byte[]> vs = kv.get(ctx, table.clustering.get(pos).name(), false);
      List<List<byte[]>> next = new ArrayList<>();
      for (List<byte[]> prefix : combos) {
        for (byte[] v : vs) {
          List<byte[]> n = new ArrayList<>(prefix);
          n.add(v);
          next.add(n);
        }
      }
      combos = next;
    }
    return combos;
  }

  /** Clustering slices in storage order (sorted, non-overlapping). */
  List<Slice> slices(QueryContext ctx) {
    List<List<byte[]>> prefixes = clusteringPrefixes(ctx);
    TreeMap<byte[], Slice> out = new TreeMap<>(Bytes::compare);
    for (List<byte[]> p : prefixes) {
      byte[] prefix = KeyCodec.clustering(table, p);
      if (sliceColumns == 0) {
        out.put(prefix, Slice.prefix(prefix));
        continue;
      }
      byte[] lo = null;
      boolean loIncl = true;
      byte[] hi = null;
      boolean hiIncl = true;
      boolean desc;
      if (sliceColumns == 1 && sliceTuple == null) {
        ColumnMetadata c = table.clustering.get(p.size());
        desc = c.descending();
        if (sliceStart != null) {
          byte[] v = boundValue(sliceStart, ctx, c.name());
          lo = concat(prefix, KeyCodec.clustering(table, withValue(p, v)), prefix.length);
          loIncl = sliceStart.inclusive();
        }
        if (sliceEnd != null) {
          byte[] v = boundValue(sliceEnd, ctx, c.name());
          hi = concat(prefix, KeyCodec.clustering(table, withValue(p, v)), prefix.length);
          hiIncl = sliceEnd.inclusive();
        }
      } else {
        desc = table.clustering.get(0).descending();
        if (sliceStart != null) {
          lo = KeyCodec.clustering(table, tupleValues(sliceStart, ctx));
          loIncl = sliceStart.inclusive();
        }
        if (sliceEnd != null) {
          hi = KeyCodec.clustering(table, tupleValues(sliceEnd, ctx));
          hiIncl = sliceEnd.inclusive();
        }
      }
      if (desc) {
        byte[] t = lo;
        lo = hi;
        hi = t;
        boolean ti = loIncl;
        loIncl = hiIncl;
        hiIncl = ti;
      }
      byte[] start = lo == null ? prefix : lo;
      boolean startIncl = lo == null || loIncl;
      byte[] end = hi == null ? prefix : hi;
      boolean endIncl = hi == null || hiIncl;
      if (lo != null && hi != null && (Bytes.compare(lo, hi) > 0
          || (Bytes.compare(lo, hi) == 0 && !(loIncl && hiIncl)))) {
        continue; // empty slice
      }
      out.put(start, new Slice(start, startIncl, end, endIncl));
    }
    return new ArrayList<>(out.values());
  }

  private List<byte[]> tupleValues(Bound b, QueryContext ctx) {
    byte[] t = b.value().get(ctx);
    if (t == null || t == QueryContext.UNSET) {
      throw invalid("Invalid null value in condition for column " + table.clustering.get(0).name());
    }
    List<byte[]> fs = CollectionCodec.unpackFields(t, sliceTuple.elements().size());
    List<byte[]> out = new ArrayList<>();
    for (byte[] f : fs) {
      if (f == null) {
        break;
      }
      out.add(f);
    }
    return out;
  }

  private static byte[] boundValue(Bound b, QueryContext ctx, String column) {
    byte[] v = b.value().get(ctx);
    if (v == null) {
      throw invalid("Invalid null value in condition for column " + column);
    }
    if (v == QueryContext.UNSET) {
      throw invalid("Invalid unset value for column " + column);
    }
    return v;
  }

  private static List<byte[]> withValue(List<byte[]> p, byte[] v) {
    List<byte[]> n = new ArrayList<>(p);
    n.add(v);
    return n;
  }

  private static byte[] concat(byte[] prefix, byte[] full, int prefixLength) {
    return full;
  }

  boolean hasClusteringSliceOrPrefix() {
    return !clusteringPrefix.isEmpty() || sliceColumns > 0 || multiColumns > 0;
  }

  /** Whether every clustering column is restricted by EQ/IN (a set of whole rows). */
  boolean clusteringComplete() {
    int n = (multiColumns > 0 && sliceColumns == 0 ? multiColumns : 0) + clusteringPrefix.size();
    return n == table.clustering.size() && sliceColumns == 0;
  }
}
