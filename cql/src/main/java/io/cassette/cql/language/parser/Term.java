package io.cassette.cql.language.parser;

import io.cassette.cql.language.types.Values.Constant;
import java.util.List;

/** A value expression of a statement: constants, collection literals, bind markers, calls. */
public sealed interface Term {

  record Literal(Constant kind, String text) implements Term {
    @Override
    public String toString() {
      return kind == Constant.STRING ? "'" + text.replace("'", "''") + "'" : text;
    }
  }

  record Null() implements Term {
    @Override
    public String toString() {
      return "NULL";
    }
  }

  /** A bind marker: {@code index} counts markers in the statement from 0; name is null for ?. */
  record BindMarker(int index, String name) implements Term {
    @Override
    public String toString() {
      return name == null ? "?" : ":" + name;
    }
  }

  record ListLiteral(List<Term> elements) implements Term {
    @Override
    public String toString() {
      return "[" + join(elements) + "]";
    }
  }

  record SetLiteral(List<Term> elements) implements Term {
    @Override
    public String toString() {
      return "{" + join(elements) + "}";
    }
  }

  /** Comma-separated CQL text of terms. */
  static String join(List<?> terms) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < terms.size(); i++) {
      sb.append(i == 0 ? "" : ", ").append(terms.get(i));
    }
    return sb.toString();
  }

  /** {@code {k: v, ...}}; {@code {}} is an empty map that also fits a set. */
  record MapLiteral(List<Term> keys, List<Term> values) implements Term {
    @Override
    public String toString() {
      StringBuilder sb = new StringBuilder("{");
      for (int i = 0; i < keys.size(); i++) {
        sb.append(i == 0 ? "" : ", ").append(keys.get(i)).append(": ").append(values.get(i));
      }
      return sb.append('}').toString();
    }
  }

  record TupleLiteral(List<Term> elements) implements Term {
    @Override
    public String toString() {
      return "(" + join(elements) + ")";
    }
  }

  record UdtLiteral(List<String> fields, List<Term> values) implements Term {}

  record FunctionCall(String keyspace, String name, List<Term> args) implements Term {
    @Override
    public String toString() {
      return name + "(" + join(args) + ")";
    }
  }

  /** {@code (type) term}. */
  record TypeHint(RawType type, Term term) implements Term {}

  /** A column reference (only legal in a few places, e.g. {@code SET c = c + 1}). */
  record ColumnRef(String name) implements Term {}

  /** {@code a + b}, {@code a - b} etc. (Cassandra 5 arithmetic on constants and columns). */
  record Arithmetic(char op, Term left, Term right) implements Term {}

  record Negate(Term term) implements Term {}

  /** A term already compiled by the executor (INSERT JSON keys); {@code value} is its Value. */
  record Precompiled(Object value) implements Term {}
}
