package io.cassette.resp.script;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.luaj.vm2.LuaFunction;

/**
 * A Redis 7 function library: its name ({@code #!lua name=...}), its code exactly as loaded
 * (FUNCTION LIST WITHCODE, DUMP, persistence) and the functions its body registered.
 */
final class FunctionLibrary {
  final String name;
  final byte[] code;
  /** By name as registered, in registration order. */
  final Map<String, Function> functions = new LinkedHashMap<>();

  FunctionLibrary(String name, byte[] code) {
    this.name = name;
    this.code = code;
  }

  /** One registered function. */
  record Function(String name, LuaFunction callback, Set<String> flags, String description,
                  FunctionLibrary library) {
    boolean noWrites() {
      return flags.contains("no-writes");
    }
  }
}
