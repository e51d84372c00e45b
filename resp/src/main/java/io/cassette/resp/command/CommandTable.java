package io.cassette.resp.command;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/** Every command the server knows, by lower-case name. Filled once at start, then read-only. */
public final class CommandTable {
  private final Map<String, CommandSpec> byName = new HashMap<>();
  private final Map<String, CommandSpec> sorted = new TreeMap<>();

  public void add(String name, int arity, int flags, int firstKey, int lastKey, int step,
                  CommandHandler handler) {
    CommandSpec spec = new CommandSpec(name, arity, flags, firstKey, lastKey, step, handler);
    byName.put(name, spec);
    sorted.put(name, spec);
  }

  /** A command without key arguments. */
  public void add(String name, int arity, int flags, CommandHandler handler) {
    add(name, arity, flags, 0, 0, 0, handler);
  }

  public CommandSpec get(String lowerName) {
    return byName.get(lowerName);
  }

  public Collection<CommandSpec> all() {
    return sorted.values();
  }

  public int size() {
    return byName.size();
  }

  /** The standard set of commands this server implements. */
  public static CommandTable standard() {
    CommandTable t = new CommandTable();
    ConnectionCommands.register(t);
    ServerCommands.register(t);
    KeyCommands.register(t);
    ObjectCommand.register(t);
    MemoryCommand.register(t);
    StringCommands.register(t);
    BitmapCommands.register(t);
    HyperLogLogCommands.register(t);
    SortCommand.register(t);
    HashCommands.register(t);
    ListCommands.register(t);
    SetCommands.register(t);
    SortedSetCommands.register(t);
    LcsCommand.register(t); // issue 20 (zsetgeo)
    MoveCommand.register(t);
    SwapDbCommand.register(t); // issue 20: the ring-wide database map
    TransactionCommands.register(t);
    PubSubCommands.register(t);
    io.cassette.resp.acl.AclCommands.register(t);
    io.cassette.resp.script.ScriptCommands.register(t);
    DumpCommands.register(t); // DUMP, RESTORE, MIGRATE (io.cassette.resp.rdb)
    io.cassette.resp.stream.StreamCommands.register(t); // XADD ... XINFO
    return t;
  }
}
