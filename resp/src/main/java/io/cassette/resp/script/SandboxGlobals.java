package io.cassette.resp.script;

import org.luaj.vm2.Globals;
import org.luaj.vm2.LuaError;
import org.luaj.vm2.LuaValue;

/**
 * The global table of a script interpreter, with Redis's globals protection: once
 * {@link #protect()}ed, creating or replacing a global raises "Attempt to modify a readonly
 * table" and reading one that does not exist raises "Script attempted to access nonexistent
 * global variable 'x'" (scripts keep state only in Redis, never in the interpreter).
 */
final class SandboxGlobals extends Globals {
  private boolean protectedGlobals;
  /**
   * While a function library loads: the only globals it sees (Redis 7.0 gives a library's
   * body nothing but its loading API); null otherwise.
   */
  private org.luaj.vm2.LuaTable view;

  void view(org.luaj.vm2.LuaTable loadingView) {
    this.view = loadingView;
  }

  void protect() {
    protectedGlobals = true;
  }

  /** Sets a global despite the protection (the interpreter's own changes, e.g. the redis API). */
  void internalSet(String name, LuaValue value) {
    super.rawset(LuaValue.valueOf(name), value);
  }

  @Override
  public LuaValue get(LuaValue key) {
    LuaValue v = view != null ? view.rawget(key) : rawget(key);
    if (v.isnil() && protectedGlobals) {
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

  private void checkFromLibrary() {
    if (protectedGlobals) {
      throw new LuaError(ReadOnlyTable.NO_POSITION + ReadOnlyTable.READONLY);
    }
  }

  private void check() {
    if (protectedGlobals) {
      throw new LuaError(ReadOnlyTable.READONLY);
    }
  }
}
