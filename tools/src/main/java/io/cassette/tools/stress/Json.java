package io.cassette.tools.stress;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the graph page needs: write maps, lists, strings, numbers, booleans and
 * null; read them back (objects as LinkedHashMap, arrays as ArrayList, numbers as BigDecimal)
 * so a new run can be added to an existing page. Not a general-purpose library.
 */
public final class Json {
  private Json() {}

  public static String write(Object value) {
    StringBuilder b = new StringBuilder();
    write(value, b);
    return b.toString();
  }

  private static void write(Object v, StringBuilder b) {
    if (v == null) {
      b.append("null");
    } else if (v instanceof String s) {
      b.append('"');
      for (int i = 0; i < s.length(); i++) {
        char c = s.charAt(i);
        switch (c) {
          case '"' -> b.append("\\\"");
          case '\\' -> b.append("\\\\");
          case '\n' -> b.append("\\n");
          case '\r' -> b.append("\\r");
          case '\t' -> b.append("\\t");
          // "</" would end the page's <script> element early.
          case '/' -> b.append(i > 0 && s.charAt(i - 1) == '<' ? "\\/" : "/");
          default -> {
            if (c < 0x20 || c == '<' || c == '>' || c == '&' || c == '\u2028' || c == '\u2029') {
              b.append(String.format("\\u%04x", (int) c));
            } else {
              b.append(c);
            }
          }
        }
      }
      b.append('"');
    } else if (v instanceof Number || v instanceof Boolean) {
      if (v instanceof Double d && (d.isNaN() || d.isInfinite())) {
        b.append("null");
      } else {
        b.append(v);
      }
    } else if (v instanceof Map<?, ?> m) {
      b.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : m.entrySet()) {
        if (!first) {
          b.append(',');
        }
        first = false;
        write(String.valueOf(e.getKey()), b);
        b.append(':');
        write(e.getValue(), b);
      }
      b.append('}');
    } else if (v instanceof List<?> l) {
      b.append('[');
      for (int i = 0; i < l.size(); i++) {
        if (i > 0) {
          b.append(',');
        }
        write(l.get(i), b);
      }
      b.append(']');
    } else {
      throw new IllegalArgumentException("not JSON: " + v.getClass());
    }
  }

  /** Parses a JSON text; throws IllegalArgumentException with the offset of a syntax error. */
  public static Object read(String text) {
    Reader r = new Reader(text);
    Object v = r.value();
    r.skipSpace();
    if (r.pos != text.length()) {
      throw r.error("trailing text");
    }
    return v;
  }

  private static final class Reader {
    final String s;
    int pos;

    Reader(String s) {
      this.s = s;
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("JSON " + what + " at offset " + pos);
    }

    void skipSpace() {
      while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
        pos++;
      }
    }

    Object value() {
      skipSpace();
      if (pos >= s.length()) {
        throw error("unexpected end");
      }
      char c = s.charAt(pos);
      if (c == '{') {
        pos++;
        Map<String, Object> m = new LinkedHashMap<>();
        skipSpace();
        if (peek('}')) {
          return m;
        }
        do {
          skipSpace();
          String key = string();
          skipSpace();
          expect(':');
          m.put(key, value());
          skipSpace();
        } while (peek(','));
        expect('}');
        return m;
      }
      if (c == '[') {
        pos++;
        List<Object> l = new ArrayList<>();
        skipSpace();
        if (peek(']')) {
          return l;
        }
        do {
          l.add(value());
          skipSpace();
        } while (peek(','));
        expect(']');
        return l;
      }
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
        throw error("unexpected character '" + c + "'");
      }
      try {
        return new BigDecimal(s.substring(start, pos));
      } catch (NumberFormatException e) {
        throw error("bad number");
      }
    }

    boolean peek(char c) {
      if (pos < s.length() && s.charAt(pos) == c) {
        pos++;
        return true;
      }
      return false;
    }

    void expect(char c) {
      if (!peek(c)) {
        throw error("expected '" + c + "'");
      }
    }

    String string() {
      expect('"');
      StringBuilder b = new StringBuilder();
      while (true) {
        if (pos >= s.length()) {
          throw error("unterminated string");
        }
        char c = s.charAt(pos++);
        if (c == '"') {
          return b.toString();
        }
        if (c != '\\') {
          b.append(c);
          continue;
        }
        if (pos >= s.length()) {
          throw error("unterminated escape");
        }
        char e = s.charAt(pos++);
        switch (e) {
          case 'n' -> b.append('\n');
          case 'r' -> b.append('\r');
          case 't' -> b.append('\t');
          case 'b' -> b.append('\b');
          case 'f' -> b.append('\f');
          case 'u' -> {
            if (pos + 4 > s.length()) {
              throw error("bad \\u escape");
            }
            b.append((char) Integer.parseInt(s.substring(pos, pos + 4), 16));
            pos += 4;
          }
          default -> b.append(e);
        }
      }
    }
  }
}
