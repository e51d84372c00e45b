package io.cassette.cql.language.views;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.parser.Relation.Operator;
import io.cassette.cql.language.types.ValueComparison;
import java.util.List;

/**
 * One restriction of a view's WHERE clause beyond IS NOT NULL: Cassandra allows them only on the
 * base table's primary-key columns, so it is checked on the base row's key alone. {@code values}
 * holds one value, or the IN list.
 */
record ViewFilter(int keyIndex, CqlType type, Operator op, List<byte[]> values) {

  /** Whether the base row whose primary-key values are {@code key} (partition then clustering) passes. */
  boolean accepts(List<byte[]> key) {
    byte[] v = key.get(keyIndex);
    if (v == null) {
      return false;
    }
    if (op == Operator.IN) {
      for (byte[] candidate : values) {
        if (candidate != null && ValueComparison.compare(type, v, candidate) == 0) {
          return true;
        }
      }
      return false;
    }
    byte[] bound = values.get(0);
    if (bound == null) {
      return false;
    }
    int c = ValueComparison.compare(type, v, bound);
    return switch (op) {
      case EQ -> c == 0;
      case LT -> c < 0;
      case LTE -> c <= 0;
      case GT -> c > 0;
      case GTE -> c >= 0;
      case NEQ -> c != 0;
      default -> false;
    };
  }
}
