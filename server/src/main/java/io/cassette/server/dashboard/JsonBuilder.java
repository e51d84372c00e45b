package io.cassette.server.dashboard;

/**
 * Appends one JSON document: the dashboard's answers are small and flat, and the server module
 * carries no JSON library. The caller keeps the nesting balanced; commas are added here.
 * Not thread-safe.
 */
final class JsonBuilder {
  private final StringBuilder out = new StringBuilder(4096);
  /** True when the next value at the current level needs a comma before it. */
  private boolean needComma;

  JsonBuilder beginObject() {
    comma();
    out.append('{');
    needComma = false;
    return this;
  }

  JsonBuilder endObject() {
    out.append('}');
    needComma = true;
    return this;
  }

  JsonBuilder beginArray() {
    comma();
    out.append('[');
    needComma = false;
    return this;
  }

  JsonBuilder endArray() {
    out.append(']');
    needComma = true;
    return this;
  }

  /** A member name; the next call writes its value. */
  JsonBuilder name(String name) {
    comma();
    string(name);
    out.append(':');
    needComma = false;
    return this;
  }

  JsonBuilder value(String s) {
    comma();
    if (s == null) {
      out.append("null");
    } else {
      string(s);
    }
    needComma = true;
    return this;
  }

  JsonBuilder value(long n) {
    comma();
    out.append(n);
    needComma = true;
    return this;
  }

  /** NaN and infinities have no JSON form: null. */
  JsonBuilder value(double d) {
    comma();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      out.append("null");
    } else {
      out.append(d);
    }
    needComma = true;
    return this;
  }

  JsonBuilder field(String name, String value) {
    return name(name).value(value);
  }

  JsonBuilder field(String name, long value) {
    return name(name).value(value);
  }

  JsonBuilder field(String name, double value) {
    return name(name).value(value);
  }

  @Override
  public String toString() {
    return out.toString();
  }

  private void comma() {
    if (needComma) {
      out.append(',');
    }
  }

  private void string(String s) {
    out.append('"');
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\r' -> out.append("\\r");
        case '\t' -> out.append("\\t");
        // Keeps "</script>" and friends inert if the JSON is ever inlined into the page.
        case '<' -> out.append("\\u003c");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04x", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    out.append('"');
  }
}
