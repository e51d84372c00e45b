package io.cassette.cql.language.parser;

import java.util.List;

/** One expression of a SELECT clause. */
public sealed interface Selector {
  record Column(String name) implements Selector {}

  record CountStar() implements Selector {}

  /** WRITETIME(c), MAXWRITETIME(c) or TTL(c). */
  record Metadata(String function, String column) implements Selector {}

  record Function(String keyspace, String name, List<Selector> args) implements Selector {}

  record Cast(Selector arg, RawType type) implements Selector {}

  record FieldAccess(Selector arg, String field) implements Selector {}

  record Value(Term term) implements Selector {}

  /** {@code left op right} with op one of + - * / % (Cassandra 4.0+ selector arithmetic). */
  record Operation(char op, Selector left, Selector right) implements Selector {}

  /** A selector with its optional alias (AS name). */
  record Aliased(Selector selector, String alias) {}
}
