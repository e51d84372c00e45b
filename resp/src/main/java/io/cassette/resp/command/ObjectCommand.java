package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.READONLY;

import io.cassette.resp.config.RedisConfig;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.storage.Row;
import java.util.List;
import java.util.Locale;

/**
 * OBJECT ENCODING/REFCOUNT/IDLETIME/FREQ/HELP. Cassette stores every type the same way (see
 * docs/format/redis-encoding.md), so ENCODING answers the name Redis 7.0 would use for the
 * value as it is now, by Redis's thresholds (which CONFIG SET changes): a small hash or zset
 * whose elements are short is "listpack", a set of few integers "intset", lists "quicklist"
 * (7.0 has no listpack lists), strings "int"/"embstr"/"raw". Unlike Redis, a collection that
 * grew past a threshold and shrank again reads as the small encoding (Redis converts one
 * way until a restart reloads it).
 */
final class ObjectCommand {
  private ObjectCommand() {}

  /** Redis's OBJ_ENCODING_EMBSTR_SIZE_LIMIT. */
  private static final int EMBSTR_LIMIT = 44;

  static void register(CommandTable t) {
    t.add("object", -2, READONLY, 2, 2, 1, ObjectCommand::object);
  }

  private static void object(CommandContext c) {
    String sub = c.argString(1).toLowerCase(Locale.ROOT);
    if (sub.equals("help") && c.argc() == 2) {
      help(c);
      return;
    }
    if (!List.of("encoding", "refcount", "idletime", "freq").contains(sub)) {
      throw new RedisException(Errors.unknownSubcommand(c.argString(1), "OBJECT"));
    }
    if (c.argc() != 3) {
      throw new RedisException(Errors.wrongArity("object|" + sub));
    }
    KeyMeta m = c.db().meta(c.arg(2));
    if (m == null) {
      c.reply().nullBulk();
      return;
    }
    String policy = c.server.config.get("maxmemory-policy");
    boolean lfu = policy != null && policy.contains("lfu");
    switch (sub) {
      case "encoding" -> c.reply().bulk(Args.bytes(encoding(c.db(), m, c.server.config)));
      case "refcount" -> c.reply().integer(m.type == io.cassette.resp.keyspace.KeyType.STRING
          && isSharedInteger(m.value) ? Integer.MAX_VALUE : 1);
      case "idletime" -> {
        if (lfu) {
          throw new RedisException("ERR An LFU maxmemory policy is selected, idle time not"
              + " tracked. Please note that when switching between policies at runtime LRU and"
              + " LFU data will take some time to adjust.");
        }
        c.reply().integer(0);
      }
      default -> { // freq
        if (!lfu) {
          throw new RedisException("ERR An LFU maxmemory policy is not selected, access"
              + " frequency not tracked. Please note that when switching between policies at"
              + " runtime LRU and LFU data will take some time to adjust.");
        }
        c.reply().integer(0);
      }
    }
  }

  /** Redis's shared integers 0..9999 report refcount INT_MAX. */
  private static boolean isSharedInteger(byte[] v) {
    Long n = Args.parseLongOrNull(v);
    return n != null && n >= 0 && n < 10000;
  }

  /** The encoding Redis 7.0 would report for {@code m} now. */
  static String encoding(Database db, KeyMeta m, RedisConfig config) {
    switch (m.type) {
      case STRING -> {
        if (m.value.length <= 20 && Args.parseLongOrNull(m.value) != null) {
          return "int";
        }
        return m.value.length <= EMBSTR_LIMIT ? "embstr" : "raw";
      }
      case LIST -> {
        return "quicklist";
      }
      case HASH -> {
        long entries = config.number("hash-max-listpack-entries");
        long value = config.number("hash-max-listpack-value");
        return m.size <= entries && allShort(db, m, RedisLayout.HASH_FIELD, value, true)
            ? "listpack" : "hashtable";
      }
      case SET -> {
        long entries = config.number("set-max-intset-entries");
        if (m.size > entries) {
          return "hashtable";
        }
        for (Row r : db.subRowsTagged(m, RedisLayout.SET_MEMBER, false, (int) m.size)) {
          if (Args.parseLongOrNull(RedisLayout.untag(r.clustering())) == null) {
            return "hashtable";
          }
        }
        return "intset";
      }
      case ZSET -> {
        long entries = config.number("zset-max-listpack-entries");
        long value = config.number("zset-max-listpack-value");
        return m.size <= entries && allShort(db, m, RedisLayout.ZSET_MEMBER, value, false)
            ? "listpack" : "skiplist";
      }
      case STREAM -> {
        return "stream";
      }
      default -> {
        return "unknown";
      }
    }
  }

  /** Whether every element (and, for a hash, every value) is at most {@code limit} bytes. */
  private static boolean allShort(Database db, KeyMeta m, byte tag, long limit,
                                  boolean values) {
    if (m.size == 0) {
      return true;
    }
    for (Row r : db.subRowsTagged(m, tag, false, (int) Math.min(m.size, Integer.MAX_VALUE))) {
      if (r.clustering().length - 1 > limit) {
        return false;
      }
      if (values) {
        byte[] v = Database.valueOf(r);
        if (v != null && v.length > limit) {
          return false;
        }
      }
    }
    return true;
  }

  private static void help(CommandContext c) {
    String[] lines = {
        "OBJECT <subcommand> [<arg> [value] [opt] ...]. Subcommands are:",
        "ENCODING <key>",
        "    Return the kind of internal representation used in order to store the value",
        "    associated with a <key>.",
        "FREQ <key>",
        "    Return the access frequency index of the <key>. The returned integer is",
        "    proportional to the logarithm of the recent access frequency of the key.",
        "IDLETIME <key>",
        "    Return the idle time of the <key>, that is the approximated number of",
        "    seconds elapsed since the last access to the key.",
        "REFCOUNT <key>",
        "    Return the number of references of the value associated with the specified",
        "    <key>.",
        "HELP",
        "    Prints this help."};
    c.reply().array(lines.length);
    for (String l : lines) {
      c.reply().status(l);
    }
  }
}
