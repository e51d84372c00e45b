package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.resp.protocol.LongDouble;
import io.cassette.resp.protocol.Reply;
import io.cassette.storage.Row;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hash commands. Each field is a sub-row {@code 'f' | field}; the metadata row keeps the
 * field count so HLEN is one read.
 */
final class HashCommands {
  private HashCommands() {}

  static void register(CommandTable t) {
    t.add("hset", -4, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> {
      if (c.argc() % 2 != 0) {
        throw new RedisException(Errors.wrongArity("hset"));
      }
      if (!CollectionInTurns.arguments(c, 2, 2, (from, to) -> hset(c, false, from, to), (r, n) -> r.integer(n))) {
        c.reply().integer(hset(c, false, 2, c.argc()));
      }
    });
    t.add("hmset", -4, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> {
      if (c.argc() % 2 != 0) {
        throw new RedisException(Errors.wrongArity("hmset"));
      }
      if (!CollectionInTurns.arguments(c, 2, 2, (from, to) -> hset(c, false, from, to), (r, n) -> r.ok())) {
        hset(c, false, 2, c.argc());
        c.reply().ok();
      }
    });
    t.add("hsetnx", 4, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> c.reply().integer(hset(c, true, 2, c.argc())));
    t.add("hget", 3, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.HASH);
      c.reply().bulk(m == null ? null : c.db().subValue(m, field(c.arg(2))));
    });
    t.add("hmget", -3, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.HASH);
      c.reply().array(c.argc() - 2);
      for (int i = 2; i < c.argc(); i++) {
        c.reply().bulk(m == null ? null : c.db().subValue(m, field(c.arg(i))));
      }
    });
    t.add("hgetall", 2, READONLY, 1, 1, 1, c -> fieldsThen(c, (reply, fields) -> {
      reply.map(fields.size());
      for (byte[][] f : fields) {
        reply.bulk(f[0]);
        reply.bulk(f[1]);
      }
    }));
    t.add("hkeys", 2, READONLY, 1, 1, 1, c -> fieldsThen(c, (reply, fields) -> {
      reply.array(fields.size());
      for (byte[][] f : fields) {
        reply.bulk(f[0]);
      }
    }));
    t.add("hvals", 2, READONLY, 1, 1, 1, c -> fieldsThen(c, (reply, fields) -> {
      reply.array(fields.size());
      for (byte[][] f : fields) {
        reply.bulk(f[1]);
      }
    }));
    t.add("hdel", -3, WRITE | FAST, 1, 1, 1, HashCommands::hdel);
    t.add("hexists", 3, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.HASH);
      c.reply().integer(m != null && c.db().subExists(m, field(c.arg(2))) ? 1 : 0);
    });
    t.add("hlen", 2, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.HASH);
      c.reply().integer(m == null ? 0 : m.size);
    });
    t.add("hstrlen", 3, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.HASH);
      byte[] v = m == null ? null : c.db().subValue(m, field(c.arg(2)));
      c.reply().integer(v == null ? 0 : v.length);
    });
    t.add("hincrby", 4, WRITE | DENY_OOM | FAST, 1, 1, 1, HashCommands::hincrby);
    t.add("hincrbyfloat", 4, WRITE | DENY_OOM | FAST, 1, 1, 1, HashCommands::hincrbyfloat);
    t.add("hscan", -3, READONLY, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.HASH);
      ScanHelper.scanSubRows(c, m, RedisLayout.HASH_FIELD, true);
    });
    t.add("hrandfield", -2, READONLY, 1, 1, 1, HashCommands::hrandfield);
  }

  static byte[] field(byte[] name) {
    return RedisLayout.tagged(RedisLayout.HASH_FIELD, name);
  }

  /**
   * The hash's {field, value} pairs, then {@code then} with them; a huge hash is read in turns
   * ({@link CollectionInTurns#allRows}).
   */
  private static void fieldsThen(CommandContext c, KeyMeta m,
                                 java.util.function.BiConsumer<io.cassette.resp.protocol.Reply, List<byte[][]>> then) {
    CollectionInTurns.allRows(c, m, RedisLayout.HASH_FIELD,
        r -> new byte[][] {RedisLayout.untag(r.clustering()), Database.valueOf(r)},
        f -> 16 + CollectionInTurns.held(f[0]) + CollectionInTurns.held(f[1]), then);
  }

  private static void fieldsThen(CommandContext c,
                                 java.util.function.BiConsumer<io.cassette.resp.protocol.Reply, List<byte[][]>> then) {
    fieldsThen(c, Keys.read(c, c.arg(1), KeyType.HASH), then);
  }

  /** HSET/HSETNX of the pairs at arguments {@code from..to-1}, one commit: returns the number of fields added. */
  private static long hset(CommandContext c, boolean onlyNew, int from, int to) {
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.HASH);
    KeyMeta old = m == null ? null : KeyCommands.copyOf(m);
    if (m == null) {
      m = db.newCollection(KeyType.HASH);
    }
    Batch b = db.batch();
    long added = 0;
    if (to - from == 2) { // one pair, the usual HSET: no map of distinct fields
      byte[] f = field(c.arg(from));
      boolean exists = old != null && db.subExists(m, f);
      if (exists && onlyNew) {
        return 0;
      }
      if (!exists) {
        added++;
      }
      b.putSub(m, f, c.arg(from + 1));
      return storeHset(db, key, old, m, b, added);
    }
    // Last value wins for a field given twice; one row per field in the batch.
    Map<ByteBuffer, byte[]> fields = new LinkedHashMap<>();
    for (int i = from; i + 1 < to; i += 2) {
      fields.put(ByteBuffer.wrap(field(c.arg(i))), c.arg(i + 1));
    }
    for (Map.Entry<ByteBuffer, byte[]> e : fields.entrySet()) {
      byte[] f = e.getKey().array();
      boolean exists = old != null && db.subExists(m, f);
      if (exists && onlyNew) {
        return 0;
      }
      if (!exists) {
        added++;
      }
      b.putSub(m, f, e.getValue());
    }
    return storeHset(db, key, old, m, b, added);
  }

  /** Commits an HSET's batch with the hash's new size; returns {@code added}. */
  private static long storeHset(Database db, byte[] key, KeyMeta old, KeyMeta m, Batch b, long added) {
    m.size += added;
    if (old == null || added > 0) {
      db.store(b, key, old, m);
    }
    b.commit();
    return added;
  }

  private static void hdel(CommandContext c) {
    if (!CollectionInTurns.arguments(c, 2, 1, (from, to) -> hdel(c, from, to), (r, n) -> r.integer(n))) {
      c.reply().integer(hdel(c, 2, c.argc()));
    }
  }

  /** HDEL of the fields at arguments {@code from..to-1}, one commit; returns how many were removed. */
  private static long hdel(CommandContext c, int from, int to) {
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.HASH);
    if (m == null) {
      return 0;
    }
    KeyMeta old = KeyCommands.copyOf(m);
    Batch b = db.batch();
    long removed = 0;
    Set<ByteBuffer> seen = new HashSet<>();
    for (int i = from; i < to; i++) {
      byte[] f = field(c.arg(i));
      if (seen.add(ByteBuffer.wrap(f)) && db.subExists(m, f)) {
        b.deleteSub(m, f);
        removed++;
      }
    }
    m.size -= removed;
    if (m.size <= 0) {
      db.remove(b, key, old);
    } else if (removed > 0) {
      db.store(b, key, old, m);
    }
    b.commit();
    return removed;
  }

  private static void hincrby(CommandContext c) {
    long by = Args.parseLong(c.arg(3));
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.HASH);
    KeyMeta old = m == null ? null : KeyCommands.copyOf(m);
    if (m == null) {
      m = db.newCollection(KeyType.HASH);
    }
    byte[] f = field(c.arg(2));
    byte[] cur = old == null ? null : db.subValue(m, f);
    long value = 0;
    if (cur != null) {
      Long v = Args.parseLongOrNull(cur);
      if (v == null) {
        throw new RedisException(Errors.HASH_NOT_INTEGER);
      }
      value = v;
    }
    long result;
    try {
      result = Math.addExact(value, by);
    } catch (ArithmeticException e) {
      throw new RedisException(Errors.OVERFLOW);
    }
    Batch b = db.batch();
    b.putSub(m, f, Long.toString(result).getBytes(StandardCharsets.US_ASCII));
    if (cur == null) {
      m.size++;
      db.store(b, key, old, m);
    }
    b.commit();
    c.reply().integer(result);
  }

  private static void hincrbyfloat(CommandContext c) {
    double by = Args.parseDouble(c.arg(3));
    if (Double.isNaN(by) || Double.isInfinite(by)) {
      throw new RedisException("ERR value is NaN or Infinity"); // t_hash.c: the increment itself
    }
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.HASH);
    KeyMeta old = m == null ? null : KeyCommands.copyOf(m);
    if (m == null) {
      m = db.newCollection(KeyType.HASH);
    }
    byte[] f = field(c.arg(2));
    byte[] cur = old == null ? null : db.subValue(m, f);
    double value = 0;
    if (cur != null) {
      Double v = Args.parseDoubleOrNull(cur);
      if (v == null) {
        throw new RedisException(Errors.HASH_NOT_FLOAT);
      }
      value = v;
    }
    double result = value + by;
    if (Double.isNaN(result) || Double.isInfinite(result)) {
      throw new RedisException(Errors.INCR_NAN_OR_INF);
    }
    java.math.BigDecimal sum = LongDouble.add(
        cur == null ? java.math.BigDecimal.ZERO : LongDouble.parse(Args.str(cur), value),
        LongDouble.parse(c.argString(3), by));
    byte[] text = LongDouble.format(sum).getBytes(StandardCharsets.US_ASCII);
    Batch b = db.batch();
    b.putSub(m, f, text);
    if (cur == null) {
      m.size++;
      db.store(b, key, old, m);
    }
    b.commit();
    c.reply().bulk(text);
  }

  private static void hrandfield(CommandContext c) {
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.HASH);
    if (c.argc() == 2) {
      fieldsThen(c, m, (r, fields) -> {
        if (fields.isEmpty()) {
          r.nullBulk();
        } else {
          r.bulk(fields.get(ThreadLocalRandom.current().nextInt(fields.size()))[0]);
        }
      });
      return;
    }
    long count = Args.parseNegatableLong(c.arg(2));
    boolean withValues = false;
    if (c.argc() == 4 && Args.is(c.arg(3), "withvalues")) {
      withValues = true;
    } else if (c.argc() > 3) {
      throw new RedisException(Errors.SYNTAX);
    }
    if (withValues && (count > Long.MAX_VALUE / 2 || count < -Long.MAX_VALUE / 2)) {
      throw new RedisException("ERR value is out of range"); // field and value: twice the count
    }
    boolean values = withValues;
    fieldsThen(c, m, (r, fields) -> {
      List<byte[][]> picked = ScanHelper.randomPick(fields, count);
      if (values && r.resp3()) {
        r.array(picked.size());
        for (byte[][] f : picked) {
          r.array(2);
          r.bulk(f[0]);
          r.bulk(f[1]);
        }
        return;
      }
      r.array(picked.size() * (values ? 2 : 1));
      for (byte[][] f : picked) {
        r.bulk(f[0]);
        if (values) {
          r.bulk(f[1]);
        }
      }
    });
  }


}
