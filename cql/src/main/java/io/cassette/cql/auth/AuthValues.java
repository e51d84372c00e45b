package io.cassette.cql.auth;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;

/** Encodes and decodes the few value types of system_auth's columns (text, boolean, set&lt;text&gt;). */
final class AuthValues {
  private AuthValues() {}

  static ByteBuffer text(String s) {
    return s == null ? null : ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  static ByteBuffer bool(boolean b) {
    return ByteBuffer.wrap(new byte[] {(byte) (b ? 1 : 0)});
  }

  /** A set&lt;text&gt; in the native protocol v3+ form: [int n] n x [int length][bytes]. */
  static ByteBuffer textSet(Collection<String> values) {
    int size = 4;
    for (String v : values) {
      size += 4 + v.getBytes(StandardCharsets.UTF_8).length;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.putInt(values.size());
    for (String v : values) {
      byte[] bytes = v.getBytes(StandardCharsets.UTF_8);
      b.putInt(bytes.length).put(bytes);
    }
    return b.flip();
  }

  static String asText(ByteBuffer b) {
    if (b == null) {
      return null;
    }
    ByteBuffer d = b.duplicate();
    byte[] bytes = new byte[d.remaining()];
    d.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static boolean asBool(ByteBuffer b) {
    return b != null && b.remaining() > 0 && b.get(b.position()) != 0;
  }

  static Set<String> asTextSet(ByteBuffer b) {
    Set<String> out = new LinkedHashSet<>();
    if (b == null || b.remaining() < 4) {
      return out;
    }
    ByteBuffer d = b.duplicate();
    int n = d.getInt();
    for (int i = 0; i < n; i++) {
      int len = d.getInt();
      byte[] bytes = new byte[len];
      d.get(bytes);
      out.add(new String(bytes, StandardCharsets.UTF_8));
    }
    return out;
  }
}
