package io.cassette.cql.language.parser;

/**
 * One assignment of UPDATE ... SET: {@code c = v}, {@code c = c + v} / {@code c += v},
 * {@code c = c - v}, {@code c = v + c} (prepend), {@code c[k] = v}, {@code c.f = v}.
 */
public record Operation(Kind kind, String column, Term key, String field, Term value) {
  public enum Kind { SET, ADD, SUBTRACT, PREPEND, SET_ELEMENT, SET_FIELD }
}
