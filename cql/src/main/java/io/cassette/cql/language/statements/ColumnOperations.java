package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.CqlType.ListType;
import io.cassette.cql.CqlType.MapType;
import io.cassette.cql.CqlType.SetType;
import io.cassette.cql.CqlType.UdtType;
import io.cassette.cql.language.parser.Operation;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.Types;
import io.cassette.storage.Cell;

/**
 * Compiles the column changes of INSERT, UPDATE ... SET and DELETE into
 * {@link ColumnOperation}s, checking each against the column's type with Cassandra's error
 * texts. Whole-column writes and UDT fields live here; collection elements in
 * {@link CollectionOperations}, counters in {@link CounterOperations}.
 */
final class ColumnOperations {
  private ColumnOperations() {}

  /** {@code c = ?}: the whole value; a non-frozen collection replaces all its elements. */
  static ColumnOperation set(ColumnMetadata c, Value v) {
    boolean multi = Types.isMultiCell(c.type());
    if (Types.isCounter(c.type())) {
      throw invalid("Cannot set the value of counter column " + c.name()
          + " (counters can only be incremented/decremented, not set)");
    }
    return ColumnOperation.of(c, multi, w -> {
      byte[] value = v.get(w.ctx);
      if (value == QueryContext.UNSET) {
        return;
      }
      if (!multi) {
        if (value == null) {
          w.tombstone(c, null, w.ts);
        } else {
          w.live(c, null, value);
        }
        return;
      }
      w.clearElements(c, w.ts - 1);
      if (value != null) {
        for (Cell e : CellCodec.explode(c.name(), c.type(), value, w.ts, w.ttl, w.now,
            w.ctx.services.statementLimits().get().maxCollectionItems())) {
          w.target(c).add(e);
        }
      }
    });
  }

  /** One assignment of an UPDATE's SET clause. */
  static ColumnOperation update(TableMetadata table, Operation o, ColumnMetadata c, TermCompiler terms) {
    CqlType type = c.type();
    Receiver rc = Restrictions.receiver(table, c);
    String text = c.name();
    switch (o.kind()) {
      case SET:
        return set(c, terms.compile(o.value(), rc));
      case ADD:
      case SUBTRACT: {
        boolean add = o.kind() == Operation.Kind.ADD;
        if (Types.isCounter(type)) {
          Value v = terms.compile(o.value(), rc.named(c.name(), Types.BIGINT));
          return CounterOperations.increment(c, v, add);
        }
        if (!Types.isMultiCell(type)) {
          if (Types.isCollection(type)) {
            throw invalid("Invalid operation (" + text + " = " + text + (add ? " + " : " - ") + o.value()
                + ") for frozen collection column " + c.name());
          }
          throw invalid("Invalid operation (" + text + " = " + text + (add ? " + " : " - ") + o.value()
              + ") for non counter column " + c.name());
        }
        if (type instanceof MapType m && !add) {
          Value keys = terms.compile(o.value(), rc.named(c.name(), new SetType(m.key(), false)));
          return CollectionOperations.addOrRemove(c, keys, false, true);
        }
        Value v = terms.compile(o.value(), rc);
        return CollectionOperations.addOrRemove(c, v, add, false);
      }
      case PREPEND: {
        if (!(type instanceof ListType) || !Types.isMultiCell(type)) {
          throw invalid("Invalid operation (" + text + " = " + o.value() + " + " + text
              + ") for non list column " + c.name());
        }
        return CollectionOperations.prepend(c, terms.compile(o.value(), rc));
      }
      case SET_ELEMENT: {
        if (type instanceof ListType l && Types.isMultiCell(type)) {
          Value idx = terms.compile(o.key(), rc.named("idx(" + c.name() + ")", Types.INT));
          Value v = terms.compile(o.value(), rc.named("value(" + c.name() + ")", l.element()));
          return CollectionOperations.setListElement(c, idx, v);
        }
        if (type instanceof MapType m && Types.isMultiCell(type)) {
          Value k = terms.compile(o.key(), rc.named("key(" + c.name() + ")", m.key()));
          Value v = terms.compile(o.value(), rc.named("value(" + c.name() + ")", m.value()));
          return CollectionOperations.setMapEntry(c, m, k, v);
        }
        throw invalid("Invalid operation (" + text + "[" + o.key() + "] = " + o.value() + ") for "
            + (Types.isCollection(type) && !Types.isMultiCell(type) ? "frozen collection" : "non list/map")
            + " column " + c.name());
      }
      case SET_FIELD: {
        if (!(type instanceof UdtType u)) {
          throw invalid("Invalid operation (" + text + "." + o.field() + " = " + o.value()
              + ") for non-UDT column " + c.name());
        }
        if (u.frozen()) {
          throw invalid("Invalid operation (" + text + "." + o.field() + " = " + o.value()
              + ") for frozen UDT column " + c.name());
        }
        int i = u.fieldNames().indexOf(o.field());
        if (i < 0) {
          throw invalid("UDT column " + c.name() + " does not have a field named " + o.field());
        }
        Value v = terms.compile(o.value(), rc.named(c.name() + "." + o.field(), u.fieldTypes().get(i)));
        return ColumnOperation.of(c, false, w -> {
          byte[] value = v.get(w.ctx);
          if (value == QueryContext.UNSET) {
            return;
          }
          if (value == null) {
            w.tombstone(c, CellCodec.fieldPath(i), w.ts);
          } else {
            w.live(c, CellCodec.fieldPath(i), value);
          }
        });
      }
      default:
        throw invalid("Unsupported operation");
    }
  }

  /** One target of a DELETE: a whole column, a collection element or a UDT field. */
  static ColumnOperation deletion(TableMetadata table, Statement.DeleteTarget t, ColumnMetadata c,
                                  TermCompiler terms) {
    CqlType type = c.type();
    Receiver rc = Restrictions.receiver(table, c);
    if (t.key() != null) {
      if (type instanceof ListType && Types.isMultiCell(type)) {
        Value idx = terms.compile(t.key(), rc.named("idx(" + c.name() + ")", Types.INT));
        return CollectionOperations.deleteListElement(c, idx);
      }
      if ((type instanceof MapType || type instanceof SetType) && Types.isMultiCell(type)) {
        CqlType kt = type instanceof MapType m ? m.key() : ((SetType) type).element();
        Value k = terms.compile(t.key(), rc.named("key(" + c.name() + ")", kt));
        return CollectionOperations.deleteKey(c, kt, k);
      }
      throw invalid("Invalid deletion operation for non-collection column " + c.name());
    }
    if (t.field() != null) {
      if (!(type instanceof UdtType u) || u.frozen()) {
        throw invalid("Invalid deletion operation for frozen UDT column " + c.name());
      }
      int i = u.fieldNames().indexOf(t.field());
      if (i < 0) {
        throw invalid("UDT column " + c.name() + " does not have a field named " + t.field());
      }
      return ColumnOperation.of(c, false, w -> w.tombstone(c, CellCodec.fieldPath(i), w.ts));
    }
    boolean multi = Types.isMultiCell(type);
    return ColumnOperation.of(c, multi, w -> {
      if (multi) {
        w.clearElements(c, w.ts);
      } else {
        w.tombstone(c, null, w.ts);
      }
    });
  }
}
