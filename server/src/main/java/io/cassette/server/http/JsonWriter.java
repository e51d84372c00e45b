package io.cassette.server.http;

/**
 * Builds one small JSON document for the admin API and the dashboard. The server module carries no JSON library,
 * and the admin answers are flat records, so a writer that only appends is enough.
 *
 * <p>Usage: {@code new JsonWriter().beginObject().field("a", 1).name("b").beginArray()...
 * .endArray().endObject().toString()}. The caller keeps the nesting balanced; commas are added
 * here. Not thread-safe.
 */
public final class JsonWriter {
  private final StringBuilder out = new StringBuilder(256);
  /** True when the next value at the current level needs a comma before it. */
  private boolean needComma;

  public JsonWriter beginObject() {
    comma();
    out.append('{');
    needComma = false;
    return this;
  }

  public JsonWriter endObject() {
    out.append('}');
    needComma = true;
    return this;
  }

  public JsonWriter beginArray() {
    comma();
    out.append('[');
    needComma = false;
    return this;
  }

  public JsonWriter endArray() {
    out.append(']');
    needComma = true;
    return this;
  }

  /** Writes a member name; the next call writes its value. */
  public JsonWriter name(String name) {
    comma();
    string(name);
    out.append(':');
    needComma = false;
    return this;
  }

  public JsonWriter value(String s) {
    comma();
    if (s == null) {
      out.append("null");
    } else {
      string(s);
    }
    needComma = true;
    return this;
  }

  public JsonWriter value(long n) {
    comma();
    out.append(n);
    needComma = true;
    return this;
  }

  /** NaN and infinities have no JSON form; they are written as null. */
  public JsonWriter value(double d) {
    comma();
    if (Double.isNaN(d) || Double.isInfinite(d)) {
      out.append("null");
    } else {
      out.append(d);
    }
    needComma = true;
    return this;
  }

  public JsonWriter value(boolean b) {
    comma();
    out.append(b);
    needComma = true;
    return this;
  }

  public JsonWriter field(String name, String value) {
    return name(name).value(value);
  }

  public JsonWriter field(String name, long value) {
    return name(name).value(value);
  }

  public JsonWriter field(String name, double value) {
    return name(name).value(value);
  }

  public JsonWriter field(String name, boolean value) {
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
        // Keeps "</script>" and friends inert if the JSON is ever inlined into a page.
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

  /** A one-member error document: {@code {"error":"..."}}. */
  public static String error(String message) {
    return new JsonWriter().beginObject().field("error", message).endObject().toString();
  }
}
