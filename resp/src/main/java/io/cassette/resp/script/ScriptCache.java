package io.cassette.resp.script;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.luaj.vm2.LuaFunction;

/**
 * EVAL's script cache: compiled scripts by the SHA1 of their body (EVALSHA, SCRIPT LOAD,
 * SCRIPT EXISTS, SCRIPT FLUSH). Bounded, unlike Redis 7.0's: past {@link #MAX_SCRIPTS}
 * scripts or {@link #maxBytes} bytes of bodies the least recently used is forgotten (a client
 * generating a new script per call cannot fill the heap; EVALSHA of a forgotten one answers
 * NOSCRIPT and clients fall back to EVAL). Used on the command thread only.
 */
final class ScriptCache {
  static final int MAX_SCRIPTS = 10_000;

  /** A compiled script and its shebang flags. */
  record Script(String sha, byte[] body, LuaFunction function, ScriptFlags flags) {}

  private final long maxBytes = Math.max(1L << 20, Runtime.getRuntime().maxMemory() / 16);
  private long bytes;
  private final LinkedHashMap<String, Script> scripts = new LinkedHashMap<>(16, 0.75f, true) {
    @Override
    protected boolean removeEldestEntry(Map.Entry<String, Script> eldest) {
      if (size() > MAX_SCRIPTS || bytes > maxBytes) {
        bytes -= eldest.getValue().body().length;
        return true;
      }
      return false;
    }
  };

  Script get(String sha) {
    return scripts.get(sha);
  }

  boolean contains(String sha) {
    return scripts.containsKey(sha);
  }

  void put(Script s) {
    Script old = scripts.get(s.sha());
    if (old != null) {
      return;
    }
    bytes += s.body().length;
    scripts.put(s.sha(), s);
  }

  int size() {
    return scripts.size();
  }

  long bodyBytes() {
    return bytes;
  }

  void clear() {
    scripts.clear();
    bytes = 0;
  }

  /** Lower-case hex SHA1 of {@code data}, as redis.sha1hex and EVALSHA use. */
  static String sha1hex(byte[] data) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-1").digest(data);
      StringBuilder sb = new StringBuilder(40);
      for (byte b : d) {
        sb.append(Character.forDigit((b >> 4) & 15, 16)).append(Character.forDigit(b & 15, 16));
      }
      return sb.toString();
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  static String sha1hex(String s) {
    return sha1hex(s.getBytes(StandardCharsets.UTF_8));
  }
}
