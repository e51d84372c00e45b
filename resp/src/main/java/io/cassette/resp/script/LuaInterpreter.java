package io.cassette.resp.script;

import java.io.ByteArrayInputStream;
import org.luaj.vm2.LoadState;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaString;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.luaj.vm2.Varargs;
import org.luaj.vm2.compiler.LuaC;
import org.luaj.vm2.lib.BaseLib;
import org.luaj.vm2.lib.OneArgFunction;
import org.luaj.vm2.lib.PackageLib;
import org.luaj.vm2.lib.StringLib;
import org.luaj.vm2.lib.TableLib;
import org.luaj.vm2.lib.VarArgFunction;
import org.luaj.vm2.lib.jse.JseMathLib;

/**
 * One Lua interpreter with Redis 7.0's sandbox: the base, table, string, math and debug
 * libraries plus {@code cjson}, {@code bit}, {@code cmsgpack} and {@code struct}; no
 * {@code os}, {@code io}, {@code package}, {@code require}, {@code print}, {@code loadfile},
 * {@code dofile}, no coroutines, no binary chunks; Lua 5.1's {@code unpack} and
 * {@code loadstring}; every library table read-only and the globals protected
 * ({@link SandboxGlobals}). EVAL scripts share one interpreter, functions another, as in
 * Redis. Used by one thread at a time (the script thread, or the command thread while no
 * script runs).
 */
final class LuaInterpreter {
  final SandboxGlobals globals = new SandboxGlobals();
  final ScriptGuard guard = new ScriptGuard();
  /** Where the last error was raised ("@user_script", line), for Redis's error suffix. */
  String[] lastErrorPosition;

  LuaInterpreter() {
    globals.load(new BaseLib());
    globals.load(new PackageLib());
    globals.load(new TableLib());
    globals.load(new StringLib());
    globals.load(new JseMathLib());
    globals.load(guard); // the debug library; also our instruction hook
    LoadState.install(globals);
    LuaC.install(globals);
    for (String name : new String[] {"print", "loadfile", "dofile", "require", "module",
        "package", "collectgarbage", "rawlen"}) {
      globals.internalSet(name, LuaValue.NIL);
    }
    LuaValue table = globals.rawget("table");
    globals.internalSet("unpack", table.rawget("unpack"));
    table.rawset("getn", new OneArgFunction() {
      @Override
      public LuaValue call(LuaValue t) {
        return LuaValue.valueOf(t.checktable().length());
      }
    });
    LuaValue string = globals.rawget("string");
    LuaValue rep = string.rawget("rep");
    string.rawset("rep", new VarArgFunction() { // string.rep allocates len * n bytes at once
      @Override
      public Varargs invoke(Varargs args) {
        long n = (long) args.optdouble(2, 0);
        LuaString.checkScriptBytes(Math.max(0, n) * args.checkstring(1).m_length);
        return rep.invoke(args);
      }
    });
    LuaValue math = globals.rawget("math");
    math.rawset("mod", math.rawget("fmod"));
    globals.internalSet("load", new TextOnlyLoad());
    globals.internalSet("loadstring", new TextOnlyLoad());
    globals.internalSet("cjson", CJsonLib.create());
    globals.internalSet("bit", BitLib.create());
    globals.internalSet("cmsgpack", CMsgPackLib.create());
    globals.internalSet("struct", StructLib.create());
    // Errors keep Lua 5.1's "source:line: message" text, without LuaJ's traceback.
    globals.running.errorfunc = new OneArgFunction() {
      @Override
      public LuaValue call(LuaValue message) {
        lastErrorPosition = guard.position();
        String m = message.tojstring();
        if (m.endsWith("attempt to call nil")) {
          String name = calledName(guard.frame());
          if (name != null) {
            m = m.substring(0, m.length() - "nil".length()) + name + " (a nil value)";
          }
        }
        return LuaValue.valueOf(luaMessage(m));
      }
    };
  }

  /** Freezes every library table and protects the globals; call after the API is set. */
  void seal() {
    for (String lib : new String[] {"string", "table", "math", "debug", "cjson", "bit",
        "cmsgpack", "struct", "redis"}) {
      LuaValue t = globals.rawget(lib);
      if (t instanceof LuaTable lt && !(t instanceof ReadOnlyTable)) {
        globals.internalSet(lib, ReadOnlyTable.copyOf(lt));
      }
    }
    // The strings' metatable is shared by every interpreter of the JVM: never writable.
    LuaTable stringMeta = new LuaTable();
    stringMeta.rawset(LuaValue.INDEX, globals.rawget("string"));
    LuaString.s_metatable = ReadOnlyTable.copyOf(stringMeta);
    globals.setmetatable(ReadOnlyTable.copyOf(new LuaTable()));
    globals.protect();
  }

  /**
   * Compiles {@code code} as a chunk named {@code chunkName} ("@user_script"), with the
   * globals as its environment. Throws LuaError with the compiler's message.
   */
  LuaFunction compile(byte[] code, String chunkName) {
    LuaValue f = globals.load(new ByteArrayInputStream(code), chunkName, "t", globals);
    return (LuaFunction) f;
  }

  /**
   * LuaJ's "@src:12 message" as Lua 5.1's "src:12: message", and LuaJ's "attempt to call nil"
   * as Lua 5.1's "attempt to call a nil value".
   */
  static String luaMessage(String m) {
    if (m == null) {
      return "nil";
    }
    m = m.replaceAll("attempt to (call|index|perform arithmetic on|get length of|concatenate) "
        + "(nil|boolean|table|string|number|function|userdata|thread)(?=$|\\s)", "attempt to $1 a $2 value");
    int marker = m.indexOf(ReadOnlyTable.NO_POSITION);
    if (marker >= 0) { // raised by a library function: no position, as in Lua 5.1
      return m.substring(marker + 1);
    }
    int space = m.indexOf(' ');
    if (space > 0) {
      String head = m.substring(0, space);
      int colon = head.lastIndexOf(':');
      if (colon > 0 && !head.endsWith(":")
          && (head.substring(colon + 1).chars().allMatch(Character::isDigit)
              || head.endsWith(":?"))) {
        String src = head.startsWith("@") ? head.substring(1) : head;
        return src + ": " + m.substring(space + 1);
      }
    }
    return m;
  }

  /**
   * Lua 5.1 names what a failed call tried to call ("global 'foo'", "field 'bar'"); LuaJ has
   * the same analysis (DebugLib.getobjname) but does not use it in this message.
   */
  static String calledName(Object[] frame) {
    if (frame == null) {
      return null;
    }
    try {
      org.luaj.vm2.Prototype p = (org.luaj.vm2.Prototype) frame[0];
      int pc = (Integer) frame[1];
      int i = p.code[pc];
      int op = i & 0x3f;
      if (op != org.luaj.vm2.Lua.OP_CALL && op != org.luaj.vm2.Lua.OP_TAILCALL) {
        return null;
      }
      Object nw = org.luaj.vm2.lib.DebugLib.getobjname(p, pc, (i >> 6) & 0xff);
      if (nw == null) {
        return null;
      }
      var nameField = nw.getClass().getDeclaredField("name");
      var whatField = nw.getClass().getDeclaredField("namewhat");
      nameField.setAccessible(true);
      whatField.setAccessible(true);
      return whatField.get(nw) + " '" + nameField.get(nw) + "'";
    } catch (ReflectiveOperationException | RuntimeException e) {
      return null;
    }
  }

  /** Lua 5.1's load/loadstring: source text only (binary chunks could crash the VM). */
  private final class TextOnlyLoad extends VarArgFunction {
    @Override
    public Varargs invoke(Varargs args) {
      LuaValue src = args.arg1();
      if (!src.isstring()) {
        return LuaValue.varargsOf(LuaValue.NIL, LuaValue.valueOf("load only accepts strings"));
      }
      String name = args.optjstring(2, "=(load)");
      try {
        byte[] code = LuaToResp.bytes(src.checkstring());
        if (code.length > 0 && code[0] == 0x1b) {
          return LuaValue.varargsOf(LuaValue.NIL,
              LuaValue.valueOf("attempt to load a binary chunk"));
        }
        return compile(code, name);
      } catch (LuaError e) {
        return LuaValue.varargsOf(LuaValue.NIL, LuaValue.valueOf(e.getMessage()));
      }
    }
  }
}
