package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.protocol.LongDouble;
import io.cassette.resp.protocol.Reply;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * String commands: GET, SET (all options), SETNX, SETEX, PSETEX, GETSET, GETDEL, GETEX, MGET,
 * MSET, MSETNX, INCR, DECR, INCRBY, DECRBY, INCRBYFLOAT, APPEND, STRLEN, GETRANGE, SETRANGE.
 * A string lives inline in its key's metadata row: one read, one write per command.
 */
final class StringCommands {
  /** Redis's largest string (SETRANGE/APPEND), its default proto-max-bulk-len. */

  private StringCommands() {}

  static void register(CommandTable t) {
    t.add("get", 2, READONLY | FAST, 1, 1, 1, c -> {
      if (c.db().cachedString(c.arg(1), c.reply()::bulk)) { // the value copied once: cache to reply
        c.server.stats.keyspaceHits.incrementAndGet();
        return;
      }
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.STRING);
      c.reply().bulk(m == null ? null : m.value);
    });
    t.add("set", -3, WRITE | DENY_OOM, 1, 1, 1, StringCommands::set);
    t.add("setnx", 3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> {
      Database db = c.db();
      if (db.meta(c.arg(1)) != null) {
        c.reply().integer(0);
        return;
      }
      put(db, c.arg(1), null, c.arg(2), 0);
      c.reply().integer(1);
    });
    t.add("setex", 4, WRITE | DENY_OOM, 1, 1, 1, c -> setWithTtl(c, 1000));
    t.add("psetex", 4, WRITE | DENY_OOM, 1, 1, 1, c -> setWithTtl(c, 1));
    t.add("getset", 3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> {
      Database db = c.db();
      KeyMeta old = Keys.typed(c, c.arg(1), KeyType.STRING);
      put(db, c.arg(1), old, c.arg(2), 0);
      c.reply().bulk(old == null ? null : old.value);
    });
    t.add("getdel", 2, WRITE | FAST, 1, 1, 1, c -> {
      Database db = c.db();
      KeyMeta old = Keys.typed(c, c.arg(1), KeyType.STRING);
      if (old != null) {
        Batch b = db.batch();
        db.remove(b, c.arg(1), old);
        b.commit();
      }
      c.reply().bulk(old == null ? null : old.value);
    });
    t.add("getex", -2, WRITE | FAST, 1, 1, 1, StringCommands::getex);
    t.add("mget", -2, READONLY | FAST, 1, -1, 1, StringCommands::mget);
    t.add("mset", -3, WRITE | DENY_OOM, 1, -1, 2, c -> {
      if (c.argc() % 2 != 1) {
        throw new RedisException(Errors.wrongArity("mset"));
      }
      Database db = c.db();
      KeysInTurns.run(c, 1, 2, i -> put(db, c.arg(i), db.meta(c.arg(i)), c.arg(i + 1), 0), Reply::ok);
    });
    t.add("msetnx", -3, WRITE | DENY_OOM, 1, -1, 2, c -> {
      if (c.argc() % 2 != 1) {
        throw new RedisException(Errors.wrongArity("msetnx"));
      }
      if (c.mayBlock && (c.argc() - 1) / 2 > KeysInTurns.KEYS_PER_TURN) {
        msetnxInTurns(c);
        return;
      }
      for (int i = 1; i < c.argc(); i += 2) {
        if (c.db().meta(c.arg(i)) != null) {
          c.reply().integer(0);
          return;
        }
      }
      mset(c);
      c.reply().integer(1);
    });
    t.add("incr", 2, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> incrBy(c, 1));
    t.add("decr", 2, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> incrBy(c, -1));
    t.add("incrby", 3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> incrBy(c, Args.parseLong(c.arg(2))));
    t.add("decrby", 3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> {
      long by = Args.parseLong(c.arg(2));
      if (by == Long.MIN_VALUE) {
        throw new RedisException("ERR decrement would overflow");
      }
      incrBy(c, -by);
    });
    t.add("incrbyfloat", 3, WRITE | DENY_OOM | FAST, 1, 1, 1, StringCommands::incrByFloat);
    t.add("append", 3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> {
      Database db = c.db();
      KeyMeta m = Keys.typed(c, c.arg(1), KeyType.STRING);
      byte[] add = c.arg(2);
      byte[] value;
      if (m == null) {
        value = add;
      } else {
        checkSize(c, m.value.length, add.length);
        value = Arrays.copyOf(m.value, m.value.length + add.length);
        System.arraycopy(add, 0, value, m.value.length, add.length);
      }
      put(db, c.arg(1), m, value, m == null ? 0 : m.expireAtMs);
      c.reply().integer(value.length);
    });
    t.add("strlen", 2, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.STRING);
      c.reply().integer(m == null ? 0 : m.value.length);
    });
    t.add("getrange", 4, READONLY, 1, 1, 1, StringCommands::getrange);
    t.add("substr", 4, READONLY, 1, 1, 1, StringCommands::getrange);
    t.add("setrange", 4, WRITE | DENY_OOM, 1, 1, 1, StringCommands::setrange);
  }

  /** Stores {@code value} under {@code key} (replacing {@code old}, which may be any type). */
  static void put(Database db, byte[] key, KeyMeta old, byte[] value, long expireAtMs) {
    Batch b = db.batch();
    if (expireAtMs != 0 && expireAtMs <= System.currentTimeMillis()) {
      if (old != null) { // an expiry already passed (SET ... EXAT past) deletes, as Redis 7
        db.remove(b, key, old);
      }
    } else {
      db.store(b, key, old, KeyMeta.string(value, expireAtMs));
    }
    b.commit();
  }

  /**
   * Redis's checkStringLength: a string grown to {@code size + append} bytes must stay within
   * proto-max-bulk-len (ours is derived from the heap, so the value fits in memory); the sum
   * is checked without overflowing, so huge offsets get this error too.
   */
  private static void checkSize(CommandContext c, long size, long append) {
    if (append > c.server.maxStringLength - size) {
      throw new RedisException(Errors.STRING_TOO_LONG);
    }
  }

  /**
   * MGET in turns: the values are written as they are read into a reply of their own (direct
   * memory, as the client's reply), moved to the client's at the end. One larger than the
   * client's hard output limit would close it anyway: it is closed as soon as it passes.
   */
  private static void mget(CommandContext c) {
    Database db = c.db();
    int keys = c.argc() - 1;
    if (!c.mayBlock || keys <= KeysInTurns.KEYS_PER_TURN) {
      c.reply().array(keys);
      for (int i = 1; i < c.argc(); i++) {
        KeyMeta m = db.meta(c.arg(i));
        c.reply().bulk(m == null || m.type != KeyType.STRING ? null : m.value);
      }
      return;
    }
    io.netty.buffer.ByteBuf values = c.session.channel.alloc().ioBuffer();
    Reply own = new Reply();
    own.protocol(c.session.protocol());
    own.target(values);
    own.array(keys);
    long hard = c.server.outputs.normal().hard();
    KeysInTurns.run(c, 1, 1, i -> {
      KeyMeta m = db.meta(c.arg(i));
      own.bulk(m == null || m.type != KeyType.STRING ? null : m.value);
      if (hard > 0 && values.readableBytes() > hard) {
        throw new RedisException("ERR MGET reply exceeds the client output buffer limit");
      }
    }, r -> r.buffer().writeBytes(values), values::release);
  }

  /**
   * MSETNX of more keys than a turn: the keys are checked in turns, then set in turns
   * ({@link KeysInTurns}). Outside MULTI it is therefore not atomic: a key another client creates
   * meanwhile is never overwritten (it is skipped) and the reply is still 1. Inside EXEC it runs whole.
   */
  private static void msetnxInTurns(CommandContext c) {
    Database db = c.db();
    int[] next = {1};
    boolean[] setting = {false};
    boolean[] exists = {false};
    KeysInTurns.steps(c, () -> {
      for (int n = 0; n < KeysInTurns.KEYS_PER_TURN && next[0] < c.argc(); n++, next[0] += 2) {
        KeyMeta m = db.meta(c.arg(next[0]));
        if (!setting[0] && m != null) {
          exists[0] = true;
          return true;
        }
        if (setting[0] && m == null) {
          put(db, c.arg(next[0]), null, c.arg(next[0] + 1), 0);
        }
      }
      if (next[0] < c.argc()) {
        return false;
      }
      if (!setting[0]) {
        setting[0] = true;
        next[0] = 1;
        return false;
      }
      return true;
    }, r -> r.integer(exists[0] ? 0 : 1), () -> { });
  }

  private static void mset(CommandContext c) {
    Database db = c.db();
    for (int i = 1; i < c.argc(); i += 2) {
      if (!db.setBlind(c.arg(i), c.arg(i + 1), 0)) {
        put(db, c.arg(i), db.meta(c.arg(i)), c.arg(i + 1), 0);
      }
    }
  }

  private static void setWithTtl(CommandContext c, long unit) {
    long ttl = Args.parseLong(c.arg(2));
    if (ttl <= 0) {
      throw new RedisException(Errors.invalidExpire(c.spec.name()));
    }
    long at;
    try {
      at = Math.addExact(Math.multiplyExact(ttl, unit), System.currentTimeMillis());
    } catch (ArithmeticException e) {
      throw new RedisException(Errors.invalidExpire(c.spec.name()));
    }
    Database db = c.db();
    if (!db.setBlind(c.arg(1), c.arg(3), at)) {
      put(db, c.arg(1), db.meta(c.arg(1)), c.arg(3), at);
    }
    c.reply().ok();
  }

  /** Parses EX/PX/EXAT/PXAT's value into an absolute time in ms (Redis's checks and texts). */
  private static long expireAt(CommandContext c, byte[] value, long unit, boolean absolute) {
    long v = Args.parseLong(value);
    if (v <= 0) {
      throw new RedisException(Errors.invalidExpire(c.spec.name()));
    }
    try {
      long ms = Math.multiplyExact(v, unit);
      return absolute ? ms : Math.addExact(ms, System.currentTimeMillis());
    } catch (ArithmeticException e) {
      throw new RedisException(Errors.invalidExpire(c.spec.name()));
    }
  }

  private static void set(CommandContext c) {
    boolean nx = false;
    boolean xx = false;
    boolean get = false;
    boolean keepTtl = false;
    byte[] expireArg = null;
    long unit = 0;
    boolean absolute = false;
    for (int i = 3; i < c.argc(); i++) {
      byte[] a = c.arg(i);
      boolean hasNext = i + 1 < c.argc();
      if (Args.is(a, "nx") && !xx) {
        nx = true;
      } else if (Args.is(a, "xx") && !nx) {
        xx = true;
      } else if (Args.is(a, "get")) {
        get = true;
      } else if (Args.is(a, "keepttl") && expireArg == null) {
        keepTtl = true;
      } else if (hasNext && expireArg == null && !keepTtl
          && (Args.is(a, "ex") || Args.is(a, "px") || Args.is(a, "exat") || Args.is(a, "pxat"))) {
        unit = Args.is(a, "ex") || Args.is(a, "exat") ? 1000 : 1;
        absolute = Args.is(a, "exat") || Args.is(a, "pxat");
        expireArg = c.arg(++i);
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    long expireAtMs = expireArg == null ? 0 : expireAt(c, expireArg, unit, absolute);
    Database db = c.db();
    byte[] key = c.arg(1);
    if (!nx && !xx && !get && !keepTtl && db.setBlind(key, c.arg(2), expireAtMs)) {
      c.reply().ok(); // nothing of the old value was needed
      return;
    }
    KeyMeta old = db.meta(key);
    if (get && old != null && old.type != KeyType.STRING) {
      throw new RedisException(Errors.WRONGTYPE);
    }
    boolean apply = !(nx && old != null) && !(xx && old == null);
    if (apply) {
      if (keepTtl && old != null) {
        expireAtMs = old.expireAtMs;
      }
      put(db, key, old, c.arg(2), expireAtMs);
    }
    if (get) {
      c.reply().bulk(old == null ? null : old.value);
    } else if (apply) {
      c.reply().ok();
    } else {
      c.reply().nullBulk();
    }
  }

  private static void getex(CommandContext c) {
    long expireAtMs = -1; // -1: leave as is, 0: PERSIST
    for (int i = 2; i < c.argc(); i++) {
      byte[] a = c.arg(i);
      boolean hasNext = i + 1 < c.argc();
      if (expireAtMs != -1) {
        throw new RedisException(Errors.SYNTAX);
      }
      if (Args.is(a, "persist")) {
        expireAtMs = 0;
      } else if (hasNext && (Args.is(a, "ex") || Args.is(a, "px") || Args.is(a, "exat")
          || Args.is(a, "pxat"))) {
        long unit = Args.is(a, "ex") || Args.is(a, "exat") ? 1000 : 1;
        boolean absolute = Args.is(a, "exat") || Args.is(a, "pxat");
        expireAtMs = expireAt(c, c.arg(++i), unit, absolute);
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    Database db = c.db();
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.STRING);
    if (m == null) {
      c.reply().nullBulk();
      return;
    }
    if (expireAtMs != -1 && expireAtMs != m.expireAtMs) {
      Batch b = db.batch();
      if (expireAtMs != 0 && expireAtMs <= System.currentTimeMillis()) {
        db.remove(b, c.arg(1), m);
      } else {
        db.store(b, c.arg(1), m, KeyMeta.string(m.value, expireAtMs));
      }
      b.commit();
    }
    c.reply().bulk(m.value);
  }

  private static void incrBy(CommandContext c, long by) {
    Database db = c.db();
    if (db.incrCached(c.arg(1), by, c.reply()::integer)) {
      return; // a cached counter: no KeyMeta, boxed long or string on the way
    }
    KeyMeta m = Keys.typed(c, c.arg(1), KeyType.STRING);
    long current = 0;
    if (m != null) {
      Long v = Args.parseLongOrNull(m.value);
      if (v == null) {
        throw new RedisException(Errors.NOT_INTEGER);
      }
      current = v;
    }
    long result;
    try {
      result = Math.addExact(current, by);
    } catch (ArithmeticException e) {
      throw new RedisException(Errors.OVERFLOW);
    }
    put(db, c.arg(1), m, Long.toString(result).getBytes(StandardCharsets.US_ASCII),
        m == null ? 0 : m.expireAtMs);
    c.reply().integer(result);
  }

  private static void incrByFloat(CommandContext c) {
    Database db = c.db();
    KeyMeta m = Keys.typed(c, c.arg(1), KeyType.STRING);
    double by = Args.parseDouble(c.arg(2));
    double current = 0;
    if (m != null) {
      Double v = Args.parseDoubleOrNull(m.value);
      if (v == null) {
        throw new RedisException(Errors.NOT_FLOAT);
      }
      current = v;
    }
    double result = current + by;
    if (Double.isNaN(result) || Double.isInfinite(result)) {
      throw new RedisException(Errors.INCR_NAN_OR_INF);
    }
    java.math.BigDecimal sum = LongDouble.add(
        m == null ? java.math.BigDecimal.ZERO : LongDouble.parse(Args.str(m.value), current),
        LongDouble.parse(c.argString(2), by));
    byte[] text = LongDouble.format(sum).getBytes(StandardCharsets.US_ASCII);
    put(db, c.arg(1), m, text, m == null ? 0 : m.expireAtMs);
    c.reply().bulk(text);
  }

  private static void getrange(CommandContext c) {
    long start = Args.parseLong(c.arg(2));
    long end = Args.parseLong(c.arg(3));
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.STRING);
    byte[] v = m == null ? new byte[0] : m.value;
    long len = v.length;
    if (start < 0 && end < 0 && start > end) {
      c.reply().bulk(new byte[0]);
      return;
    }
    if (start < 0) {
      start = Math.max(0, len + start);
    }
    if (end < 0) {
      end = Math.max(0, len + end);
    }
    if (end >= len) {
      end = len - 1;
    }
    if (len == 0 || start > end) {
      c.reply().bulk(new byte[0]);
      return;
    }
    c.reply().bulk(v, (int) start, (int) (end - start + 1));
  }

  private static void setrange(CommandContext c) {
    long offset = Args.parseLong(c.arg(2));
    if (offset < 0) {
      throw new RedisException(Errors.OFFSET_OUT_OF_RANGE);
    }
    byte[] patch = c.arg(3);
    Database db = c.db();
    KeyMeta m = Keys.typed(c, c.arg(1), KeyType.STRING);
    byte[] v = m == null ? new byte[0] : m.value;
    if (patch.length == 0) {
      c.reply().integer(v.length);
      return;
    }
    checkSize(c, offset, patch.length);
    int newLen = (int) Math.max(v.length, offset + patch.length);
    byte[] out = Arrays.copyOf(v, newLen);
    System.arraycopy(patch, 0, out, (int) offset, patch.length);
    put(db, c.arg(1), m, out, m == null ? 0 : m.expireAtMs);
    c.reply().integer(out.length);
  }
}
