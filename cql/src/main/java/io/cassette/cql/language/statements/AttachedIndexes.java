package io.cassette.cql.language.statements;

import io.cassette.coordinator.Coordinator;
import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.language.parser.Relation.Operator;
import io.cassette.cql.language.schema.IndexMetadata;
import io.cassette.cql.language.schema.KeyspaceMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.ComparableEncoding;
import io.cassette.cql.language.types.Types;
import io.cassette.storage.Cell;
import io.cassette.storage.Table;
import io.cassette.storage.index.IndexDefinition;
import io.cassette.storage.index.IndexExpression;
import io.cassette.storage.index.TableIndexes;
import io.cassette.storage.index.TermExtractor;
import io.cassette.storage.index.VectorSimilarity;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Storage-attached indexes as storage keeps them ({@link TableIndexes}): the CQL side of the
 * binding. It turns each SAI index of a table into a storage {@link IndexDefinition} (which
 * cells it reads and how their values become byte-ordered terms), gives storage the table's
 * indexes whenever the schema changes, and turns a query's restrictions into
 * {@link IndexExpression}s. On one node the front door reads the local indexes itself; on a
 * ring every node keeps the indexes of its own share and the query goes to each range's
 * replicas ({@link #onReplicas}), as Cassandra 5.0 sends a range read with the index expression.
 */
public final class AttachedIndexes {
  private AttachedIndexes() {}

  /** One restriction an SAI index answers: the index, the relation and the value's type. */
  record Restriction(IndexMetadata index, Operator op, Value value, CqlType valueType) {}

  /** Gives storage the SAI indexes of every table in {@code keyspaces} (idempotent). */
  public static void sync(Coordinator coordinator, Iterable<KeyspaceMetadata> keyspaces) {
    for (KeyspaceMetadata k : keyspaces) {
      if (k.virtual()) {
        continue;
      }
      for (TableMetadata t : k.tables().values()) {
        List<IndexDefinition> defs = definitions(t);
        Table table = coordinator.storedTable(t.keyspace, t.name).orElse(null);
        TableIndexes ti = table == null ? null : table.indexes();
        if (ti != null && (!defs.isEmpty() || !ti.definitions().isEmpty())) {
          ti.define(defs);
        }
      }
    }
  }

  static List<IndexDefinition> definitions(TableMetadata t) {
    List<IndexDefinition> out = new ArrayList<>();
    for (IndexMetadata i : t.indexes.values()) {
      if (!SecondaryIndexes.isSai(i)) {
        continue;
      }
      SecondaryIndexes.Target target = SecondaryIndexes.parseTarget(t, i);
      if (target == null) {
        continue;
      }
      CqlType type = target.column().type();
      if (type instanceof CqlType.VectorType v) {
        VectorSimilarity sim = VectorSimilarity.valueOf(
            i.options().getOrDefault("similarity_function", "COSINE").toUpperCase(Locale.ROOT));
        out.add(IndexDefinition.vector(i.name(), target.column().name(), (cell, sink) -> sink.accept(cell.value()),
            v.dimension(), sim));
      } else {
        out.add(IndexDefinition.terms(i.name(), target.column().name(), extractor(target)));
      }
    }
    return out;
  }

  /** Terms of one cell: the value (or the element, key or value of a collection) in byte order. */
  private static TermExtractor extractor(SecondaryIndexes.Target target) {
    CqlType element = elementType(target);
    return (Cell cell, java.util.function.Consumer<byte[]> sink) -> {
      byte[] v = SecondaryIndexes.indexedValue(target, cell);
      if (v != null && v.length > 0) {
        sink.accept(ComparableEncoding.encode(element, v, false));
      }
    };
  }

  /** The type of the values an index of {@code target} holds. */
  static CqlType elementType(SecondaryIndexes.Target target) {
    CqlType type = target.column().type();
    if (!Types.isMultiCell(type)) {
      return type;
    }
    if (type instanceof SetType s) {
      return s.element();
    }
    if (type instanceof ListType l) {
      return l.element();
    }
    MapType m = (MapType) type;
    return target.kind() == SecondaryIndexes.Kind.KEYS ? m.key() : m.value();
  }

  /** The SAI index that answers {@code op} on column {@code c}, or null. */
  static IndexMetadata indexFor(TableMetadata t, io.cassette.cql.language.schema.ColumnMetadata c, Operator op) {
    for (IndexMetadata i : t.indexes.values()) {
      if (!SecondaryIndexes.isSai(i)) {
        continue;
      }
      SecondaryIndexes.Target target = SecondaryIndexes.parseTarget(t, i);
      if (target == null || !target.column().equals(c) || c.type() instanceof CqlType.VectorType) {
        continue;
      }
      boolean collection = Types.isMultiCell(c.type());
      boolean ok = switch (op) {
        case EQ -> !collection;
        case LT, LTE, GT, GTE -> !collection && !Types.isNative(c.type(), CqlType.Native.TEXT)
            && !Types.isNative(c.type(), CqlType.Native.ASCII) && !Types.isCollection(c.type());
        case CONTAINS -> target.kind() == SecondaryIndexes.Kind.VALUES;
        case CONTAINS_KEY -> target.kind() == SecondaryIndexes.Kind.KEYS;
        default -> false;
      };
      if (ok) {
        return i;
      }
    }
    return null;
  }

  /** The local indexes of {@code t} holding every index {@code restrictions} name, or null. */
  static TableIndexes local(Coordinator coordinator, TableMetadata t, List<Restriction> restrictions, String vectorIndex) {
    Table table = coordinator.localTable(t.keyspace, t.name).orElse(null);
    TableIndexes ti = table == null ? null : table.indexes();
    if (ti == null) {
      return null;
    }
    List<String> names = new ArrayList<>();
    for (IndexDefinition d : ti.definitions()) {
      names.add(d.name());
    }
    for (Restriction r : restrictions) {
      if (!names.contains(r.index().name())) {
        return null;
      }
    }
    return vectorIndex == null || names.contains(vectorIndex) ? ti : null;
  }

  /** Whether the coordinator sends index queries to each range's replicas (a ring). */
  static boolean onReplicas(Coordinator coordinator) {
    return coordinator.indexScansOnReplicas();
  }

  /**
   * The expressions of {@code restrictions} with the query's values; null when one can match
   * nothing (a null or empty value), so the answer is empty.
   */
  static List<IndexExpression> expressions(List<Restriction> restrictions, QueryContext ctx) {
    List<IndexExpression> out = new ArrayList<>();
    for (Restriction r : restrictions) {
      byte[] v = r.value().get(ctx);
      if (v == null || v == QueryContext.UNSET) {
        return null;
      }
      if (v.length == 0 && r.op() != Operator.EQ) {
        return null;
      }
      if (v.length == 0) {
        return null; // empty values are not indexed (as Cassandra's SAI)
      }
      byte[] term = ComparableEncoding.encode(r.valueType(), v, false);
      String name = r.index().name();
      IndexExpression e = switch (r.op()) {
        case LT -> new IndexExpression(name, null, false, term, false);
        case LTE -> new IndexExpression(name, null, false, term, true);
        case GT -> new IndexExpression(name, term, false, null, false);
        case GTE -> new IndexExpression(name, term, true, null, false);
        default -> IndexExpression.eq(name, term);
      };
      // bounds on one column's value are one range (n >= a AND n < b reads only [a, b));
      // CONTAINS restrictions stay apart: a collection may hold both terms
      int same = -1;
      for (int i = 0; i < out.size() && r.op() != Operator.CONTAINS && r.op() != Operator.CONTAINS_KEY; i++) {
        if (out.get(i).index().equals(name)) {
          same = i;
        }
      }
      if (same >= 0) {
        out.set(same, narrow(out.get(same), e));
      } else {
        out.add(e);
      }
    }
    return out;
  }

  /** The range both {@code a} and {@code b} admit. */
  private static IndexExpression narrow(IndexExpression a, IndexExpression b) {
    byte[] lower = a.lower();
    boolean lowerInclusive = a.lowerInclusive();
    if (b.lower() != null) {
      int c = lower == null ? -1 : io.cassette.storage.Bytes.compare(lower, b.lower());
      if (c < 0) {
        lower = b.lower();
        lowerInclusive = b.lowerInclusive();
      } else if (c == 0) {
        lowerInclusive &= b.lowerInclusive();
      }
    }
    byte[] upper = a.upper();
    boolean upperInclusive = a.upperInclusive();
    if (b.upper() != null) {
      int c = upper == null ? 1 : io.cassette.storage.Bytes.compare(upper, b.upper());
      if (c > 0) {
        upper = b.upper();
        upperInclusive = b.upperInclusive();
      } else if (c == 0) {
        upperInclusive &= b.upperInclusive();
      }
    }
    return new IndexExpression(a.index(), lower, lowerInclusive, upper, upperInclusive);
  }
}
