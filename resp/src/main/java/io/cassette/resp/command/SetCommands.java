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
import io.cassette.resp.protocol.Reply;
import io.cassette.storage.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * Set commands. Each member is a sub-row {@code 'e' | member} with an empty value; the
 * metadata keeps the cardinality. Members come back in byte order.
 */
final class SetCommands {
  private static final byte[] EMPTY = new byte[0];

  private SetCommands() {}

  static void register(CommandTable t) {
    t.add("sadd", -3, WRITE | DENY_OOM | FAST, 1, 1, 1, SetCommands::sadd);
    t.add("srem", -3, WRITE | FAST, 1, 1, 1, SetCommands::srem);
    t.add("smembers", 2, READONLY, 1, 1, 1, c -> combineThen(c, 1, c.argc(), Op.UNION, (r, ms) -> reply(r, ms)));
    t.add("sismember", 3, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.SET);
      c.reply().integer(m != null && c.db().subExists(m, member(c.arg(2))) ? 1 : 0);
    });
    t.add("smismember", -3, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.SET);
      c.reply().array(c.argc() - 2);
      for (int i = 2; i < c.argc(); i++) {
        c.reply().integer(m != null && c.db().subExists(m, member(c.arg(i))) ? 1 : 0);
      }
    });
    t.add("scard", 2, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.SET);
      c.reply().integer(m == null ? 0 : m.size);
    });
    t.add("spop", -2, WRITE | FAST, 1, 1, 1, SetCommands::spop);
    t.add("srandmember", -2, READONLY, 1, 1, 1, SetCommands::srandmember);
    t.add("smove", 4, WRITE | FAST, 1, 2, 1, SetCommands::smove);
    t.add("sinter", -2, READONLY, 1, -1, 1, c -> combineThen(c, 1, c.argc(), Op.INTER, (r, ms) -> reply(r, ms)));
    t.add("sunion", -2, READONLY, 1, -1, 1, c -> combineThen(c, 1, c.argc(), Op.UNION, (r, ms) -> reply(r, ms)));
    t.add("sdiff", -2, READONLY, 1, -1, 1, c -> combineThen(c, 1, c.argc(), Op.DIFF, (r, ms) -> reply(r, ms)));
    t.add("sinterstore", -3, WRITE | DENY_OOM, 1, -1, 1, c -> store(c, Op.INTER));
    t.add("sunionstore", -3, WRITE | DENY_OOM, 1, -1, 1, c -> store(c, Op.UNION));
    t.add("sdiffstore", -3, WRITE | DENY_OOM, 1, -1, 1, c -> store(c, Op.DIFF));
    t.add("sintercard", -3, READONLY, SetCommands::sintercard);
    t.add("sscan", -3, READONLY, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.SET);
      ScanHelper.scanSubRows(c, m, RedisLayout.SET_MEMBER, false);
    });
  }

  private enum Op { INTER, UNION, DIFF }

  static byte[] member(byte[] name) {
    return RedisLayout.tagged(RedisLayout.SET_MEMBER, name);
  }

  /** Members of the set at {@code key} in byte order; empty when missing. */
  static List<byte[]> members(CommandContext c, Database db, byte[] key) {
    KeyMeta m = db.meta(key);
    if (m == null) {
      return List.of();
    }
    if (m.type != KeyType.SET) {
      throw new RedisException(Errors.WRONGTYPE);
    }
    List<byte[]> out = new ArrayList<>((int) Math.min(m.size, 1 << 16));
    for (Row r : db.subRowsTagged(m, RedisLayout.SET_MEMBER, false, Integer.MAX_VALUE)) {
      out.add(RedisLayout.untag(r.clustering()));
    }
    return out;
  }

  private static void sadd(CommandContext c) {
    if (!CollectionInTurns.arguments(c, 2, 1, (from, to) -> sadd(c, from, to), (r, n) -> r.integer(n))) {
      c.reply().integer(sadd(c, 2, c.argc()));
    }
  }

  /** SADD of the members at arguments {@code from..to-1}, one commit; returns how many were added. */
  private static long sadd(CommandContext c, int from, int to) {
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.SET);
    KeyMeta old = m == null ? null : KeyCommands.copyOf(m);
    if (m == null) {
      m = db.newCollection(KeyType.SET);
    }
    Set<ByteBuffer> seen = new LinkedHashSet<>();
    Batch b = db.batch();
    long added = 0;
    for (int i = from; i < to; i++) {
      byte[] e = member(c.arg(i));
      if (!seen.add(ByteBuffer.wrap(e))) {
        continue;
      }
      if (old == null || !db.subExists(m, e)) {
        b.putSub(m, e, EMPTY);
        added++;
      }
    }
    m.size += added;
    if (added > 0) {
      db.store(b, key, old, m);
    }
    b.commit();
    return added;
  }

  private static void srem(CommandContext c) {
    if (!CollectionInTurns.arguments(c, 2, 1, (from, to) -> srem(c, from, to), (r, n) -> r.integer(n))) {
      c.reply().integer(srem(c, 2, c.argc()));
    }
  }

  /** SREM of the members at arguments {@code from..to-1}, one commit; returns how many were removed. */
  private static long srem(CommandContext c, int from, int to) {
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.SET);
    if (m == null) {
      return 0;
    }
    KeyMeta old = KeyCommands.copyOf(m);
    Set<ByteBuffer> seen = new LinkedHashSet<>();
    Batch b = db.batch();
    long removed = 0;
    for (int i = from; i < to; i++) {
      byte[] e = member(c.arg(i));
      if (seen.add(ByteBuffer.wrap(e)) && db.subExists(m, e)) {
        b.deleteSub(m, e);
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

  private static void spop(CommandContext c) {
    long count = -1;
    if (c.argc() == 3) {
      Long n = Args.parseLongOrNull(c.arg(2));
      if (n == null || n < 0) {
        throw new RedisException(Errors.POSITIVE_COUNT);
      }
      count = n;
    } else if (c.argc() > 3) {
      throw new RedisException(Errors.SYNTAX);
    }
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.SET);
    Reply r = c.reply();
    if (m == null) {
      if (count < 0) {
        r.nullBulk();
      } else {
        r.emptyArray();
      }
      return;
    }
    List<byte[]> all = members(c, db, key);
    List<byte[]> picked = ScanHelper.randomPick(all, count < 0 ? 1 : count);
    KeyMeta old = KeyCommands.copyOf(m);
    Batch b = db.batch();
    for (byte[] p : picked) {
      b.deleteSub(m, member(p));
    }
    m.size -= picked.size();
    if (m.size <= 0) {
      db.remove(b, key, old);
    } else {
      db.store(b, key, old, m);
    }
    b.commit();
    if (count < 0) {
      r.bulk(picked.get(0));
      return;
    }
    r.set(picked.size());
    for (byte[] p : picked) {
      r.bulk(p);
    }
  }

  private static void srandmember(CommandContext c) {
    if (c.argc() > 3) {
      throw new RedisException(Errors.SYNTAX);
    }
    Long count = c.argc() == 3 ? Args.parseNegatableLong(c.arg(2)) : null;
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.SET);
    CollectionInTurns.allRows(c, m, RedisLayout.SET_MEMBER, row -> RedisLayout.untag(row.clustering()),
        CollectionInTurns::held, (r, all) -> {
      if (count == null) {
        if (all.isEmpty()) {
          r.nullBulk();
        } else {
          r.bulk(ScanHelper.randomPick(all, 1).get(0));
        }
        return;
      }
      List<byte[]> picked = ScanHelper.randomPick(all, count);
      r.array(picked.size());
      for (byte[] p : picked) {
        r.bulk(p);
      }
    });
  }


  private static void smove(CommandContext c) {
    Database db = c.db();
    byte[] src = c.arg(1);
    byte[] dst = c.arg(2);
    byte[] e = member(c.arg(3));
    KeyMeta s = Keys.typed(c, src, KeyType.SET);
    KeyMeta d = Keys.typed(c, dst, KeyType.SET);
    if (s == null || !db.subExists(s, e)) {
      c.reply().integer(0);
      return;
    }
    if (java.util.Arrays.equals(src, dst)) {
      c.reply().integer(1);
      return;
    }
    KeyMeta sOld = KeyCommands.copyOf(s);
    Batch b = db.batch();
    b.deleteSub(s, e);
    s.size--;
    if (s.size <= 0) {
      db.remove(b, src, sOld);
    } else {
      db.store(b, src, sOld, s);
    }
    KeyMeta dOld = d == null ? null : KeyCommands.copyOf(d);
    if (d == null) {
      d = db.newCollection(KeyType.SET);
    }
    if (dOld == null || !db.subExists(d, e)) {
      b.putSub(d, e, EMPTY);
      d.size++;
      db.store(b, dst, dOld, d);
    }
    b.commit();
    c.reply().integer(1);
  }

  private static List<byte[]> combine(CommandContext c, int firstKey, Op op) {
    Database db = c.db();
    TreeSet<byte[]> acc = null;
    for (int i = firstKey; i < c.argc(); i++) {
      List<byte[]> ms = members(c, db, c.arg(i));
      TreeSet<byte[]> set = new TreeSet<>(java.util.Arrays::compareUnsigned);
      set.addAll(ms);
      if (acc == null) {
        acc = set;
      } else if (op == Op.INTER) {
        acc.retainAll(set);
      } else if (op == Op.UNION) {
        acc.addAll(set);
      } else {
        acc.removeAll(set);
      }
    }
    return acc == null ? List.of() : new ArrayList<>(acc);
  }

  private static void reply(Reply r, List<byte[]> members) {
    r.set(members.size());
    for (byte[] m : members) {
      r.bulk(m);
    }
  }

  /**
   * {@link #combine}, then {@code then} with the result; over huge sets the members are read in
   * turns ({@link CollectionInTurns}) and {@code then} runs in the last one.
   */
  private static void combineThen(CommandContext c, int firstKey, int endKey, Op op,
                                  java.util.function.BiConsumer<Reply, List<byte[]>> then) {
    Database db = c.db();
    KeyMeta[] metas = new KeyMeta[endKey - firstKey];
    long total = 0;
    for (int i = firstKey; i < endKey; i++) {
      KeyMeta m = db.meta(c.arg(i));
      if (m != null && m.type != KeyType.SET) {
        throw new RedisException(Errors.WRONGTYPE);
      }
      metas[i - firstKey] = m;
      total += m == null ? 0 : m.size;
    }
    if (!CollectionInTurns.inTurns(c, total)) {
      then.accept(c.reply(), combine(c, firstKey, op));
      return;
    }
    /** The members read so far: {@code acc} of the keys done, {@code current} of the key being read. */
    final class Combining implements java.util.function.BooleanSupplier {
      TreeSet<byte[]> acc;
      TreeSet<byte[]> current = new TreeSet<>(java.util.Arrays::compareUnsigned);
      long accBytes;
      long currentBytes;
      int index;
      java.util.function.BooleanSupplier reader;

      @Override
      public boolean getAsBoolean() {
        if (index >= metas.length || op == Op.INTER && acc != null && acc.isEmpty()) {
          return true;
        }
        KeyMeta m = metas[index];
        if (m != null) {
          if (reader == null) {
            reader = CollectionInTurns.subRows(db, m, RedisLayout.SET_MEMBER, r -> {
              byte[] member = RedisLayout.untag(r.clustering());
              if (current.add(member)) {
                currentBytes += CollectionInTurns.held(member);
              }
            });
          }
          boolean keyDone = reader.getAsBoolean();
          CollectionInTurns.check(c, accBytes + currentBytes);
          if (!keyDone) {
            return false;
          }
        }
        if (acc == null) {
          acc = current;
          accBytes = currentBytes;
        } else if (op == Op.INTER) {
          for (java.util.Iterator<byte[]> it = acc.iterator(); it.hasNext(); ) {
            byte[] x = it.next();
            if (!current.contains(x)) {
              it.remove();
              accBytes -= CollectionInTurns.held(x);
            }
          }
        } else {
          for (byte[] x : current) {
            if (op == Op.UNION ? acc.add(x) : acc.remove(x)) {
              accBytes += (op == Op.UNION ? 1 : -1) * CollectionInTurns.held(x);
            }
          }
        }
        CollectionInTurns.check(c, accBytes);
        current = new TreeSet<>(java.util.Arrays::compareUnsigned);
        currentBytes = 0;
        reader = null;
        return ++index >= metas.length;
      }
    }
    Combining step = new Combining();
    KeysInTurns.steps(c, step, r -> then.accept(r, step.acc == null ? List.of() : new ArrayList<>(step.acc)), () -> { });
  }

  private static void store(CommandContext c, Op op) {
    Database db = c.db();
    combineThen(c, 2, c.argc(), op, (r, result) -> store(c, db, r, result));
  }

  private static void store(CommandContext c, Database db, Reply reply, List<byte[]> result) {
    byte[] dst = c.arg(1);
    KeyMeta old = db.meta(dst);
    Batch b = db.batch();
    if (result.isEmpty()) {
      if (old != null) {
        db.remove(b, dst, old);
      }
    } else {
      KeyMeta fresh = db.newCollection(KeyType.SET);
      for (byte[] m : result) {
        b.putSub(fresh, member(m), EMPTY);
      }
      fresh.size = result.size();
      db.store(b, dst, old, fresh);
    }
    b.commit();
    reply.integer(result.size());
  }

  private static void sintercard(CommandContext c) {
    long numKeys = Args.parseLong(c.arg(1));
    if (numKeys <= 0) {
      throw new RedisException("ERR numkeys should be greater than 0");
    }
    if (numKeys > c.argc() - 2) {
      throw new RedisException("ERR Number of keys can't be greater than number of args");
    }
    long limit = 0;
    int i = 2 + (int) numKeys;
    while (i < c.argc()) {
      if (Args.is(c.arg(i), "limit") && i + 1 < c.argc()) {
        Long l = Args.parseLongOrNull(c.arg(i + 1));
        if (l == null || l < 0) {
          throw new RedisException("ERR LIMIT can't be negative");
        }
        limit = l;
        i += 2;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    Database db = c.db();
    TreeSet<byte[]> acc = null;
    for (int k = 2; k < 2 + numKeys; k++) {
      TreeSet<byte[]> set = new TreeSet<>(java.util.Arrays::compareUnsigned);
      set.addAll(members(c, db, c.arg(k)));
      if (acc == null) {
        acc = set;
      } else {
        acc.retainAll(set);
      }
    }
    long n = acc == null ? 0 : acc.size();
    c.reply().integer(limit > 0 ? Math.min(limit, n) : n);
  }
}
