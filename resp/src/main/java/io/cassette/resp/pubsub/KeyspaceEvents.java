package io.cassette.resp.pubsub;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.keyspace.KeyChanges;
import io.cassette.resp.keyspace.KeyChanges.Change;
import io.cassette.resp.keyspace.KeyChanges.Kind;
import io.cassette.resp.server.ServerContext;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Keyspace notifications (Redis's notify-keyspace-events): after a command, the changes it
 * committed ({@link KeyChanges}) become Redis's events, published on
 * {@code __keyspace@<db>__:<key>} (message: the event) and {@code __keyevent@<db>__:<event>}
 * (message: the key), as Redis names them per command (notify.c and the callers of
 * notifyKeyspaceEvent). Events go to this node's subscribers only (as Redis Cluster's).
 * The flags are read on every command (volatile); everything else runs on the command thread.
 */
public final class KeyspaceEvents {
  public static final int KEYSPACE = 1;
  public static final int KEYEVENT = 1 << 1;
  public static final int GENERIC = 1 << 2;
  public static final int STRING = 1 << 3;
  public static final int LIST = 1 << 4;
  public static final int SET = 1 << 5;
  public static final int HASH = 1 << 6;
  public static final int ZSET = 1 << 7;
  public static final int EXPIRED = 1 << 8;
  public static final int EVICTED = 1 << 9;
  public static final int STREAM = 1 << 10;
  public static final int KEY_MISS = 1 << 11;
  public static final int MODULE = 1 << 12;
  public static final int NEW = 1 << 13;
  /** Redis's "A": every class but key-miss and new. */
  public static final int ALL = GENERIC | STRING | LIST | SET | HASH | ZSET | EXPIRED | EVICTED
      | STREAM | MODULE;

  /** Commands whose result replaces the destination; an empty result only deletes it. */
  private static final Set<String> STORES = Set.of("sinterstore", "sunionstore", "sdiffstore",
      "zunionstore", "zinterstore", "zdiffstore", "zrangestore", "sort", "bitop",
      "georadius", "georadiusbymember", "geosearchstore");

  private volatile int flags;

  public int flags() {
    return flags;
  }

  /** CONFIG SET notify-keyspace-events: parses {@code text}, returns what CONFIG GET shows. */
  public String configure(String text) {
    int f = 0;
    for (char ch : text.toCharArray()) {
      f |= switch (ch) {
        case 'A' -> ALL;
        case 'g' -> GENERIC;
        case '$' -> STRING;
        case 'l' -> LIST;
        case 's' -> SET;
        case 'h' -> HASH;
        case 'z' -> ZSET;
        case 'x' -> EXPIRED;
        case 'e' -> EVICTED;
        case 'K' -> KEYSPACE;
        case 'E' -> KEYEVENT;
        case 't' -> STREAM;
        case 'm' -> KEY_MISS;
        case 'd' -> MODULE;
        case 'n' -> NEW;
        default -> throw new RedisException("ERR CONFIG SET failed (possibly related to argument"
            + " 'notify-keyspace-events') - Invalid event class character. Use"
            + " 'Ag$lshzxeKEtmdn'.");
      };
    }
    flags = f;
    return describe(f);
  }

  /** Redis's keyspaceEventsFlagsToString (its quirk included: 'n' is dropped after 'A'). */
  static String describe(int f) {
    StringBuilder sb = new StringBuilder();
    if ((f & ALL) == ALL) {
      sb.append('A');
    } else {
      String letters = "g$lshzxetdn";
      int[] bits = {GENERIC, STRING, LIST, SET, HASH, ZSET, EXPIRED, EVICTED, STREAM, MODULE, NEW};
      for (int i = 0; i < bits.length; i++) {
        if ((f & bits[i]) != 0) {
          sb.append(letters.charAt(i));
        }
      }
    }
    if ((f & KEYSPACE) != 0) {
      sb.append('K');
    }
    if ((f & KEYEVENT) != 0) {
      sb.append('E');
    }
    if ((f & KEY_MISS) != 0) {
      sb.append('m');
    }
    return sb.toString();
  }

  /** Publishes one event, when its class and a channel kind are enabled. */
  public void notify(ServerContext server, int type, String event, byte[] key, int db) {
    int f = flags;
    if ((f & type) == 0 || (f & (KEYSPACE | KEYEVENT)) == 0) {
      return;
    }
    byte[] ev = event.getBytes(StandardCharsets.US_ASCII);
    if ((f & KEYSPACE) != 0) {
      byte[] prefix = ("__keyspace@" + db + "__:").getBytes(StandardCharsets.US_ASCII);
      server.pubsub.publish(server, concat(prefix, key), ev);
    }
    if ((f & KEYEVENT) != 0) {
      byte[] channel = ("__keyevent@" + db + "__:" + event).getBytes(StandardCharsets.US_ASCII);
      server.pubsub.publish(server, channel, key);
    }
  }

  private static byte[] concat(byte[] a, byte[] b) {
    byte[] out = new byte[a.length + b.length];
    System.arraycopy(a, 0, out, 0, a.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  private record Event(int type, String name, byte[] key) {}

  /**
   * The events of command {@code args} (run on database {@code db}) that made {@code changes}:
   * keys created ("new") and expired on the way first, then the command's own events, then
   * "del" for keys it emptied.
   */
  public void afterCommand(ServerContext server, int db, byte[][] args, KeyChanges changes) {
    for (Change c : changes.changes) {
      if (c.kind() == Kind.EXPIRED) {
        notify(server, EXPIRED, "expired", c.key(), c.db());
      }
    }
    List<Change> created = new ArrayList<>(1);
    for (Change c : changes.changes) {
      if (c.kind() == Kind.NEW) {
        created.add(c);
      }
    }
    String name = Args.str(args[0]).toLowerCase(java.util.Locale.ROOT);
    if (name.startsWith("rename")) { // RENAME adds the target before its events
      for (Change c : created) {
        notify(server, NEW, "new", c.key(), c.db());
      }
      created.clear();
    }
    if (changes.wrote) {
      List<Event> events = new ArrayList<>(2);
      boolean deletesAreEvents = commandEvents(name, args, changes, db, events);
      List<byte[]> deleted = new ArrayList<>(1);
      for (int i = 0; i < events.size(); i++) {
        Event e = events.get(i);
        // A key's "new" comes just before its first event (Redis's dbAdd, then the command).
        created.removeIf(c -> {
          boolean mine = c.db() == db && java.util.Arrays.equals(c.key(), e.key);
          if (mine) {
            notify(server, NEW, "new", c.key(), c.db());
          }
          return mine;
        });
        boolean removed = changes.has(db, e.key, Kind.REMOVED);
        if (removed && STORES.contains(name)) {
          continue; // an empty result deletes the destination: only "del"
        }
        notify(server, e.type, e.name, e.key, db);
        // A key the command emptied gets its "del" right after its last event (SMOVE: srem,
        // del of the source, then the target's events).
        if (removed && !deletesAreEvents && !laterEventOf(events, i, e.key)) {
          notify(server, GENERIC, "del", e.key, db);
          deleted.add(e.key);
        }
      }
      if (!deletesAreEvents) {
        for (Change c : changes.changes) {
          if (c.kind() == Kind.REMOVED && !(c.db() == db && contains(deleted, c.key()))) {
            notify(server, GENERIC, "del", c.key(), c.db());
          }
        }
      }
    }
    for (Change c : created) {
      notify(server, NEW, "new", c.key(), c.db());
    }
  }


  /**
   * Adds the events Redis sends for {@code name}; true when the command's removals are
   * already its events (DEL, EXPIRE in the past, RENAME's source...).
   */
  private static boolean commandEvents(String name, byte[][] args, KeyChanges changes, int db,
                                       List<Event> out) {
    byte[] k1 = args.length > 1 ? args[1] : null;
    switch (name) {
      case "del", "unlink", "getdel" -> {
        for (Change c : changes.changes) {
          if (c.kind() == Kind.REMOVED) {
            out.add(new Event(GENERIC, "del", c.key()));
          }
        }
        return true;
      }
      case "expire", "pexpire", "expireat", "pexpireat" -> {
        if (changes.has(db, k1, Kind.REMOVED)) {
          out.add(new Event(GENERIC, "del", k1));
        } else {
          out.add(new Event(GENERIC, "expire", k1));
        }
        return true;
      }
      case "persist" -> out.add(new Event(GENERIC, "persist", k1));
      case "rename", "renamenx" -> {
        out.add(new Event(GENERIC, "rename_from", k1));
        out.add(new Event(GENERIC, "rename_to", args[2]));
        return true;
      }
      case "copy" -> out.add(new Event(GENERIC, "copy_to", args[2]));
      case "set" -> {
        out.add(new Event(STRING, "set", k1));
        for (int i = 3; i < args.length; i++) {
          String o = Args.str(args[i]).toLowerCase(java.util.Locale.ROOT);
          if (o.equals("ex") || o.equals("px") || o.equals("exat") || o.equals("pxat")) {
            out.add(new Event(GENERIC, "expire", k1));
            break;
          }
        }
      }
      case "setex", "psetex" -> {
        out.add(new Event(STRING, "set", k1));
        out.add(new Event(GENERIC, "expire", k1));
      }
      case "setnx", "getset" -> out.add(new Event(STRING, "set", k1));
      case "getex" -> {
        for (int i = 2; i < args.length; i++) {
          String o = Args.str(args[i]).toLowerCase(java.util.Locale.ROOT);
          if (o.equals("persist")) {
            out.add(new Event(GENERIC, "persist", k1));
          } else if (o.equals("ex") || o.equals("px") || o.equals("exat") || o.equals("pxat")) {
            out.add(new Event(GENERIC, "expire", k1));
          }
        }
        return true;
      }
      case "mset", "msetnx" -> {
        for (int i = 1; i < args.length; i += 2) {
          out.add(new Event(STRING, "set", args[i]));
        }
      }
      case "incr", "decr", "incrby", "decrby" -> out.add(new Event(STRING, "incrby", k1));
      case "incrbyfloat", "append", "setrange", "setbit" -> out.add(new Event(STRING, name, k1));
      case "bitfield" -> out.add(new Event(STRING, "setbit", k1));
      case "bitop" -> out.add(new Event(STRING, "set", args[2]));
      case "pfadd", "pfmerge" -> out.add(new Event(STRING, "pfadd", k1));
      case "lpush", "lpushx" -> out.add(new Event(LIST, "lpush", k1));
      case "rpush", "rpushx" -> out.add(new Event(LIST, "rpush", k1));
      case "lpop", "rpop", "linsert", "lset", "lrem", "ltrim" -> out.add(new Event(LIST, name, k1));
      case "rpoplpush", "brpoplpush" -> {
        out.add(new Event(LIST, "lpush", args[2])); // Redis pushes, then pops
        out.add(new Event(LIST, "rpop", k1));
      }
      case "lmove", "blmove" -> {
        out.add(new Event(LIST, Args.is(args[4], "left") ? "lpush" : "rpush", args[2]));
        out.add(new Event(LIST, Args.is(args[3], "left") ? "lpop" : "rpop", k1));
      }
      case "blpop", "brpop", "lmpop", "blmpop" -> {
        boolean left = name.equals("blpop") || (name.endsWith("mpop") && hasWord(args, "left"));
        for (Change c : changes.changes) {
          if (c.kind() == Kind.CHANGED || c.kind() == Kind.REMOVED) {
            out.add(new Event(LIST, left ? "lpop" : "rpop", c.key()));
            break;
          }
        }
      }
      case "sadd", "srem", "spop" -> out.add(new Event(SET, name, k1));
      case "smove" -> {
        out.add(new Event(SET, "srem", k1));
        out.add(new Event(SET, "sadd", args[2]));
      }
      case "sinterstore", "sunionstore", "sdiffstore" -> out.add(new Event(SET, name, k1));
      case "hset", "hmset", "hsetnx" -> out.add(new Event(HASH, "hset", k1));
      case "hdel", "hincrby", "hincrbyfloat" -> out.add(new Event(HASH, name, k1));
      case "zadd" -> out.add(new Event(ZSET, hasWord(args, "incr") ? "zincr" : "zadd", k1));
      case "zincrby" -> out.add(new Event(ZSET, "zincr", k1));
      case "zrem", "zremrangebyscore", "zremrangebyrank", "zremrangebylex", "zpopmin",
           "zpopmax" -> out.add(new Event(ZSET, name, k1));
      case "zunionstore", "zinterstore", "zdiffstore", "zrangestore" ->
          out.add(new Event(ZSET, name, k1));
      case "bzpopmin", "bzpopmax", "zmpop", "bzmpop" -> {
        String ev = name.contains("max") || hasWord(args, "max") ? "zpopmax" : "zpopmin";
        for (Change c : changes.changes) {
          if (c.kind() == Kind.CHANGED || c.kind() == Kind.REMOVED) {
            out.add(new Event(ZSET, ev, c.key()));
            break;
          }
        }
      }
      case "geoadd" -> out.add(new Event(ZSET, "zadd", k1));
      case "geosearchstore" -> out.add(new Event(ZSET, "geosearchstore", k1));
      case "georadius", "georadiusbymember" -> {
        for (int i = 2; i + 1 < args.length; i++) {
          if (Args.is(args[i], "store") || Args.is(args[i], "storedist")) {
            out.add(new Event(ZSET, "georadiusstore", args[i + 1]));
          }
        }
      }
      case "sort" -> {
        for (int i = 2; i + 1 < args.length; i++) {
          if (Args.is(args[i], "store")) {
            out.add(new Event(LIST, "sortstore", args[i + 1]));
          }
        }
      }
      default -> takeDeclared(args, out);
    }
    return false;
  }

  /** Events a command declared itself, for the command run with {@code args} (streams). */
  private static final ThreadLocal<Declared> DECLARED = new ThreadLocal<>();

  private record Declared(byte[][] args, List<Event> events) {}

  /**
   * Declares a stream event of the running command (XADD, XTRIM, XGROUP...: Redis sends them
   * only when the command changed something, which only the command knows). Taken by the
   * afterCommand of the same {@code args}; a stale declaration is never sent to another.
   */
  public static void declareStream(byte[][] args, String event, byte[] key) {
    Declared d = DECLARED.get();
    if (d == null || d.args != args) {
      d = new Declared(args, new ArrayList<>(2));
      DECLARED.set(d);
    }
    d.events.add(new Event(STREAM, event, key));
  }

  private static void takeDeclared(byte[][] args, List<Event> out) {
    Declared d = DECLARED.get();
    if (d != null) {
      DECLARED.remove();
      if (d.args == args) {
        out.addAll(d.events);
      }
    }
  }

  private static boolean laterEventOf(List<Event> events, int i, byte[] key) {
    for (int j = i + 1; j < events.size(); j++) {
      if (java.util.Arrays.equals(events.get(j).key, key)) {
        return true;
      }
    }
    return false;
  }

  private static boolean contains(List<byte[]> keys, byte[] key) {
    for (byte[] k : keys) {
      if (java.util.Arrays.equals(k, key)) {
        return true;
      }
    }
    return false;
  }

  private static boolean hasWord(byte[][] args, String word) {
    for (int i = 1; i < args.length; i++) {
      if (Args.is(args[i], word)) {
        return true;
      }
    }
    return false;
  }
}
