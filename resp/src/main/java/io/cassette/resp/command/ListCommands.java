package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.BLOCKING;
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
import io.cassette.resp.session.Session;
import io.cassette.storage.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * List commands. Elements are rows at positions {@code head .. tail-1} in chunk partitions
 * (see {@link RedisLayout#listPosition}); pushes and pops at either end touch one row and the
 * metadata, LINDEX/LSET/LRANGE address positions directly, LINSERT shifts the shorter side,
 * LREM rewrites the list, LTRIM writes two range tombstones.
 */
final class ListCommands {
  private ListCommands() {}

  static void register(CommandTable t) {
    t.add("lpush", -3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> push(c, true, false));
    t.add("rpush", -3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> push(c, false, false));
    t.add("lpushx", -3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> push(c, true, true));
    t.add("rpushx", -3, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> push(c, false, true));
    t.add("lpop", -2, WRITE | FAST, 1, 1, 1, c -> pop(c, true));
    t.add("rpop", -2, WRITE | FAST, 1, 1, 1, c -> pop(c, false));
    t.add("llen", 2, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.LIST);
      c.reply().integer(m == null ? 0 : m.size);
    });
    t.add("lrange", 4, READONLY, 1, 1, 1, ListCommands::lrange);
    t.add("lindex", 3, READONLY, 1, 1, 1, c -> {
      long index = Args.parseLong(c.arg(2));
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.LIST);
      if (m == null) {
        c.reply().nullBulk();
        return;
      }
      long i = Keys.normalize(index, m.size);
      c.reply().bulk(i < 0 || i >= m.size ? null
          : c.db().listGet(m, m.head + i));
    });
    t.add("lset", 4, WRITE | DENY_OOM, 1, 1, 1, c -> {
      long index = Args.parseLong(c.arg(2));
      KeyMeta m = Keys.typed(c, c.arg(1), KeyType.LIST);
      if (m == null) {
        throw new RedisException(Errors.NO_SUCH_KEY);
      }
      long i = Keys.normalize(index, m.size);
      if (i < 0 || i >= m.size) {
        throw new RedisException(Errors.INDEX_OUT_OF_RANGE);
      }
      Batch b = c.db().batch();
      b.listPut(m, m.head + i, c.arg(3));
      b.commit();
      c.reply().ok();
    });
    t.add("linsert", 5, WRITE | DENY_OOM, 1, 1, 1, ListCommands::linsert);
    t.add("lrem", 4, WRITE, 1, 1, 1, ListCommands::lrem);
    t.add("ltrim", 4, WRITE, 1, 1, 1, ListCommands::ltrim);
    t.add("lpos", -3, READONLY, 1, 1, 1, ListCommands::lpos);
    t.add("lmove", 5, WRITE | DENY_OOM, 1, 2, 1, c -> {
      boolean fromLeft = side(c.arg(3));
      boolean toLeft = side(c.arg(4));
      c.reply().bulk(move(c, c.arg(1), c.arg(2), fromLeft, toLeft));
    });
    t.add("rpoplpush", 3, WRITE | DENY_OOM, 1, 2, 1,
        c -> c.reply().bulk(move(c, c.arg(1), c.arg(2), false, true)));
    t.add("blpop", -3, WRITE | BLOCKING, 1, -2, 1, c -> blockingPop(c, true));
    t.add("brpop", -3, WRITE | BLOCKING, 1, -2, 1, c -> blockingPop(c, false));
    t.add("blmove", 6, WRITE | DENY_OOM | BLOCKING, 1, 2, 1, c -> {
      boolean fromLeft = side(c.arg(3));
      boolean toLeft = side(c.arg(4));
      blockingMove(c, fromLeft, toLeft, c.arg(5));
    });
    t.add("lmpop", -4, WRITE, c -> mpop(c, 1, false));
    t.add("blmpop", -5, WRITE | BLOCKING, c -> mpop(c, 2, true));
    t.add("brpoplpush", 4, WRITE | DENY_OOM | BLOCKING, 1, 2, 1,
        c -> blockingMove(c, false, true, c.arg(3)));
  }

  private static boolean side(byte[] arg) {
    if (Args.is(arg, "left")) {
      return true;
    }
    if (Args.is(arg, "right")) {
      return false;
    }
    throw new RedisException(Errors.SYNTAX);
  }

  /** Adds {@code element} at one end of {@code m} (in memory and in {@code b}). */
  static void pushOne(Batch b, KeyMeta m, byte[] element, boolean left) {
    if (left) {
      m.head--;
      b.listPut(m, m.head, element);
    } else {
      b.listPut(m, m.tail, element);
      m.tail++;
    }
    m.size++;
  }

  /** Removes and returns the element at one end of non-empty {@code m}. */
  static byte[] popOne(Database db, Batch b, KeyMeta m, boolean left) {
    long pos = left ? m.head : m.tail - 1;
    byte[] v = db.listGet(m, pos);
    b.listDelete(m, pos);
    if (left) {
      m.head++;
    } else {
      m.tail--;
    }
    m.size--;
    return v == null ? new byte[0] : v;
  }

  private static KeyMeta newList(Database db) {
    return db.newCollection(KeyType.LIST);
  }

  /** Writes {@code m} after changes, deleting the key when the list became empty. */
  static void save(Database db, Batch b, byte[] key, KeyMeta old, KeyMeta m) {
    if (m.size <= 0) {
      if (old != null) {
        db.remove(b, key, old);
      }
    } else {
      db.store(b, key, old, m);
    }
  }

  private static void push(CommandContext c, boolean left, boolean onlyExisting) {
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.LIST);
    if (m == null && onlyExisting) {
      c.reply().integer(0);
      return;
    }
    if (CollectionInTurns.inTurns(c, c.argc() - 2)) {
      pushInTurns(c, left);
      return;
    }
    KeyMeta old = m == null ? null : KeyCommands.copyOf(m);
    if (m == null) {
      m = newList(db);
    }
    Batch b = db.batch();
    for (int i = 2; i < c.argc(); i++) {
      pushOne(b, m, c.arg(i), left);
    }
    db.store(b, key, old, m);
    b.commit();
    c.signalReady(key);
    c.reply().integer(m.size);
  }

  /**
   * A push of many elements in turns ({@link CollectionInTurns#ROWS_PER_STEP} a step, one commit
   * each, issue 13): outside MULTI another client may see part of it, as with a pipeline of
   * pushes. The list is looked up again at each step (another client may have changed it).
   */
  private static void pushInTurns(CommandContext c, boolean left) {
    Database db = c.db();
    byte[] key = c.arg(1);
    int[] next = {2};
    long[] size = {0};
    KeysInTurns.steps(c, () -> {
      KeyMeta m = Keys.typed(c, key, KeyType.LIST);
      KeyMeta old = m == null ? null : KeyCommands.copyOf(m);
      if (m == null) {
        m = newList(db);
      }
      Batch b = db.batch();
      int to = Math.min(c.argc(), next[0] + CollectionInTurns.ROWS_PER_STEP);
      for (int i = next[0]; i < to; i++) {
        pushOne(b, m, c.arg(i), left);
      }
      db.store(b, key, old, m);
      b.commit();
      c.signalReady(key);
      size[0] = m.size;
      next[0] = to;
      return to >= c.argc();
    }, r -> r.integer(size[0]), () -> { });
  }

  private static void pop(CommandContext c, boolean left) {
    long count = -1;
    if (c.argc() == 3) {
      Long n = Args.parseLongOrNull(c.arg(2));
      if (n == null || n < 0) {
        throw new RedisException(Errors.POSITIVE_COUNT);
      }
      count = n;
    } else if (c.argc() > 3) {
      throw new RedisException(Errors.wrongArity(c.spec.name()));
    }
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.LIST);
    Reply r = c.reply();
    if (m == null) {
      if (count < 0) {
        r.nullBulk();
      } else {
        r.nullArray();
      }
      return;
    }
    KeyMeta old = KeyCommands.copyOf(m);
    if (count < 0) {
      Batch b = db.batch();
      byte[] v = popOne(db, b, m, left);
      save(db, b, key, old, m);
      b.commit();
      r.bulk(v);
      return;
    }
    List<byte[]> popped = popMany(db, key, old, m, count, left);
    r.array(popped.size());
    for (byte[] v : popped) {
      r.bulk(v);
    }
  }

  /** Removes up to {@code count} elements from one end of {@code m} ({@code old}: a copy). */
  private static List<byte[]> popMany(Database db, byte[] key, KeyMeta old, KeyMeta m,
                                      long count, boolean left) {
    int n = (int) Math.min(count, m.size);
    List<Row> rows = db.listRange(m, m.head, m.tail - 1, !left, n);
    Batch b = db.batch();
    if (!rows.isEmpty()) {
      long first = RedisLayout.listPositionOf(rows.get(0).clustering());
      long last = RedisLayout.listPositionOf(rows.get(rows.size() - 1).clustering());
      long lo = Math.min(first, last);
      long hi = Math.max(first, last);
      b.listDeleteRange(m, lo, hi + 1);
      if (left) {
        m.head = hi + 1;
      } else {
        m.tail = lo;
      }
      m.size -= rows.size();
    }
    save(db, b, key, old, m);
    b.commit();
    List<byte[]> out = new ArrayList<>(rows.size());
    for (Row row : rows) {
      out.add(Database.valueOf(row));
    }
    return out;
  }

  /** LMPOP numkeys key... LEFT|RIGHT [COUNT n]; BLMPOP timeout numkeys key... (t_list.c). */
  private static void mpop(CommandContext c, int numkeysIndex, boolean blocking) {
    Long parsed = Args.parseLongOrNull(c.arg(numkeysIndex));
    if (parsed == null || parsed < 1) {
      throw new RedisException("ERR numkeys should be greater than 0");
    }
    long whereIndex = numkeysIndex + parsed + 1;
    if (whereIndex >= c.argc()) {
      throw new RedisException(Errors.SYNTAX);
    }
    boolean left = side(c.arg((int) whereIndex));
    long count = mpopCount(c, (int) whereIndex + 1);
    long deadline = blocking ? deadline(c.arg(1)) : 0;
    List<byte[]> keys = new ArrayList<>();
    for (int i = numkeysIndex + 1; i < whereIndex; i++) {
      keys.add(c.arg(i));
    }
    for (byte[] key : keys) {
      KeyMeta m = Keys.awaited(c, key, KeyType.LIST);
      if (m == null || m.size == 0) {
        continue;
      }
      List<byte[]> popped = popMany(c.db(), key, KeyCommands.copyOf(m), m, count, left);
      if (blocking) {
        c.server.blocking.unblock(c.session);
      }
      Reply r = c.reply();
      r.array(2);
      r.bulk(key);
      r.array(popped.size());
      for (byte[] v : popped) {
        r.bulk(v);
      }
      return;
    }
    if (!blocking || !c.mayBlock) {
      c.reply().nullArray();
      return;
    }
    block(c, keys, deadline);
  }

  private static void lrange(CommandContext c) {
    long start = Args.parseLong(c.arg(2));
    long stop = Args.parseLong(c.arg(3));
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.LIST);
    if (m != null && CollectionInTurns.inTurns(c, m.size)) {
      lrangeInTurns(c, m, start, stop);
      return;
    }
    Reply r = c.reply();
    List<Row> rows = m == null ? List.of() : range(c.db(), m, start, stop);
    r.array(rows.size());
    for (Row row : rows) {
      r.bulk(Database.valueOf(row));
    }
  }

  /**
   * LRANGE of a long list in turns ({@link CollectionInTurns}): positions fixed at the start, so
   * a push or pop by another client between chunks shifts what the later chunks read.
   */
  private static void lrangeInTurns(CommandContext c, KeyMeta m, long start, long stop) {
    long size = m.size;
    start = Math.max(0, Keys.normalize(start, size));
    stop = Math.min(size - 1, Keys.normalize(stop, size));
    if (start > stop || start >= size) {
      c.reply().array(0);
      return;
    }
    List<byte[]> values = new java.util.ArrayList<>();
    long[] held = {0};
    java.util.function.BooleanSupplier read = CollectionInTurns.listRange(c.db(), m, m.head + start, m.head + stop,
        row -> {
          byte[] v = Database.valueOf(row);
          values.add(v);
          held[0] += CollectionInTurns.held(v);
        });
    KeysInTurns.steps(c, () -> {
      boolean done = read.getAsBoolean();
      CollectionInTurns.check(c, held[0]);
      return done;
    }, reply -> {
      reply.array(values.size());
      for (byte[] v : values) {
        reply.bulk(v);
      }
    }, () -> { });
  }

  /** Elements start..stop (Redis index rules) of {@code m}. */
  static List<Row> range(Database db, KeyMeta m, long start, long stop) {
    long size = m.size;
    start = Keys.normalize(start, size);
    stop = Keys.normalize(stop, size);
    if (start < 0) {
      start = 0;
    }
    if (start > stop || start >= size) {
      return List.of();
    }
    if (stop >= size) {
      stop = size - 1;
    }
    return db.listRange(m, m.head + start, m.head + stop, false, (int) (stop - start + 1));
  }

  private static List<byte[]> all(Database db, KeyMeta m) {
    List<byte[]> out = new ArrayList<>((int) Math.min(m.size, 1 << 16));
    for (Row r : db.listRange(m, m.head, m.tail - 1, false, Integer.MAX_VALUE)) {
      out.add(Database.valueOf(r));
    }
    return out;
  }

  private static void linsert(CommandContext c) {
    boolean before;
    if (Args.is(c.arg(2), "before")) {
      before = true;
    } else if (Args.is(c.arg(2), "after")) {
      before = false;
    } else {
      throw new RedisException(Errors.SYNTAX);
    }
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.LIST);
    if (m == null) {
      c.reply().integer(0);
      return;
    }
    List<byte[]> elements = all(db, m);
    int pivot = -1;
    for (int i = 0; i < elements.size(); i++) {
      if (Arrays.equals(elements.get(i), c.arg(3))) {
        pivot = i;
        break;
      }
    }
    if (pivot < 0) {
      c.reply().integer(-1);
      return;
    }
    KeyMeta old = KeyCommands.copyOf(m);
    int at = before ? pivot : pivot + 1; // index the new element will have
    Batch b = db.batch();
    if (at <= elements.size() - at) {
      // shift elements [0, at) one position left
      for (int i = 0; i < at; i++) {
        b.listPut(m, m.head - 1 + i, elements.get(i));
      }
      b.listPut(m, m.head - 1 + at, c.arg(4));
      m.head--;
    } else {
      // shift elements [at, size) one position right
      for (int i = at; i < elements.size(); i++) {
        b.listPut(m, m.head + i + 1, elements.get(i));
      }
      b.listPut(m, m.head + at, c.arg(4));
      m.tail++;
    }
    m.size++;
    db.store(b, key, old, m);
    b.commit();
    c.reply().integer(m.size);
  }

  private static void lrem(CommandContext c) {
    long count = Args.parseLong(c.arg(2));
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.LIST);
    if (m == null) {
      c.reply().integer(0);
      return;
    }
    List<byte[]> elements = all(db, m);
    byte[] target = c.arg(3);
    boolean[] drop = new boolean[elements.size()];
    long removed = 0;
    long limit = count == 0 ? Long.MAX_VALUE : Math.abs(count);
    if (count >= 0) {
      for (int i = 0; i < elements.size() && removed < limit; i++) {
        if (Arrays.equals(elements.get(i), target)) {
          drop[i] = true;
          removed++;
        }
      }
    } else {
      for (int i = elements.size() - 1; i >= 0 && removed < limit; i--) {
        if (Arrays.equals(elements.get(i), target)) {
          drop[i] = true;
          removed++;
        }
      }
    }
    if (removed > 0) {
      KeyMeta fresh = newList(db);
      fresh.expireAtMs = m.expireAtMs;
      Batch b = db.batch();
      for (int i = 0; i < elements.size(); i++) {
        if (!drop[i]) {
          pushOne(b, fresh, elements.get(i), false);
        }
      }
      save(db, b, key, m, fresh);
      b.commit();
    }
    c.reply().integer(removed);
  }

  private static void ltrim(CommandContext c) {
    long start = Args.parseLong(c.arg(2));
    long stop = Args.parseLong(c.arg(3));
    Database db = c.db();
    byte[] key = c.arg(1);
    KeyMeta m = Keys.typed(c, key, KeyType.LIST);
    if (m == null) {
      c.reply().ok();
      return;
    }
    KeyMeta old = KeyCommands.copyOf(m);
    long size = m.size;
    start = Keys.normalize(start, size);
    stop = Keys.normalize(stop, size);
    if (start < 0) {
      start = 0;
    }
    Batch b = db.batch();
    if (start > stop || start >= size) {
      db.remove(b, key, old);
    } else {
      if (stop >= size) {
        stop = size - 1;
      }
      long newHead = m.head + start;
      long newTail = m.head + stop + 1;
      if (newHead > m.head) {
        b.listDeleteRange(m, m.head, newHead);
      }
      if (newTail < m.tail) {
        b.listDeleteRange(m, newTail, m.tail);
      }
      m.head = newHead;
      m.tail = newTail;
      m.size = newTail - newHead;
      if (m.size != old.size) {
        db.store(b, key, old, m);
      }
    }
    b.commit();
    c.reply().ok();
  }

  private static void lpos(CommandContext c) {
    long rank = 1;
    long count = -1;
    long maxlen = 0;
    for (int i = 3; i < c.argc(); i++) {
      boolean hasNext = i + 1 < c.argc();
      if (Args.is(c.arg(i), "rank") && hasNext) {
        rank = Args.parseLong(c.arg(++i));
        if (rank == 0) {
          throw new RedisException("ERR RANK can't be zero: use 1 to start from the first "
              + "match, 2 from the second ... or use negative to start from the end of the list");
        }
        if (rank == Long.MIN_VALUE) {
          throw new RedisException(Errors.NOT_INTEGER);
        }
      } else if (Args.is(c.arg(i), "count") && hasNext) {
        count = Args.parseLong(c.arg(++i));
        if (count < 0) {
          throw new RedisException("ERR COUNT can't be negative");
        }
      } else if (Args.is(c.arg(i), "maxlen") && hasNext) {
        maxlen = Args.parseLong(c.arg(++i));
        if (maxlen < 0) {
          throw new RedisException("ERR MAXLEN can't be negative");
        }
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.LIST);
    Reply r = c.reply();
    if (m == null) {
      if (count >= 0) {
        r.nullArray();
      } else {
        r.nullBulk();
      }
      return;
    }
    boolean reverse = rank < 0;
    long skip = Math.abs(rank) - 1;
    int limit = maxlen == 0 ? Integer.MAX_VALUE : (int) Math.min(maxlen, Integer.MAX_VALUE);
    List<Row> rows = c.db().listRange(m, m.head, m.tail - 1, reverse, limit);
    List<Long> found = new ArrayList<>();
    long want = count < 0 ? 1 : count == 0 ? Long.MAX_VALUE : count;
    for (Row row : rows) {
      if (Arrays.equals(Database.valueOf(row), c.arg(2))) {
        if (skip > 0) {
          skip--;
          continue;
        }
        found.add(RedisLayout.listPositionOf(row.clustering()) - m.head);
        if (found.size() >= want) {
          break;
        }
      }
    }
    if (count < 0) {
      if (found.isEmpty()) {
        r.nullBulk();
      } else {
        r.integer(found.get(0));
      }
      return;
    }
    r.array(found.size());
    for (long f : found) {
      r.integer(f);
    }
  }

  /** LMOVE: pops from {@code src}, pushes onto {@code dst}; null when src is empty. */
  private static byte[] move(CommandContext c, byte[] src, byte[] dst, boolean fromLeft,
                             boolean toLeft) {
    Database db = c.db();
    KeyMeta s = Keys.typed(c, src, KeyType.LIST);
    if (s == null) {
      return null;
    }
    boolean same = Arrays.equals(src, dst);
    KeyMeta d = same ? s : Keys.typed(c, dst, KeyType.LIST);
    KeyMeta sOld = KeyCommands.copyOf(s);
    if (same) {
      Batch b = db.batch();
      if (fromLeft == toLeft) { // a rotation onto the same end changes nothing
        byte[] v = db.listGet(s, fromLeft ? s.head : s.tail - 1);
        return v;
      }
      byte[] v = popOne(db, b, s, fromLeft);
      pushOne(b, s, v, toLeft);
      db.store(b, src, sOld, s);
      b.commit();
      c.signalReady(dst);
      return v;
    }
    KeyMeta dOld = d == null ? null : KeyCommands.copyOf(d);
    if (d == null) {
      d = newList(db);
    }
    Batch b = db.batch();
    byte[] v = popOne(db, b, s, fromLeft);
    pushOne(b, d, v, toLeft);
    save(db, b, src, sOld, s);
    db.store(b, dst, dOld, d);
    b.commit();
    c.touched(dst);
    c.signalReady(dst);
    return v;
  }

  /** Parses a blocking timeout in seconds (a float) into a deadline; 0 = forever. */
  static long deadline(byte[] arg) {
    Double t = Args.parseDoubleOrNull(arg);
    if (t == null || Double.isInfinite(t)) {
      throw new RedisException(Errors.TIMEOUT_NOT_FLOAT);
    }
    if (t < 0) {
      throw new RedisException(Errors.TIMEOUT_NEGATIVE);
    }
    if (t == 0) {
      return 0;
    }
    return System.currentTimeMillis() + Math.max(1, (long) Math.ceil(t * 1000));
  }

  /** Parks the client on {@code keys} until one is signalled or {@code deadline} passes. */
  static void block(CommandContext c, List<byte[]> keys, long deadline) {
    if (c.session.blocked != null) {
      return; // a retry that found nothing: keep waiting
    }
    List<Session.KeyRef> refs = new ArrayList<>();
    for (byte[] k : keys) {
      refs.add(Session.KeyRef.of(c.session.db, k));
    }
    c.server.blocking.block(c.session, new Session.Blocked(c.args, refs, deadline));
  }

  private static void blockingPop(CommandContext c, boolean left) {
    long deadline = deadline(c.arg(c.argc() - 1));
    Database db = c.db();
    List<byte[]> keys = new ArrayList<>();
    for (int i = 1; i < c.argc() - 1; i++) {
      byte[] key = c.arg(i);
      keys.add(key);
      KeyMeta m = Keys.awaited(c, key, KeyType.LIST);
      if (m != null && m.size > 0) {
        KeyMeta old = KeyCommands.copyOf(m);
        Batch b = db.batch();
        byte[] v = popOne(db, b, m, left);
        save(db, b, key, old, m);
        b.commit();
        c.server.blocking.unblock(c.session);
        c.reply().array(2);
        c.reply().bulk(key);
        c.reply().bulk(v);
        return;
      }
    }
    if (!c.mayBlock) {
      c.reply().nullArray();
      return;
    }
    block(c, keys, deadline);
  }

  private static void blockingMove(CommandContext c, boolean fromLeft, boolean toLeft,
                                   byte[] timeout) {
    long deadline = deadline(timeout);
    byte[] v = move(c, c.arg(1), c.arg(2), fromLeft, toLeft);
    if (v != null) {
      c.server.blocking.unblock(c.session);
      c.reply().bulk(v);
      return;
    }
    if (!c.mayBlock) {
      c.reply().nullArray();
      return;
    }
    block(c, List.of(c.arg(1)), deadline);
  }

  /** LMPOP/ZMPOP's options after LEFT|RIGHT or MIN|MAX, from {@code from}: [COUNT n], 1 when absent. */
  static long mpopCount(CommandContext c, int from) {
    long count = -1;
    for (int j = from; j < c.argc(); j++) {
      if (count == -1 && Args.is(c.arg(j), "count") && j + 1 < c.argc()) {
        Long n = Args.parseLongOrNull(c.arg(++j));
        if (n == null || n < 1) {
          throw new RedisException("ERR count should be greater than 0");
        }
        count = n;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    return count == -1 ? 1 : count;
  }
}
