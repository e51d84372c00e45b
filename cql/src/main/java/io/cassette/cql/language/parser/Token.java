package io.cassette.cql.language.parser;

/**
 * One lexical token of a CQL string. {@code text} is exactly what the query contained;
 * {@code value} is the processed form (unquoted identifier lower-cased, string unescaped).
 * {@code line} counts from 1 and {@code column} from 0, as Cassandra's messages print them.
 */
public record Token(Kind kind, String text, String value, int line, int column, int start,
                    int end, int rawIndex) {

  public enum Kind {
    IDENT, QUOTED_IDENT, STRING, INTEGER, FLOAT, UUID, HEX, DURATION, SYMBOL, QMARK, NAMED_MARKER,
    WHITESPACE, EOF
  }

  public boolean is(String keywordOrSymbol) {
    return (kind == Kind.IDENT || kind == Kind.SYMBOL) && value.equalsIgnoreCase(keywordOrSymbol);
  }
}
