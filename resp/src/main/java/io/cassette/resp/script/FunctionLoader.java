package io.cassette.resp.script;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;

/**
 * FUNCTION LOAD's {@code redis.register_function}, in both of Redis 7.0's forms:
 * {@code (name, callback)} and {@code {function_name=, callback=, flags={...}, description=}},
 * with its error texts. Collects into the library being loaded; refuses outside a load.
 */
final class FunctionLoader {
  /** The library being loaded, null outside FUNCTION LOAD. */
  private FunctionLibrary loading;

  void begin(FunctionLibrary library) {
    loading = library;
  }

  void end() {
    loading = null;
  }

  Varargs register(RedisApi api, Varargs a) {
    if (loading == null) {
      throw api.raise("ERR redis.register_function can only be called on FUNCTION LOAD command");
    }
    String name;
    LuaValue callback;
    Set<String> flags = new LinkedHashSet<>();
    String description = null;
    if (a.narg() == 1) {
      if (!a.arg1().istable()) {
        throw api.raise("ERR calling redis.register_function with a single argument is only "
            + "applicable to Lua table (representing named arguments).");
      }
      LuaTable t = (LuaTable) a.arg1();
      LuaValue nameValue = LuaValue.NIL;
      callback = LuaValue.NIL;
      LuaValue k = LuaValue.NIL;
      while (true) {
        Varargs next = t.next(k);
        if ((k = next.arg1()).isnil()) {
          break;
        }
        LuaValue v = next.arg(2);
        String key = k.isstring() ? k.tojstring() : "";
        switch (key) {
          case "function_name" -> {
            if (v.type() != LuaValue.TSTRING) {
              throw api.raise("ERR function_name argument given to redis.register_function must be a string");
            }
            nameValue = v;
          }
          case "description" -> {
            if (v.type() != LuaValue.TSTRING) {
              throw api.raise("ERR description argument given to redis.register_function must be a string");
            }
            description = v.tojstring();
          }
          case "callback" -> {
            if (!v.isfunction()) {
              throw api.raise("ERR callback argument given to redis.register_function must be a function");
            }
            callback = v;
          }
          case "flags" -> {
            if (!v.istable()) {
              throw api.raise("ERR flags argument to redis.register_function must be a table representing function flags");
            }
            LuaTable ft = (LuaTable) v;
            for (int i = 1; !ft.rawget(i).isnil(); i++) {
              LuaValue f = ft.rawget(i);
              if (f.type() != LuaValue.TSTRING || !ScriptFlags.KNOWN.contains(f.tojstring())) {
                throw api.raise("ERR unknown flag given");
              }
              flags.add(f.tojstring());
            }
          }
          default -> throw api.raise("ERR unknown argument given to redis.register_function");
        }
      }
      if (nameValue.isnil()) {
        throw api.raise("ERR redis.register_function must get a function name argument");
      }
      if (callback.isnil()) {
        throw api.raise("ERR redis.register_function must get a callback argument");
      }
      name = nameValue.tojstring();
    } else if (a.narg() == 2) {
      if (a.arg1().type() != LuaValue.TSTRING) {
        throw api.raise("ERR first argument to redis.register_function must be a string");
      }
      if (!a.arg(2).isfunction()) {
        throw api.raise("ERR second argument to redis.register_function must be a function");
      }
      name = a.arg1().tojstring();
      callback = a.arg(2);
    } else {
      throw api.raise("ERR wrong number of arguments to redis.register_function");
    }
    if (!FunctionRegistry.validName(name)) {
      throw api.raise("ERR Library names can only contain letters, numbers, or underscores(_)"
          + " and must be at least one character long");
    }
    String key = name.toLowerCase(Locale.ROOT);
    for (String existing : loading.functions.keySet()) {
      if (existing.toLowerCase(Locale.ROOT).equals(key)) {
        throw api.raise("ERR Function already exists in the library");
      }
    }
    loading.functions.put(name, new FunctionLibrary.Function(name, (LuaFunction) callback,
        java.util.Collections.unmodifiableSet(flags), description, loading));
    return LuaValue.NONE;
  }

}
