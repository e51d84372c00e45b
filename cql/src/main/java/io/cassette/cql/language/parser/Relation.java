package io.cassette.cql.language.parser;

import java.util.List;

/**
 * One restriction of a WHERE clause: {@code column op value}, {@code (c1, c2) op tuple},
 * {@code token(a, b) op value}, {@code m[key] op value}; IN keeps its values in
 * {@code inValues} or one marker in {@code value}.
 */
public record Relation(Kind kind, List<String> columns, Term mapKey, Operator op, Term value,
                       List<Term> inValues) {
  public enum Kind { SINGLE, MULTI, TOKEN, MAP_ELEMENT }

  public enum Operator {
    EQ("="), LT("<"), LTE("<="), GT(">"), GTE(">="), NEQ("!="), IN("IN"), CONTAINS("CONTAINS"),
    CONTAINS_KEY("CONTAINS KEY"), LIKE("LIKE"), IS_NOT_NULL("IS NOT");

    public final String text;

    Operator(String text) {
      this.text = text;
    }

    public boolean isSlice() {
      return this == LT || this == LTE || this == GT || this == GTE;
    }
  }

  public String column() {
    return columns.get(0);
  }
}
