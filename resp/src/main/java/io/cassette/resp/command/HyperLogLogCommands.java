package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.ADMIN;
import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.protocol.Reply;

/**
 * PFADD, PFCOUNT, PFMERGE and PFDEBUG (GETREG, ENCODING, TODENSE) on {@link HyperLogLog}
 * strings, as Redis 7.0: PFCOUNT of one key stores the cardinality it computed in the
 * value's header (so GET shows Redis's bytes), PFMERGE's target is dense when a source is.
 */
final class HyperLogLogCommands {
  private HyperLogLogCommands() {}

  static void register(CommandTable t) {
    t.add("pfadd", -2, WRITE | DENY_OOM | FAST, 1, 1, 1, HyperLogLogCommands::pfadd);
    t.add("pfcount", -2, CommandSpec.READONLY, 1, -1, 1, HyperLogLogCommands::pfcount);
    t.add("pfmerge", -2, WRITE | DENY_OOM, 1, -1, 1, HyperLogLogCommands::pfmerge);
    t.add("pfdebug", 3, WRITE | DENY_OOM | ADMIN, 2, 2, 1, HyperLogLogCommands::pfdebug);
  }

  private static long sparseMax(CommandContext c) {
    return c.server.config.number("hll-sparse-max-bytes");
  }

  /** The HLL stored in {@code m}, or Redis's WRONGTYPE error. */
  private static HyperLogLog of(KeyMeta m) {
    if (m.type != KeyType.STRING) {
      throw new RedisException(Errors.WRONGTYPE);
    }
    if (!HyperLogLog.valid(m.value)) {
      throw new RedisException(HyperLogLog.NOT_HLL);
    }
    return new HyperLogLog(m.value);
  }

  private static void pfadd(CommandContext c) {
    Database db = c.db();
    KeyMeta m = db.meta(c.arg(1));
    HyperLogLog h;
    int updated = 0;
    if (m == null) {
      h = HyperLogLog.create();
      updated++;
    } else {
      h = of(m);
    }
    long max = sparseMax(c);
    for (int j = 2; j < c.argc(); j++) {
      int r = h.add(c.arg(j), max);
      if (r == 1) {
        updated++;
      } else if (r == -1) {
        throw new RedisException(HyperLogLog.INVALID);
      }
    }
    if (updated > 0) {
      h.invalidateCache();
      StringCommands.put(db, c.arg(1), m, h.bytes(), m == null ? 0 : m.expireAtMs);
    }
    c.reply().integer(updated > 0 ? 1 : 0);
  }

  private static void pfcount(CommandContext c) {
    Database db = c.db();
    if (c.argc() > 2) {
      byte[] max = new byte[HyperLogLog.REGISTERS];
      for (int j = 1; j < c.argc(); j++) {
        KeyMeta m = db.meta(c.arg(j));
        if (m == null) {
          continue;
        }
        if (!of(m).mergeInto(max)) {
          throw new RedisException(HyperLogLog.INVALID);
        }
      }
      c.reply().integer(HyperLogLog.count(HyperLogLog.rawHistogram(max)));
      return;
    }
    KeyMeta m = db.meta(c.arg(1));
    if (m == null) {
      c.reply().integer(0);
      return;
    }
    HyperLogLog h = of(m);
    long card;
    if (h.cacheValid()) {
      card = h.cachedCard();
    } else {
      int[] histo = h.histogram();
      if (histo == null) {
        throw new RedisException(HyperLogLog.INVALID);
      }
      card = HyperLogLog.count(histo);
      h.cacheCard(card);
      StringCommands.put(db, c.arg(1), m, h.bytes(), m.expireAtMs); // Redis keeps the cache too
    }
    c.reply().integer(card);
  }

  private static void pfmerge(CommandContext c) {
    Database db = c.db();
    byte[] max = new byte[HyperLogLog.REGISTERS];
    boolean useDense = false;
    for (int j = 1; j < c.argc(); j++) {
      KeyMeta m = db.meta(c.arg(j));
      if (m == null) {
        continue;
      }
      HyperLogLog h = of(m);
      if (h.encoding() == HyperLogLog.DENSE) {
        useDense = true;
      }
      if (!h.mergeInto(max)) {
        throw new RedisException(HyperLogLog.INVALID);
      }
    }
    KeyMeta target = db.meta(c.arg(1));
    HyperLogLog h = target == null ? HyperLogLog.create() : of(target);
    if (useDense && !h.toDense()) {
      throw new RedisException(HyperLogLog.INVALID);
    }
    long sparseMax = sparseMax(c);
    for (int j = 0; j < HyperLogLog.REGISTERS; j++) {
      if (max[j] == 0) {
        continue;
      }
      if (h.encoding() == HyperLogLog.DENSE) {
        if (max[j] > HyperLogLog.denseGet(h.buf, HyperLogLog.HDR, j)) {
          HyperLogLog.denseSet(h.buf, HyperLogLog.HDR, j, max[j]);
        }
      } else {
        h.sparseSet(j, max[j], sparseMax);
      }
    }
    h.invalidateCache();
    StringCommands.put(db, c.arg(1), target, h.bytes(), target == null ? 0 : target.expireAtMs);
    c.reply().ok();
  }

  private static void pfdebug(CommandContext c) {
    Database db = c.db();
    KeyMeta m = db.meta(c.arg(2));
    if (m == null) {
      throw new RedisException("ERR The specified key does not exist");
    }
    HyperLogLog h = of(m);
    String sub = c.argString(1).toLowerCase(java.util.Locale.ROOT);
    Reply r = c.reply();
    switch (sub) {
      case "getreg" -> {
        if (h.encoding() == HyperLogLog.SPARSE) {
          if (!h.toDense()) {
            throw new RedisException(HyperLogLog.INVALID);
          }
          StringCommands.put(db, c.arg(2), m, h.bytes(), m.expireAtMs);
        }
        r.array(HyperLogLog.REGISTERS);
        for (int i = 0; i < HyperLogLog.REGISTERS; i++) {
          r.integer(HyperLogLog.denseGet(h.buf, HyperLogLog.HDR, i));
        }
      }
      case "encoding" -> r.status(h.encoding() == HyperLogLog.DENSE ? "dense" : "sparse");
      case "todense" -> {
        boolean conv = false;
        if (h.encoding() == HyperLogLog.SPARSE) {
          if (!h.toDense()) {
            throw new RedisException(HyperLogLog.INVALID);
          }
          conv = true;
          StringCommands.put(db, c.arg(2), m, h.bytes(), m.expireAtMs);
        }
        r.integer(conv ? 1 : 0);
      }
      default -> throw new RedisException("ERR Unknown PFDEBUG subcommand '" + c.argString(1)
          + "'");
    }
  }
}
