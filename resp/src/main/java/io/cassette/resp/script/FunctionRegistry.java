package io.cassette.resp.script;

import io.cassette.resp.command.RedisException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaFunction;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The loaded function libraries (FUNCTION LOAD/DELETE/FLUSH/RESTORE) and their functions by
 * name (case-insensitive, as Redis). Every change is written to the functions file, so
 * functions survive a restart as Redis's survive in its RDB/AOF.
 *
 * <p>The file: the line {@code CASSETTE-FUNCTIONS 1\n}, then a FUNCTION DUMP payload (its
 * own version and CRC-64 footer: a torn or damaged file is refused at start with the file's
 * name). Written to a temporary file, synced, then renamed over the old one, at most once per
 * {@link #PERSIST_DELAY_MILLIS} (Redis's appendfsync everysec: a client loading libraries in a
 * loop does not wait for a sync each time) and when the server closes. Used on the command
 * thread only.
 */
final class FunctionRegistry {
  private static final Logger LOG = LoggerFactory.getLogger(FunctionRegistry.class);
  static final byte[] FILE_HEADER = "CASSETTE-FUNCTIONS 1\n".getBytes(StandardCharsets.US_ASCII);
  /** Longest a library's body may run while loading (Redis's FUNCTION LOAD timeout). */
  static final long LOAD_TIMEOUT_MILLIS = 500;
  /** Longest a change waits before it is written to the functions file. */
  static final long PERSIST_DELAY_MILLIS = 1000;
  private boolean dirty;
  private boolean writeScheduled;

  private final ScriptEngine engine;
  private final Path file;
  private final FunctionLoader loader = new FunctionLoader();
  private final LuaTable loadingView;
  /** By lower-case name. */
  private final Map<String, FunctionLibrary> libraries = new LinkedHashMap<>();
  /** By lower-case name. */
  private final Map<String, FunctionLibrary.Function> functions = new LinkedHashMap<>();

  FunctionRegistry(ScriptEngine engine, Path file) {
    this.engine = engine;
    this.file = file;
    LuaTable view = new LuaTable();
    view.rawset("redis", ReadOnlyTable.strictCopyOf(engine.api.loading(loader)));
    this.loadingView = view;
    if (file != null && Files.exists(file)) {
      restoreFromFile();
    }
  }

  Map<String, FunctionLibrary> libraries() {
    return libraries;
  }

  FunctionLibrary.Function function(String name) {
    return functions.get(name.toLowerCase(Locale.ROOT));
  }

  int functionCount() {
    return functions.size();
  }

  static boolean validName(String name) {
    if (name.isEmpty()) {
      return false;
    }
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (!(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_')) {
        return false;
      }
    }
    return true;
  }

  /** FUNCTION LOAD: compiles and runs {@code code}'s body, then adds its library; its name. */
  String load(byte[] code, boolean replace) {
    FunctionLibrary lib = compile(code);
    install(List.of(lib), replace);
    persist();
    return lib.name;
  }

  /** Parses the shebang, compiles and runs the body: a library not yet installed. */
  FunctionLibrary compile(byte[] code) {
    String name = libraryName(code);
    FunctionLibrary lib = new FunctionLibrary(name, code);
    LuaInterpreter lua = engine.functionsLua;
    LuaFunction body;
    try {
      body = lua.compile(ScriptFlags.withoutShebang(code), "@user_function");
    } catch (LuaError e) {
      throw new RedisException("ERR Error compiling function: "
          + LuaInterpreter.luaMessage(e.getMessage()));
    }
    ScriptRun run = new ScriptRun(null, null, name, true, new byte[0][], true);
    run.deadlineNanos = System.nanoTime() + LOAD_TIMEOUT_MILLIS * 1_000_000;
    lua.globals.view(loadingView);
    loader.begin(lib);
    lua.lastErrorPosition = null;
    lua.guard.begin(run);
    try {
      body.call();
    } catch (LuaError e) {
      throw new RedisException("ERR Error registering functions: " + loadError(e));
    } catch (ScriptGuard.ScriptAbort e) {
      throw new RedisException("ERR Error registering functions: FUNCTION LOAD timeout");
    } catch (StackOverflowError e) {
      throw new RedisException("ERR Error registering functions: stack overflow");
    } finally {
      lua.guard.end();
      loader.end();
      lua.globals.view(null);
    }
    if (lib.functions.isEmpty()) {
      throw new RedisException("ERR No functions registered");
    }
    return lib;
  }

  private static String loadError(LuaError e) {
    LuaValue obj = e.getMessageObject();
    if (obj instanceof LuaTable t && t.rawget("err").isstring()) {
      return t.rawget("err").tojstring();
    }
    return "ERR " + LuaInterpreter.luaMessage(obj == null ? e.getMessage() : obj.tojstring());
  }

  /** The library name from "#!lua name=NAME", with Redis 7.0's errors. */
  static String libraryName(byte[] code) {
    if (code.length < 2 || code[0] != '#' || code[1] != '!') {
      throw new RedisException("ERR Missing library metadata");
    }
    int end = 0;
    while (end < code.length && code[end] != '\n') {
      end++;
    }
    String line = new String(code, 2, end - 2, StandardCharsets.UTF_8);
    String[] parts = splitArgs(line);
    String engineName = parts[0];
    if (!engineName.equalsIgnoreCase("lua")) {
      throw new RedisException("ERR Engine '" + engineName + "' not found");
    }
    String name = null;
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i];
      if (p.isEmpty()) {
        continue;
      }
      if (p.startsWith("name=")) {
        if (name != null) {
          throw new RedisException("ERR Invalid metadata value, name argument was given multiple times");
        }
        name = p.substring(5);
      } else {
        throw new RedisException("ERR Invalid metadata value given: " + p);
      }
    }
    if (name == null) {
      throw new RedisException("ERR Library name was not given");
    }
    if (!validName(name)) {
      throw new RedisException("ERR Library names can only contain letters, numbers, or "
          + "underscores(_) and must be at least one character long");
    }
    return name;
  }

  /** Redis's sdssplitargs for the shebang line: spaces separate, quotes group ("foo" is foo). */
  static String[] splitArgs(String line) {
    List<String> out = new ArrayList<>();
    StringBuilder cur = null;
    char quote = 0;
    for (int i = 0; i < line.length(); i++) {
      char ch = line.charAt(i);
      if (quote != 0) {
        if (ch == quote) {
          quote = 0;
        } else {
          cur.append(ch);
        }
      } else if (ch == '"' || ch == '\'') {
        quote = ch;
        if (cur == null) {
          cur = new StringBuilder();
        }
      } else if (ch == ' ' || ch == '\t') {
        if (cur != null) {
          out.add(cur.toString());
          cur = null;
        }
      } else {
        if (cur == null) {
          cur = new StringBuilder();
        }
        cur.append(ch);
      }
    }
    if (cur != null) {
      out.add(cur.toString());
    }
    if (out.isEmpty() || line.startsWith(" ")) {
      out.add(0, "");
    }
    return out.toArray(new String[0]);
  }

  /**
   * Adds {@code libs} all or nothing: with {@code replace} a library of the same name is
   * replaced, else it is an error; a function name taken by another library is an error.
   */
  void install(List<FunctionLibrary> libs, boolean replace) {
    Map<String, FunctionLibrary> nextLibs = new LinkedHashMap<>(libraries);
    for (FunctionLibrary lib : libs) {
      String key = lib.name.toLowerCase(Locale.ROOT);
      if (nextLibs.containsKey(key) && !replace) {
        throw new RedisException("ERR Library '" + lib.name + "' already exists");
      }
      nextLibs.remove(key);
      Map<String, FunctionLibrary.Function> taken = index(nextLibs);
      for (FunctionLibrary.Function f : lib.functions.values()) {
        if (taken.containsKey(f.name().toLowerCase(Locale.ROOT))) {
          throw new RedisException("ERR Function " + f.name() + " already exists");
        }
      }
      nextLibs.put(key, lib);
    }
    libraries.clear();
    libraries.putAll(nextLibs);
    functions.clear();
    functions.putAll(index(libraries));
  }

  private static Map<String, FunctionLibrary.Function> index(Map<String, FunctionLibrary> libs) {
    Map<String, FunctionLibrary.Function> m = new LinkedHashMap<>();
    for (FunctionLibrary l : libs.values()) {
      for (FunctionLibrary.Function f : l.functions.values()) {
        m.put(f.name().toLowerCase(Locale.ROOT), f);
      }
    }
    return m;
  }

  void delete(String name) {
    FunctionLibrary lib = libraries.remove(name.toLowerCase(Locale.ROOT));
    if (lib == null) {
      throw new RedisException("ERR Library not found");
    }
    functions.clear();
    functions.putAll(index(libraries));
    persist();
  }

  void flush() {
    libraries.clear();
    functions.clear();
    persist();
  }

  byte[] dump() {
    List<byte[]> codes = new ArrayList<>();
    for (FunctionLibrary l : libraries.values()) {
      codes.add(l.code);
    }
    return FunctionDump.write(codes);
  }

  /** FUNCTION RESTORE with policy flush, append or replace. */
  void restore(byte[] payload, String policy) {
    List<byte[]> codes = FunctionDump.read(payload);
    if (codes == null) {
      throw new RedisException("ERR DUMP payload version or checksum are wrong");
    }
    List<FunctionLibrary> libs = new ArrayList<>();
    for (byte[] code : codes) {
      libs.add(compile(code));
    }
    Map<String, FunctionLibrary> before = new LinkedHashMap<>(libraries);
    if (policy.equals("flush")) {
      libraries.clear();
      functions.clear();
    }
    try {
      if (policy.equals("append")) {
        for (FunctionLibrary l : libs) {
          if (libraries.containsKey(l.name.toLowerCase(Locale.ROOT))) {
            throw new RedisException("ERR Library " + l.name + " already exists");
          }
        }
      }
      install(libs, !policy.equals("append"));
    } catch (RedisException e) {
      libraries.clear();
      libraries.putAll(before);
      functions.clear();
      functions.putAll(index(libraries));
      throw e;
    }
    persist();
  }

  /** Marks the libraries changed: the file is written within {@link #PERSIST_DELAY_MILLIS}. */
  private void persist() {
    if (file == null) {
      return;
    }
    dirty = true;
    if (!writeScheduled) {
      writeScheduled = true;
      try {
        engine.server.commandThread.schedule(this::writeIfDirty, PERSIST_DELAY_MILLIS,
            java.util.concurrent.TimeUnit.MILLISECONDS);
      } catch (java.util.concurrent.RejectedExecutionException e) {
        writeScheduled = false;
        writeIfDirty();
      }
    }
  }

  /** Writes the functions file now if a change is pending (also at close). */
  void writeIfDirty() {
    writeScheduled = false;
    if (!dirty || file == null) {
      return;
    }
    dirty = false;
    byte[] payload = dump();
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      try (var ch = java.nio.channels.FileChannel.open(tmp,
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.WRITE,
          java.nio.file.StandardOpenOption.TRUNCATE_EXISTING)) {
        ch.write(java.nio.ByteBuffer.wrap(FILE_HEADER));
        ch.write(java.nio.ByteBuffer.wrap(payload));
        ch.force(true);
      }
      Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      LOG.error("cannot write the functions file {}: {}", file, e.toString());
      dirty = true; // tried again at the next change or at close
    }
  }

  private void restoreFromFile() {
    byte[] all;
    try {
      all = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read the functions file " + file + ": " + e, e);
    }
    if (all.length < FILE_HEADER.length
        || !java.util.Arrays.equals(all, 0, FILE_HEADER.length, FILE_HEADER, 0, FILE_HEADER.length)) {
      throw new IllegalStateException("the functions file " + file
          + " does not start with '" + new String(FILE_HEADER, StandardCharsets.US_ASCII).strip()
          + "': not a Cassette functions file");
    }
    byte[] payload = java.util.Arrays.copyOfRange(all, FILE_HEADER.length, all.length);
    List<byte[]> codes = FunctionDump.read(payload);
    if (codes == null) {
      throw new IllegalStateException("the functions file " + file + " (" + all.length
          + " bytes) is truncated or damaged: version or CRC-64 check failed");
    }
    List<FunctionLibrary> libs = new ArrayList<>();
    for (byte[] code : codes) {
      libs.add(compile(code));
    }
    install(libs, false);
    LOG.info("loaded {} function libraries from {}", libs.size(), file);
  }
}
