package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.config.OutputLimits;
import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.server.ServerContext;
import io.cassette.resp.session.Session;
import io.cassette.resp.util.Glob;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Key space commands: DEL, UNLINK, EXISTS, TYPE, the EXPIRE family, TTL, PTTL, EXPIRETIME,
 * PERSIST, RENAME, RENAMENX, KEYS, SCAN, RANDOMKEY, COPY, TOUCH.
 */
final class KeyCommands {
  /** Default COUNT of SCAN. */
  static final int SCAN_DEFAULT_COUNT = 10;

  private KeyCommands() {}

  static void register(CommandTable t) {
    t.add("del", -2, WRITE, 1, -1, 1, KeyCommands::del);
    t.add("unlink", -2, WRITE | FAST, 1, -1, 1, KeyCommands::del);
    t.add("exists", -2, READONLY | FAST, 1, -1, 1, KeyCommands::countExisting);
    t.add("touch", -2, READONLY | FAST, 1, -1, 1, KeyCommands::countExisting);
    t.add("type", 2, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = c.db().meta(c.arg(1));
      c.reply().status(m == null ? "none" : m.type.typeName);
    });
    t.add("expire", -3, WRITE | FAST, 1, 1, 1, c -> expire(c, 1000, false));
    t.add("pexpire", -3, WRITE | FAST, 1, 1, 1, c -> expire(c, 1, false));
    t.add("expireat", -3, WRITE | FAST, 1, 1, 1, c -> expire(c, 1000, true));
    t.add("pexpireat", -3, WRITE | FAST, 1, 1, 1, c -> expire(c, 1, true));
    t.add("ttl", 2, READONLY | FAST, 1, 1, 1, c -> ttl(c, false, false));
    t.add("pttl", 2, READONLY | FAST, 1, 1, 1, c -> ttl(c, true, false));
    t.add("expiretime", 2, READONLY | FAST, 1, 1, 1, c -> ttl(c, false, true));
    t.add("pexpiretime", 2, READONLY | FAST, 1, 1, 1, c -> ttl(c, true, true));
    t.add("persist", 2, WRITE | FAST, 1, 1, 1, c -> {
      KeyMeta m = c.db().meta(c.arg(1));
      if (m == null || m.expireAtMs == 0) {
        c.reply().integer(0);
        return;
      }
      KeyMeta old = copyOf(m);
      m.expireAtMs = 0;
      Batch b = c.db().batch();
      c.db().store(b, c.arg(1), old, m);
      b.commit();
      c.reply().integer(1);
    });
    t.add("rename", 3, WRITE, 1, 2, 1, c -> rename(c, false));
    t.add("renamenx", 3, WRITE | FAST, 1, 2, 1, c -> rename(c, true));
    t.add("keys", 2, READONLY, KeyCommands::keys);
    t.add("scan", -2, READONLY, KeyCommands::scan);
    t.add("randomkey", 1, READONLY, KeyCommands::randomKey);
    t.add("copy", -3, WRITE | CommandSpec.DENY_OOM, 1, 2, 1, KeyCommands::copy);
  }

  /** A detached copy to pass as "old" to store() after changing {@code m}. */
  static KeyMeta copyOf(KeyMeta m) {
    return m.copy();
  }

  /** EXISTS and TOUCH: how many of the keys exist (a key named twice counts twice). */
  private static void countExisting(CommandContext c) {
    long[] n = {0};
    Database db = c.db();
    KeysInTurns.run(c, 1, 1, i -> {
      if (db.meta(c.arg(i)) != null) {
        n[0]++;
      }
    }, r -> r.integer(n[0]));
  }

  private static void del(CommandContext c) {
    long[] n = {0};
    Database db = c.db();
    KeysInTurns.run(c, 1, 1, i -> {
      KeyMeta m = db.meta(c.arg(i));
      if (m != null) {
        Batch b = db.batch();
        db.remove(b, c.arg(i), m);
        b.commit();
        n[0]++;
      }
    }, r -> r.integer(n[0]));
  }

  private static void expire(CommandContext c, long unitMillis, boolean absolute) {
    String name = c.spec.name();
    byte[] key = c.arg(1);
    long when = Args.parseLong(c.arg(2));
    boolean nx = false;
    boolean xx = false;
    boolean gt = false;
    boolean lt = false;
    for (int i = 3; i < c.argc(); i++) {
      if (Args.is(c.arg(i), "nx")) {
        nx = true;
      } else if (Args.is(c.arg(i), "xx")) {
        xx = true;
      } else if (Args.is(c.arg(i), "gt")) {
        gt = true;
      } else if (Args.is(c.arg(i), "lt")) {
        lt = true;
      } else {
        throw new RedisException("ERR Unsupported option " + c.argString(i));
      }
    }
    if (nx && (xx || gt || lt)) {
      throw new RedisException("ERR NX and XX, GT or LT options at the same time are not compatible");
    }
    if (gt && lt) {
      throw new RedisException("ERR GT and LT options at the same time are not compatible");
    }
    long now = System.currentTimeMillis();
    long base = absolute ? 0 : now;
    long whenMs;
    try {
      whenMs = Math.addExact(Math.multiplyExact(when, unitMillis), base);
    } catch (ArithmeticException e) {
      throw new RedisException(Errors.invalidExpire(name));
    }
    Database db = c.db();
    KeyMeta m = db.meta(key);
    if (m == null) {
      c.reply().integer(0);
      return;
    }
    long current = m.expireAtMs == 0 ? Long.MAX_VALUE : m.expireAtMs;
    if ((nx && m.expireAtMs != 0) || (xx && m.expireAtMs == 0)
        || (gt && whenMs <= current) || (lt && whenMs >= current)) {
      c.reply().integer(0);
      return;
    }
    Batch b = db.batch();
    if (whenMs <= now) {
      db.remove(b, key, m);
    } else {
      KeyMeta old = copyOf(m);
      m.expireAtMs = Math.max(1, whenMs);
      db.store(b, key, old, m);
    }
    b.commit();
    c.reply().integer(1);
  }

  private static void ttl(CommandContext c, boolean millis, boolean absolute) {
    KeyMeta m = c.db().meta(c.arg(1));
    if (m == null) {
      c.reply().integer(-2);
    } else if (m.expireAtMs == 0) {
      c.reply().integer(-1);
    } else if (absolute) {
      c.reply().integer(millis ? m.expireAtMs : (m.expireAtMs + 500) / 1000);
    } else {
      long left = Math.max(0, m.expireAtMs - System.currentTimeMillis());
      c.reply().integer(millis ? left : (left + 500) / 1000);
    }
  }

  private static void rename(CommandContext c, boolean nx) {
    byte[] src = c.arg(1);
    byte[] dst = c.arg(2);
    Database db = c.db();
    KeyMeta m = db.meta(src);
    if (m == null) {
      throw new RedisException(Errors.NO_SUCH_KEY);
    }
    if (java.util.Arrays.equals(src, dst)) {
      if (nx) {
        c.reply().integer(0);
      } else {
        c.reply().ok();
      }
      return;
    }
    KeyMeta target = db.meta(dst);
    if (nx && target != null) {
      c.reply().integer(0);
      return;
    }
    Batch b = db.batch();
    db.rename(b, src, m, dst, target);
    b.commit();
    if (m.type == KeyType.LIST) {
      c.signalReady(dst);
    }
    if (nx) {
      c.reply().integer(1);
    } else {
      c.reply().ok();
    }
  }

  /**
   * KEYS visits this many keys per turn of the command thread, then lets other clients' commands
   * run before it goes on (Redis runs KEYS in one go and stalls every client meanwhile).
   * Outside MULTI the reply is therefore not a snapshot: a key present throughout is listed
   * exactly once; one added or removed meanwhile may or may not be. Inside EXEC it runs whole.
   */
  static final int KEYS_PER_TURN = 10_000;

  private static void keys(CommandContext c) {
    KeysScan scan = new KeysScan(c.server, c.session, c.arg(1));
    Database db = c.server.keyspace.existing(c.session.db);
    DecoratedKey last = db == null ? null
        : db.scanKeys(KeyRange.ALL, c.mayBlock ? KEYS_PER_TURN : Integer.MAX_VALUE, scan);
    if (last == null) {
      scan.reply(c.reply());
      return;
    }
    // More to visit: the client waits (its later commands queue) while others get turns.
    Session.Blocked marker = new Session.Blocked(c.args, List.of(), 0);
    c.session.blocked = marker;
    // scheduled, not executed: on the event loop that lets it read other clients in between
    c.server.commandThread.schedule(() -> scan.resume(marker, last), 0, TimeUnit.NANOSECONDS);
  }

  /** The keys KEYS has matched so far, and how to go on. Used on the command thread only. */
  private static final class KeysScan implements Database.KeyVisitor {
    private final ServerContext server;
    private final Session session;
    private final byte[] pattern;
    private final boolean all;
    private final long now = System.currentTimeMillis();
    private final List<byte[]> found = new ArrayList<>();
    private long bytes;

    KeysScan(ServerContext server, Session session, byte[] pattern) {
      this.server = server;
      this.session = session;
      this.pattern = pattern;
      this.all = Glob.matchesAll(pattern);
    }

    @Override
    public void visit(byte[] k, KeyMeta m) {
      if (!m.expiresAt(now) && (all || Glob.matches(pattern, k))) {
        found.add(k);
        bytes += k.length + 16;
      }
    }

    void reply(Reply r) {
      r.array(found.size());
      for (byte[] k : found) {
        r.bulk(k);
      }
    }

    void resume(Session.Blocked marker, DecoratedKey from) {
      if (session.closed || !session.channel.isActive() || session.blocked != marker) {
        return; // gone, or unblocked by CLIENT UNBLOCK / RESET
      }
      Database db = server.keyspace.existing(session.db);
      DecoratedKey last = db == null ? null
          : db.scanKeys(rangeAfter(cursorAfter(from)), KEYS_PER_TURN, this);
      OutputLimits.Limit limit = server.outputs.normal();
      if (limit.hard() > 0 && bytes > limit.hard()) {
        // the reply could never be sent: the client would be closed by its output limit
        finish(r -> r.error("ERR KEYS reply exceeds the client output buffer limit, use SCAN"));
        return;
      }
      if (last != null) {
        server.commandThread.schedule(() -> resume(marker, last), 0, TimeUnit.NANOSECONDS);
        return;
      }
      finish(this::reply);
    }

    private void finish(java.util.function.Consumer<Reply> write) {
      session.blocked = null;
      server.deliver(session, write);
      server.runner.resume(session);
    }
  }

  /** Cursor 0 starts; else the cursor is 1 + the last token scanned, in unsigned order. */
  static KeyRange rangeAfter(long cursor) {
    if (cursor == 0) {
      return KeyRange.ALL;
    }
    long token = (cursor - 1) ^ Long.MIN_VALUE;
    return new KeyRange(new DecoratedKey(token, null), Long.MAX_VALUE);
  }

  static long cursorAfter(DecoratedKey last) {
    return last == null ? 0 : (last.token() ^ Long.MIN_VALUE) + 1;
  }

  static long parseCursor(byte[] arg) {
    try {
      return Long.parseUnsignedLong(Args.str(arg));
    } catch (NumberFormatException e) {
      throw new RedisException("ERR invalid cursor");
    }
  }

  private static void scan(CommandContext c) {
    long cursor = parseCursor(c.arg(1));
    byte[] pattern = null;
    int count = SCAN_DEFAULT_COUNT;
    KeyType type = null;
    String typeName = null;
    for (int i = 2; i < c.argc(); i++) {
      if (Args.is(c.arg(i), "match") && i + 1 < c.argc()) {
        pattern = c.arg(++i);
      } else if (Args.is(c.arg(i), "count") && i + 1 < c.argc()) {
        long n = Args.parseLong(c.arg(++i));
        if (n < 1) {
          throw new RedisException(Errors.SYNTAX);
        }
        // COUNT is a hint (Redis may return fewer): one SCAN visits at most what one turn of
        // KEYS does, so SCAN 0 COUNT 1000000000 is not KEYS in one go on the command thread.
        count = (int) Math.min(n, KEYS_PER_TURN);
      } else if (Args.is(c.arg(i), "type") && i + 1 < c.argc()) {
        typeName = c.argString(++i);
        type = KeyType.ofName(typeName);
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    List<byte[]> found = new ArrayList<>();
    long next = 0;
    Database db = c.server.keyspace.existing(c.session.db);
    if (db != null) {
      long now = System.currentTimeMillis();
      byte[] p = pattern != null && Glob.matchesAll(pattern) ? null : pattern;
      KeyType t = type;
      boolean unknownType = typeName != null && type == null;
      DecoratedKey last = db.scanKeys(rangeAfter(cursor), count, (k, m) -> {
        if (!unknownType && !m.expiresAt(now) && (p == null || Glob.matches(p, k))
            && (t == null || m.type == t)) {
          found.add(k);
        }
      });
      next = cursorAfter(last);
    }
    Reply r = c.reply();
    r.array(2);
    r.bulk(Long.toUnsignedString(next));
    r.array(found.size());
    for (byte[] k : found) {
      r.bulk(k);
    }
  }

  private static void randomKey(CommandContext c) {
    Database db = c.server.keyspace.existing(c.session.db);
    if (db == null || db.size() == 0) {
      c.reply().nullBulk();
      return;
    }
    long now = System.currentTimeMillis();
    long start = ThreadLocalRandom.current().nextLong();
    byte[][] pick = new byte[1][];
    Database.KeyVisitor v = (k, m) -> {
      if (pick[0] == null && !m.expiresAt(now)) {
        pick[0] = k;
      }
    };
    db.scanKeys(new KeyRange(new DecoratedKey(start, null), Long.MAX_VALUE), 1, v);
    if (pick[0] == null) {
      db.scanKeys(KeyRange.ALL, 1, v);
    }
    if (pick[0] == null) {
      c.reply().nullBulk();
    } else {
      c.reply().bulk(pick[0]);
    }
  }

  private static void copy(CommandContext c) {
    byte[] src = c.arg(1);
    byte[] dst = c.arg(2);
    int targetDb = c.session.db;
    boolean replace = false;
    for (int i = 3; i < c.argc(); i++) {
      if (Args.is(c.arg(i), "replace")) {
        replace = true;
      } else if (Args.is(c.arg(i), "db") && i + 1 < c.argc()) {
        long d = Args.parseLong(c.arg(++i));
        if (d < 0 || d >= RedisLayout.DATABASES) {
          throw new RedisException(Errors.DB_OUT_OF_RANGE);
        }
        targetDb = (int) d;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    if (targetDb == c.session.db && java.util.Arrays.equals(src, dst)) {
      throw new RedisException("ERR source and destination objects are the same");
    }
    Database from = c.db();
    KeyMeta m = from.meta(src);
    if (m == null) {
      c.reply().integer(0);
      return;
    }
    Database to = c.server.keyspace.db(targetDb);
    KeyMeta existing = to.meta(dst);
    if (existing != null && !replace) {
      c.reply().integer(0);
      return;
    }
    KeyMeta fresh;
    Batch b = to.batch();
    if (m.type == KeyType.STRING) {
      fresh = KeyMeta.string(m.value, m.expireAtMs);
    } else {
      fresh = to.newCollection(m.type);
      fresh.size = m.size;
      fresh.head = m.head;
      fresh.tail = m.tail;
      fresh.expireAtMs = m.expireAtMs;
      if (m.type == KeyType.LIST) {
        for (Row row : from.listRange(m, m.head, m.tail - 1, false, Integer.MAX_VALUE)) {
          b.listPut(fresh, RedisLayout.listPositionOf(row.clustering()), Database.valueOf(row));
        }
      } else {
        for (Row row : from.subRows(m, Slice.ALL, false, Integer.MAX_VALUE)) {
          b.putSub(fresh, row.clustering(), Database.valueOf(row));
        }
      }
    }
    to.store(b, dst, existing, fresh);
    b.commit();
    c.server.watches.touch(targetDb, dst);
    c.reply().integer(1);
  }
}
