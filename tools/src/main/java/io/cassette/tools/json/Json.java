package io.cassette.tools.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The tools' one JSON reader and writer. Reading is Jackson's (already on the classpath through
 * the Java driver): {@link #tree} for the admin API's answers (nodetool), {@link #read} as plain
 * Java values for the stress graph page. Writing is the little writer the graph page needs: it
 * escapes what would end a {@code <script>} element early, which a general writer does not.
 */
public final class Json {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  /**
   * Parses a JSON text into Jackson's tree.
   *
   * @throws IllegalArgumentException naming the offset of a syntax error
   */
  public static JsonNode tree(String text) {
    try {
      JsonNode node = MAPPER.readTree(text);
      if (node == null || node.isMissingNode()) {
        throw new IllegalArgumentException("JSON unexpected end at offset " + text.length());
      }
      return node;
    } catch (JsonProcessingException e) {
      // Jackson's location is just past the character it stopped at; name that character.
      long offset = e.getLocation() == null ? -1 : Math.max(0, e.getLocation().getCharOffset() - 1);
      throw new IllegalArgumentException("JSON " + e.getOriginalMessage() + " at offset " + offset, e);
    }
  }

  /**
   * Parses a JSON text into plain values: objects as LinkedHashMap (in text order), arrays as
   * ArrayList, numbers as BigDecimal, strings, booleans and null.
   *
   * @throws IllegalArgumentException naming the offset of a syntax error
   */
  public static Object read(String text) {
    return plain(tree(text));
  }

  private static Object plain(JsonNode node) {
    if (node.isObject()) {
      Map<String, Object> m = new LinkedHashMap<>();
      for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        m.put(e.getKey(), plain(e.getValue()));
      }
      return m;
    }
    if (node.isArray()) {
      List<Object> l = new ArrayList<>(node.size());
      for (JsonNode element : node) {
        l.add(plain(element));
      }
      return l;
    }
    if (node.isNumber()) {
      return node.decimalValue();
    }
    if (node.isBoolean()) {
      return node.booleanValue();
    }
    if (node.isNull()) {
      return null;
    }
    return node.asText();
  }

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
}
