package io.cassette.resp.script;

import io.cassette.resp.command.RedisException;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * Redis 7's script flags, from an EVAL shebang ({@code #!lua flags=no-writes,allow-oom}) or
 * a function's registration. {@code legacy} is an EVAL script without a shebang: it may write
 * (unless run by EVAL_RO) and knows no flags.
 */
record ScriptFlags(boolean legacy, Set<String> names) {
  static final Set<String> KNOWN = Set.of("no-writes", "allow-oom", "allow-stale", "no-cluster",
      "allow-cross-slot-keys");
  static final ScriptFlags LEGACY = new ScriptFlags(true, Set.of());

  boolean noWrites() {
    return names.contains("no-writes");
  }

  /**
   * The flags of an EVAL body: legacy without "#!", else the shebang's; Redis's errors for
   * another engine, an unknown option or flag.
   */
  static ScriptFlags ofEvalBody(byte[] body) {
    if (body.length < 2 || body[0] != '#' || body[1] != '!') {
      return LEGACY;
    }
    int end = 0;
    while (end < body.length && body[end] != '\n') {
      end++;
    }
    String line = new String(body, 2, end - 2, java.nio.charset.StandardCharsets.UTF_8);
    String[] parts = line.strip().split(" +");
    if (parts.length == 0 || !parts[0].equalsIgnoreCase("lua")) {
      throw new RedisException("ERR Unexpected engine in script shebang: #!"
          + (parts.length == 0 ? "" : parts[0]));
    }
    Set<String> flags = new LinkedHashSet<>();
    for (int i = 1; i < parts.length; i++) {
      if (!parts[i].startsWith("flags=")) {
        throw new RedisException("ERR Unknown lua shebang option: " + parts[i]);
      }
      String list = parts[i].substring("flags=".length());
      if (list.isEmpty()) {
        continue;
      }
      for (String f : list.split(",")) {
        if (!KNOWN.contains(f)) {
          throw new RedisException("ERR Unexpected flag in script shebang: " + f);
        }
        flags.add(f);
      }
    }
    return new ScriptFlags(false, flags);
  }

  /** {@code code} with its first line (a shebang) blanked, line numbers unchanged. */
  static byte[] withoutShebang(byte[] code) {
    if (code.length < 2 || code[0] != '#' || code[1] != '!') {
      return code;
    }
    int end = 0;
    while (end < code.length && code[end] != '\n') {
      end++;
    }
    return java.util.Arrays.copyOfRange(code, end, code.length);
  }
}
