package io.cassette.cql.language.types;

import static io.cassette.cql.language.Errors.invalid;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The small JSON reader and writer INSERT JSON, fromJson() and SELECT JSON need. Numbers are
 * kept as their text ({@link Number}) so no precision is lost before the column type decides.
 */
public final class Json {
  /** A JSON number, as written. */
  public record Number(String text) {}

  /**
   * Deepest nesting of arrays and objects accepted: what follows (conversion to the column type,
   * error messages) recurses along the value, so client JSON must not be able to exhaust a
   * thread's stack. No CQL type nests this deep (the parser caps types at the same depth).
   */

  private final String s;
  private final int maxNesting;
  private int pos;
  private int depth;

  private Json(String s, int maxNesting) {
    this.s = s;
    this.maxNesting = maxNesting;
  }

  /** Parses one JSON value: Map, List, String, Number, Boolean or null (the default nesting bound). */
  public static Object parse(String text) {
    return parse(text, io.cassette.cql.language.parser.StatementLimits.DEFAULT_MAX_NESTING);
  }

  /** As {@link #parse(String)}, refusing arrays and objects nested deeper than {@code maxNesting}. */
  public static Object parse(String text, int maxNesting) {
    Json p = new Json(text, maxNesting);
    p.ws();
    Object v = p.value();
    p.ws();
    if (p.pos != text.length()) {
      throw invalid("Could not decode JSON string as a map: " + text);
    }
    return v;
  }

  public static String quote(String v) {
    StringBuilder sb = new StringBuilder(v.length() + 2).append('"');
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        case '\b' -> sb.append("\\b");
        case '\f' -> sb.append("\\f");
        default -> {
          if (c < 0x20) {
            sb.append(String.format("\\u%04x", (int) c));
          } else {
            sb.append(c);
          }
        }
      }
    }
    return sb.append('"').toString();
  }

  private void ws() {
    while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
      pos++;
    }
  }

  private RuntimeException error() {
    return invalid("Could not decode JSON string: " + s);
  }

  private Object value() {
    if (pos >= s.length()) {
      throw error();
    }
    char c = s.charAt(pos);
    if ((c == '{' || c == '[') && depth >= maxNesting) {
      throw invalid("Could not decode JSON string: arrays and objects nested more than " + maxNesting
          + " levels deep");
    }
    if (c == '{' || c == '[') {
      depth++;
      try {
        return container(c);
      } finally {
        depth--;
      }
    }
    return scalar(c);
  }

  private Object container(char c) {
    if (c == '{') {
      pos++;
      Map<String, Object> m = new LinkedHashMap<>();
      ws();
      if (peek('}')) {
        pos++;
        return m;
      }
      while (true) {
        ws();
        if (!peek('"')) {
          throw error();
        }
        String k = string();
        ws();
        expect(':');
        ws();
        m.put(k, value());
        ws();
        if (peek(',')) {
          pos++;
          continue;
        }
        expect('}');
        return m;
      }
    }
    if (c == '[') {
      pos++;
      List<Object> l = new ArrayList<>();
      ws();
      if (peek(']')) {
        pos++;
        return l;
      }
      while (true) {
        ws();
        l.add(value());
        ws();
        if (peek(',')) {
          pos++;
          continue;
        }
        expect(']');
        return l;
      }
    }
    throw error();
  }

  private Object scalar(char c) {
    if (c == '"') {
      return string();
    }
    if (s.startsWith("true", pos)) {
      pos += 4;
      return Boolean.TRUE;
    }
    if (s.startsWith("false", pos)) {
      pos += 5;
      return Boolean.FALSE;
    }
    if (s.startsWith("null", pos)) {
      pos += 4;
      return null;
    }
    int start = pos;
    while (pos < s.length() && "+-0123456789.eE".indexOf(s.charAt(pos)) >= 0) {
      pos++;
    }
    if (start == pos) {
      throw error();
    }
    return new Number(s.substring(start, pos));
  }

  private boolean peek(char c) {
    return pos < s.length() && s.charAt(pos) == c;
  }

  private void expect(char c) {
    if (!peek(c)) {
      throw error();
    }
    pos++;
  }

  private String string() {
    expect('"');
    StringBuilder sb = new StringBuilder();
    while (pos < s.length()) {
      char c = s.charAt(pos++);
      if (c == '"') {
        return sb.toString();
      }
      if (c == '\\') {
        if (pos >= s.length()) {
          throw error();
        }
        char e = s.charAt(pos++);
        switch (e) {
          case 'n' -> sb.append('\n');
          case 't' -> sb.append('\t');
          case 'r' -> sb.append('\r');
          case 'b' -> sb.append('\b');
          case 'f' -> sb.append('\f');
          case 'u' -> {
            sb.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            pos += 4;
          }
          default -> sb.append(e);
        }
      } else {
        sb.append(c);
      }
    }
    throw error();
  }
}
