package io.cassette.cql.language.statements;

/** A compiled term: its serialized value in one execution (null, or {@link QueryContext#UNSET}). */
@FunctionalInterface
public interface Value {
  byte[] get(QueryContext ctx);

  /** A value known at compile time. */
  static Value constant(byte[] v) {
    return ctx -> v;
  }
}
