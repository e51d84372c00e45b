package io.cassette.resp.script;

import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaTable;
import org.luaj.vm2.LuaValue;

/**
 * A Lua table scripts can read but not change (Redis 7.0's readonly tables: the {@code redis},
 * {@code cjson}, {@code bit}... libraries and the string metatable), so one script cannot
 * leave a trap for the next. Writes raise Redis's error "Attempt to modify a readonly table".
 * Filled by {@link #copyOf}; frozen from then on.
 */
final class ReadOnlyTable extends LuaTable {
  static final String READONLY = "Attempt to modify a readonly table";
  /**
   * Starts the text of an error raised inside a library function (rawset, setmetatable):
   * Lua 5.1 gives those no "source:line:" prefix, LuaJ would; {@link LuaInterpreter} drops both.
   */
  static final String NO_POSITION = "\u0001";
  private boolean frozen;
  /** Reading a missing key is an error, as for globals (the API tables functions load with). */
  private boolean strict;

  /** A frozen copy of {@code source}'s entries. */
  static ReadOnlyTable copyOf(LuaTable source) {
    ReadOnlyTable t = new ReadOnlyTable();
    LuaValue k = LuaValue.NIL;
    while (true) {
      var next = source.next(k);
      if ((k = next.arg1()).isnil()) {
        break;
      }
      t.rawset(k, next.arg(2));
    }
    t.frozen = true;
    return t;
  }

  /** A frozen copy whose missing keys raise "Script attempted to access nonexistent global variable". */
  static ReadOnlyTable strictCopyOf(LuaTable source) {
    ReadOnlyTable t = copyOf(source);
    t.strict = true;
    return t;
  }

  @Override
  public LuaValue get(LuaValue key) {
    LuaValue v = super.get(key);
    if (strict && v.isnil()) {
      throw new LuaError("Script attempted to access nonexistent global variable '"
          + key.tojstring() + "'");
    }
    return v;
  }

  @Override
  public void set(int key, LuaValue value) {
    check();
    super.set(key, value);
  }

  @Override
  public void set(LuaValue key, LuaValue value) {
    check();
    super.set(key, value);
  }

  @Override
  public void rawset(int key, LuaValue value) {
    checkFromLibrary();
    super.rawset(key, value);
  }

  @Override
  public void rawset(LuaValue key, LuaValue value) {
    checkFromLibrary();
    super.rawset(key, value);
  }

  @Override
  public LuaValue setmetatable(LuaValue metatable) {
    checkFromLibrary();
    return super.setmetatable(metatable);
  }

  @Override
  public LuaValue remove(int pos) {
    check();
    return super.remove(pos);
  }

  @Override
  public void insert(int pos, LuaValue value) {
    check();
    super.insert(pos, value);
  }

  private void checkFromLibrary() {
    if (frozen) {
      throw new LuaError(NO_POSITION + READONLY);
    }
  }

  private void check() {
    if (frozen) {
      throw new LuaError(READONLY);
    }
  }
}
