package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.language.parser.Condition;
import io.cassette.cql.language.parser.Relation.Operator;
import io.cassette.cql.language.parser.Term;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.CollectionCodec;
import io.cassette.cql.language.types.Types;
import io.cassette.cql.language.types.ValueComparison;
import io.cassette.cql.language.types.Values;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The IF part of a conditional UPDATE or DELETE (INSERT's IF NOT EXISTS and IF EXISTS are
 * flags): conditions compiled once, then checked against the current row inside the
 * coordinator's compare-and-set. Not thread-safe to compile; checking is read-only.
 */
final class Conditions implements Iterable<Conditions.Cond> {
  /** One compiled IF condition. */
  record Cond(ColumnMetadata column, java.util.function.BiFunction<RowView, QueryContext, byte[]> current, CqlType type,
                      Operator op, Value value, List<Value> inValues) {}

  private final TableMetadata table;
  private final List<Cond> list = new ArrayList<>();

  Conditions(TableMetadata table) {
    this.table = table;
  }

  boolean isEmpty() {
    return list.isEmpty();
  }

  @Override
  public java.util.Iterator<Cond> iterator() {
    return list.iterator();
  }

  private ColumnMetadata column(String name) {
    ColumnMetadata c = table.column(name);
    if (c == null) {
      throw invalid("Undefined column name " + name + " in table " + table);
    }
    return c;
  }

  /** Compiles the IF conditions of an UPDATE or DELETE (Cassandra's checks and messages). */
  void compile(List<Condition> conds, TermCompiler terms) {
    for (Condition cond : conds) {
      ColumnMetadata c = column(cond.column());
      if (c.isPrimaryKey()) {
        throw invalid("PRIMARY KEY column '" + c.name() + "' cannot have IF conditions");
      }
      if (Types.isCounter(c.type())) {
        throw invalid("Conditions on counters are not supported");
      }
      CqlType type = c.type();
      java.util.function.BiFunction<RowView, QueryContext, byte[]> current = (r, x) -> r.value(c);
      Receiver rc = Restrictions.receiver(table, c);
      if (cond.elementKey() != null) {
        if (type instanceof ListType l) {
          Value idx = terms.compile(cond.elementKey(), rc.named("idx(" + c.name() + ")", Types.INT));
          type = l.element();
          current = (r, x) -> {
            byte[] v = r.value(c);
            byte[] i = idx.get(x);
            if (v == null || i == null) {
              return null;
            }
            List<byte[]> es = CollectionCodec.unpack(v, false);
            int n = Values.toInt(i);
            return n >= 0 && n < es.size() ? es.get(n) : null;
          };
        } else if (type instanceof MapType m) {
          Value key = terms.compile(cond.elementKey(), rc.named("key(" + c.name() + ")", m.key()));
          type = m.value();
          current = (r, x) -> {
            byte[] v = r.value(c);
            byte[] k = key.get(x);
            if (v == null || k == null) {
              return null;
            }
            List<byte[]> kv = CollectionCodec.unpack(v, true);
            for (int i = 0; i < kv.size(); i += 2) {
              if (ValueComparison.compare(m.key(), kv.get(i), k) == 0) {
                return kv.get(i + 1);
              }
            }
            return null;
          };
        } else if (type instanceof SetType) {
          throw invalid("Invalid element access syntax for set column " + c.name());
        } else {
          throw invalid("Invalid element access syntax for non-collection column " + c.name());
        }
      } else if (cond.field() != null) {
        if (!(type instanceof UdtType u)) {
          throw invalid("Invalid field access for non-UDT column " + c.name());
        }
        int i = u.fieldNames().indexOf(cond.field());
        if (i < 0) {
          throw invalid("Unknown field " + cond.field() + " for column " + c.name());
        }
        type = u.fieldTypes().get(i);
        current = (r, x) -> {
          byte[] v = r.value(c);
          return v == null ? null : CollectionCodec.unpackFields(v, u.fieldTypes().size()).get(i);
        };
      }
      // Cassandra names the receiver of an element's value "value(c)" (Lists/Maps.valueSpecOf)
      // and of a field's "c.field" (UserTypes.fieldSpecOf): its error texts quote that name.
      Receiver r = rc.named(cond.elementKey() != null ? "value(" + c.name() + ")"
          : cond.field() != null ? c.name() + "." + cond.field() : c.name(), type);
      Value v = null;
      List<Value> in = null;
      if (cond.op() == Operator.CONTAINS || cond.op() == Operator.CONTAINS_KEY) {
        boolean key = cond.op() == Operator.CONTAINS_KEY;
        if (!Types.isCollection(type) || (key && !(type instanceof MapType))) {
          throw invalid("Cannot use " + cond.op().text + " on non-" + (key ? "map" : "collection") + " column " + c.name());
        }
        CqlType elem = type instanceof ListType l ? l.element() : type instanceof SetType s ? s.element()
            : key ? ((MapType) type).key() : ((MapType) type).value();
        v = terms.compile(cond.value(), r.named((key ? "key(" : "value(") + c.name() + ")", elem));
        list.add(new Cond(c, current, type, cond.op(), v, null));
        continue;
      }
      if (cond.op() == Operator.IN) {
        if (cond.inValues() != null) {
          in = new ArrayList<>();
          for (Term t : cond.inValues()) {
            in.add(terms.compile(t, r));
          }
        } else {
          v = terms.compile(cond.value(), r.named("in(" + c.name() + ")", new ListType(type, false)));
        }
      } else {
        v = terms.compile(cond.value(), r);
      }
      list.add(new Cond(c, current, type, cond.op(), v, in));
    }
  }

  /** Null when the conditions hold; else the [applied]=false row Cassandra returns. */
  List<ByteBuffer> check(QueryContext ctx, RowView current, boolean ifNotExists, boolean ifExists) {
    List<ByteBuffer> fail = new ArrayList<>();
    fail.add(ByteBuffer.wrap(Values.ofBoolean(false)));
    if (ifNotExists) {
      if (current == null) {
        return null;
      }
      for (ColumnMetadata c : table.columns) {
        byte[] v = current.value(c);
        fail.add(v == null ? null : ByteBuffer.wrap(v));
      }
      return fail;
    }
    if (ifExists) {
      return current == null ? fail : null;
    }
    boolean ok = true;
    for (Cond c : list) {
      byte[] cur = current == null ? null : c.current().apply(current, ctx);
      ok &= holds(c, cur, ctx);
    }
    if (ok) {
      return null;
    }
    if (current == null) {
      return fail; // Cassandra: no row, so [applied] alone
    }
    for (ColumnMetadata c : columns()) {
      byte[] v = current.value(c);
      fail.add(v == null ? null : ByteBuffer.wrap(v));
    }
    return fail;
  }

  /** The columns the conditions name, in the conditions' order, each once (the [applied]=false row's). */
  Set<ColumnMetadata> columns() {
    Set<ColumnMetadata> seen = new LinkedHashSet<>();
    for (Cond c : list) {
      seen.add(c.column());
    }
    return seen;
  }

  private static boolean holds(Cond c, byte[] cur, QueryContext ctx) {
    if (c.op() == Operator.IN) {
      List<byte[]> candidates = new ArrayList<>();
      if (c.inValues() != null) {
        for (Value v : c.inValues()) {
          candidates.add(v.get(ctx));
        }
      } else {
        byte[] l = c.value().get(ctx);
        if (l != null) {
          candidates.addAll(CollectionCodec.unpack(l, false));
        }
      }
      for (byte[] x : candidates) {
        if (x == null ? cur == null : cur != null && ValueComparison.compare(c.type(), cur, x) == 0) {
          return true;
        }
      }
      return false;
    }
    byte[] x = c.value().get(ctx);
    if (x == QueryContext.UNSET) {
      throw invalid("Invalid 'unset' value in condition");
    }
    if (c.op() == Operator.EQ) {
      return x == null ? cur == null : cur != null && ValueComparison.compare(c.type(), cur, x) == 0;
    }
    if (c.op() == Operator.NEQ) {
      return x == null ? cur != null : cur == null || ValueComparison.compare(c.type(), cur, x) != 0;
    }
    if (x == null) {
      throw invalid("Invalid comparison with null for operator \"" + c.op().text + "\"");
    }
    if (cur == null) {
      return false;
    }
    if (c.op() == Operator.CONTAINS || c.op() == Operator.CONTAINS_KEY) {
      boolean map = c.type() instanceof MapType;
      boolean key = c.op() == Operator.CONTAINS_KEY;
      CqlType elem = c.type() instanceof ListType l ? l.element() : c.type() instanceof SetType s ? s.element()
          : key ? ((MapType) c.type()).key() : ((MapType) c.type()).value();
      List<byte[]> es = CollectionCodec.unpack(cur, map);
      for (int i = 0; i < es.size(); i++) {
        if (map && (i % 2 == 0) != key) {
          continue;
        }
        if (ValueComparison.compare(elem, es.get(i), x) == 0) {
          return true;
        }
      }
      return false;
    }
    return Restrictions.matches(c.op(), ValueComparison.compare(c.type(), cur, x));
  }
}
