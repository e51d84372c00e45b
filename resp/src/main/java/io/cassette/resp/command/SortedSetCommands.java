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
import io.cassette.storage.Slice;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Sorted set commands. Each member has two sub-rows: {@code 'm' | member -> score} for
 * lookups by member, and {@code 's' | sortable(score) | member} for order by score (then
 * member, as Redis). Score ranges are clustering slices; rank ranges read from one end.
 */
final class SortedSetCommands {
  private static final byte[] EMPTY = new byte[0];

  private SortedSetCommands() {}

  static void register(CommandTable t) {
    t.add("zadd", -4, WRITE | DENY_OOM | FAST, 1, 1, 1, SortedSetCommands::zadd);
    t.add("zincrby", 4, WRITE | DENY_OOM | FAST, 1, 1, 1, c -> {
      double by = Args.parseDouble(c.arg(2));
      Double r = update(c, c.arg(1), new byte[][] {c.arg(3)}, new double[] {by},
          Flags.INCR_ONLY, null);
      c.reply().doubleValue(r);
    });
    t.add("zscore", 3, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
      Double s = m == null ? null : score(c.db(), m, c.arg(2));
      if (s == null) {
        c.reply().nullBulk();
      } else {
        c.reply().doubleValue(s);
      }
    });
    t.add("zmscore", -3, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
      c.reply().array(c.argc() - 2);
      for (int i = 2; i < c.argc(); i++) {
        Double s = m == null ? null : score(c.db(), m, c.arg(i));
        if (s == null) {
          c.reply().nullBulk();
        } else {
          c.reply().doubleValue(s);
        }
      }
    });
    t.add("zcard", 2, READONLY | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
      c.reply().integer(m == null ? 0 : m.size);
    });
    t.add("zcount", 4, READONLY | FAST, 1, 1, 1, c -> {
      ScoreRange range = ScoreRange.parse(c.arg(2), c.arg(3));
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
      c.reply().integer(m == null ? 0 : byScore(c.db(), m, range, false, 0, -1).size());
    });
    t.add("zlexcount", 4, READONLY | FAST, 1, 1, 1, c -> {
      Slice lex = lexSlice(c.arg(2), c.arg(3));
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
      c.reply().integer(m == null || lex == null ? 0
          : c.db().subRows(m, lex, false, Integer.MAX_VALUE).size());
    });
    t.add("zrange", -4, READONLY, 1, 1, 1, c -> zrange(c, 2, false, Mode.RANK, false));
    t.add("zrangebyscore", -4, READONLY, 1, 1, 1, c -> zrange(c, 2, false, Mode.SCORE, true));
    t.add("zrevrange", -4, READONLY, 1, 1, 1, c -> zrange(c, 2, true, Mode.RANK, true));
    t.add("zrevrangebyscore", -4, READONLY, 1, 1, 1, c -> zrange(c, 2, true, Mode.SCORE, true));
    t.add("zrangebylex", -4, READONLY, 1, 1, 1, c -> zrange(c, 2, false, Mode.LEX, true));
    t.add("zrevrangebylex", -4, READONLY, 1, 1, 1, c -> zrange(c, 2, true, Mode.LEX, true));
    t.add("zrank", 3, READONLY | FAST, 1, 1, 1, c -> rank(c, false));
    t.add("zrevrank", 3, READONLY | FAST, 1, 1, 1, c -> rank(c, true));
    t.add("zrem", -3, WRITE | FAST, 1, 1, 1, c -> {
      KeyMeta m = Keys.typed(c, c.arg(1), KeyType.ZSET);
      List<byte[]> members = new ArrayList<>();
      for (int i = 2; i < c.argc(); i++) {
        members.add(c.arg(i));
      }
      c.reply().integer(m == null ? 0 : remove(c.db(), c.arg(1), m, members));
    });
    t.add("zremrangebyrank", 4, WRITE, 1, 1, 1, c -> {
      long start = Args.parseLong(c.arg(2));
      long stop = Args.parseLong(c.arg(3));
      KeyMeta m = Keys.typed(c, c.arg(1), KeyType.ZSET);
      c.reply().integer(m == null ? 0
          : removeEntries(c.db(), c.arg(1), m, byRank(c.db(), m, start, stop, false)));
    });
    t.add("zremrangebyscore", 4, WRITE, 1, 1, 1, c -> {
      ScoreRange range = ScoreRange.parse(c.arg(2), c.arg(3));
      KeyMeta m = Keys.typed(c, c.arg(1), KeyType.ZSET);
      c.reply().integer(m == null ? 0
          : removeEntries(c.db(), c.arg(1), m, byScore(c.db(), m, range, false, 0, -1)));
    });
    t.add("zremrangebylex", 4, WRITE, 1, 1, 1, c -> {
      Slice lex = lexSlice(c.arg(2), c.arg(3));
      KeyMeta m = Keys.typed(c, c.arg(1), KeyType.ZSET);
      if (m == null || lex == null) {
        c.reply().integer(0);
        return;
      }
      List<Entry> entries = new ArrayList<>();
      for (Row r : c.db().subRows(m, lex, false, Integer.MAX_VALUE)) {
        entries.add(new Entry(RedisLayout.untag(r.clustering()),
            RedisLayout.decodeScore(Database.valueOf(r))));
      }
      c.reply().integer(removeEntries(c.db(), c.arg(1), m, entries));
    });
    t.add("zpopmin", -2, WRITE | FAST, 1, 1, 1, c -> pop(c, false));
    t.add("zpopmax", -2, WRITE | FAST, 1, 1, 1, c -> pop(c, true));
    t.add("zscan", -3, READONLY, 1, 1, 1, c -> {
      KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
      ScanHelper.scanSubRows(c, m, RedisLayout.ZSET_MEMBER, true);
    });
    t.add("zrandmember", -2, READONLY, 1, 1, 1, SortedSetCommands::zrandmember);
    t.add("zrangestore", -5, WRITE | DENY_OOM, 1, 2, 1, c -> zrange(c, 3, false, Mode.RANK, false, true));
    SortedSetAlgebra.register(t);
    SortedSetPops.register(t);
    GeoCommands.register(t);
  }

  /** A member and its score. */
  record Entry(byte[] member, double score) {}

  private enum Mode { RANK, SCORE, LEX }

  /** ZADD's condition flags. */
  record Flags(boolean nx, boolean xx, boolean gt, boolean lt, boolean incr) {
    static final Flags INCR_ONLY = new Flags(false, false, false, false, true);
  }

  static byte[] memberKey(byte[] member) {
    return RedisLayout.tagged(RedisLayout.ZSET_MEMBER, member);
  }

  static Double score(Database db, KeyMeta m, byte[] member) {
    byte[] v = db.subValue(m, memberKey(member));
    return v == null ? null : RedisLayout.decodeScore(v);
  }

  static void zadd(CommandContext c) {
    boolean nx = false;
    boolean xx = false;
    boolean gt = false;
    boolean lt = false;
    boolean ch = false;
    boolean incr = false;
    int i = 2;
    for (; i < c.argc(); i++) {
      byte[] a = c.arg(i);
      if (Args.is(a, "nx")) {
        nx = true;
      } else if (Args.is(a, "xx")) {
        xx = true;
      } else if (Args.is(a, "gt")) {
        gt = true;
      } else if (Args.is(a, "lt")) {
        lt = true;
      } else if (Args.is(a, "ch")) {
        ch = true;
      } else if (Args.is(a, "incr")) {
        incr = true;
      } else {
        break;
      }
    }
    int pairs = c.argc() - i;
    if (pairs == 0 || pairs % 2 != 0) {
      throw new RedisException(Errors.SYNTAX);
    }
    if (nx && xx) {
      throw new RedisException("ERR XX and NX options at the same time are not compatible");
    }
    if ((gt && nx) || (lt && nx) || (gt && lt)) {
      throw new RedisException("ERR GT, LT, and/or NX options at the same time are not compatible");
    }
    if (incr && pairs > 2) {
      throw new RedisException("ERR INCR option supports a single increment-element pair");
    }
    int n = pairs / 2;
    double[] scores = new double[n];
    byte[][] members = new byte[n][];
    for (int k = 0; k < n; k++) {
      scores[k] = Args.parseDouble(c.arg(i + 2 * k));
      members[k] = c.arg(i + 2 * k + 1);
    }
    long[] counts = new long[2];
    Flags flags = new Flags(nx, xx, gt, lt, incr);
    if (!incr && CollectionInTurns.inTurns(c, n)) {
      addInTurns(c, members, scores, flags, ch);
      return;
    }
    Double result = update(c, c.arg(1), members, scores, flags, counts);
    if (incr) {
      if (result == null) {
        c.reply().nullBulk();
      } else {
        c.reply().doubleValue(result);
      }
    } else {
      c.reply().integer(ch ? counts[0] + counts[1] : counts[0]);
    }
  }

  /**
   * A ZADD of many members in turns ({@link CollectionInTurns#ROWS_PER_STEP} a step, issue 13):
   * each step is one commit, so outside MULTI another client may see part of it, as with a
   * pipeline of ZADDs. Scores were all parsed first: a bad one fails the command before any write.
   */
  private static void addInTurns(CommandContext c, byte[][] members, double[] scores, Flags f,
                                 boolean ch) {
    if (Keys.typed(c, c.arg(1), KeyType.ZSET) == null) {
      createInTurns(c, members, scores, f, ch);
      return;
    }
    long[] total = new long[2];
    int[] next = {0};
    KeysInTurns.steps(c, () -> {
      int from = next[0];
      int to = Math.min(members.length, from + CollectionInTurns.ROWS_PER_STEP);
      long[] counts = new long[2];
      update(c, c.arg(1), Arrays.copyOfRange(members, from, to),
          Arrays.copyOfRange(scores, from, to), f, counts);
      total[0] += counts[0];
      total[1] += counts[1];
      next[0] = to;
      return to >= members.length;
    }, r -> r.integer(ch ? total[0] + total[1] : total[0]), () -> { });
  }

  /**
   * A ZADD of many members to a key that does not exist yet: the members are written, a chunk
   * a turn, under a new incarnation whose metadata row is written last, so no member needs a
   * read (its previous score can only come from this command) and other clients see the key
   * whole or not at all. Should another client create the key meanwhile, the members are
   * applied to that key in one go instead (the written chunks are left to compaction).
   */
  private static void createInTurns(CommandContext c, byte[][] members, double[] scores, Flags f,
                                    boolean ch) {
    Database db = c.db();
    byte[] key = c.arg(1);
    if (f.xx()) {
      c.reply().integer(0);
      return;
    }
    KeyMeta fresh = db.newCollection(KeyType.ZSET);
    Map<ByteBuffer, Double> written = new HashMap<>();
    long[] counts = new long[2];
    int[] next = {0};
    KeysInTurns.steps(c, () -> {
      int from = next[0];
      int to = Math.min(members.length, from + CollectionInTurns.ROWS_PER_STEP);
      Batch b = db.batch();
      for (int k = from; k < to; k++) {
        ByteBuffer mk = ByteBuffer.wrap(members[k]);
        Double cur = written.get(mk);
        double score = scores[k];
        if (cur != null && (f.nx() || (f.gt() && score <= cur) || (f.lt() && score >= cur)
            || cur == score)) {
          continue;
        }
        if (cur != null) {
          b.deleteSub(fresh, RedisLayout.scoreClustering(cur, members[k]));
          counts[1]++;
        } else {
          counts[0]++;
        }
        b.putSub(fresh, memberKey(members[k]), RedisLayout.encodeScore(score));
        b.putSub(fresh, RedisLayout.scoreClustering(score, members[k]), EMPTY);
        written.put(mk, score);
      }
      next[0] = to;
      if (to < members.length) {
        b.commit();
        return false;
      }
      if (db.meta(key) == null) {
        fresh.size = written.size();
        db.store(b, key, null, fresh);
        b.commit();
        c.signalReady(key);
        return true;
      }
      b.commit();
      counts[0] = 0;
      counts[1] = 0;
      update(c, key, members, scores, f, counts); // created by another client meanwhile
      return true;
    }, r -> r.integer(ch ? counts[0] + counts[1] : counts[0]), () -> { });
  }

  /**
   * Adds or updates members; returns the last member's new score (null if a condition
   * skipped it). {@code counts} receives [added, changed] when non-null.
   */
  private static Double update(CommandContext c, byte[] key, byte[][] members, double[] scores,
                               Flags f, long[] counts) {
    Database db = c.db();
    KeyMeta m = Keys.typed(c, key, KeyType.ZSET);
    if (m == null && f.xx()) {
      return null;
    }
    KeyMeta old = m == null ? null : KeyCommands.copyOf(m);
    if (m == null) {
      m = db.newCollection(KeyType.ZSET);
    }
    // scores as this command changed them (only a member given twice needs it)
    Map<ByteBuffer, Double> current = members.length > 1 ? new HashMap<>() : Map.of();
    Batch b = db.batch();
    Double last = null;
    long added = 0;
    long changed = 0;
    for (int k = 0; k < members.length; k++) {
      byte[] member = members[k];
      ByteBuffer mk = members.length > 1 ? ByteBuffer.wrap(member) : null;
      Double cur = mk != null && current.containsKey(mk) ? current.get(mk)
          : old == null ? null : score(db, m, member);
      double next;
      last = null;
      if (cur == null) {
        if (f.xx()) {
          continue;
        }
        next = scores[k];
      } else {
        if (f.nx()) {
          continue;
        }
        next = f.incr() ? cur + scores[k] : scores[k];
        if (Double.isNaN(next)) {
          throw new RedisException(Errors.NAN_RESULT);
        }
        if ((f.gt() && next <= cur) || (f.lt() && next >= cur)) {
          continue;
        }
      }
      last = next;
      if (cur != null && cur == next) {
        continue;
      }
      if (cur != null) {
        b.deleteSub(m, RedisLayout.scoreClustering(cur, member));
        changed++;
      } else {
        added++;
      }
      b.putSub(m, memberKey(member), RedisLayout.encodeScore(next));
      b.putSub(m, RedisLayout.scoreClustering(next, member), EMPTY);
      if (mk != null) {
        current.put(mk, next);
      }
    }
    m.size += added;
    if (added > 0 || (old == null && changed > 0)) {
      db.store(b, key, old, m);
    }
    b.commit();
    if (added > 0 || changed > 0) {
      c.signalReady(key); // BZPOPMIN & co. waiting on the key
    }
    if (counts != null) {
      counts[0] = added;
      counts[1] = changed;
    }
    return last;
  }

  /** A score interval as ZRANGEBYSCORE parses it: "(1.5", "-inf", "+inf". */
  record ScoreRange(double min, boolean minExclusive, double max, boolean maxExclusive) {
    static ScoreRange parse(byte[] min, byte[] max) {
      boolean minEx = min.length > 0 && min[0] == '(';
      boolean maxEx = max.length > 0 && max[0] == '(';
      Double lo = Args.parseDoubleOrNull(minEx ? Arrays.copyOfRange(min, 1, min.length) : min);
      Double hi = Args.parseDoubleOrNull(maxEx ? Arrays.copyOfRange(max, 1, max.length) : max);
      if (lo == null || hi == null) {
        throw new RedisException(Errors.MIN_MAX_NOT_FLOAT);
      }
      return new ScoreRange(lo, minEx, hi, maxEx);
    }

    boolean empty() {
      return min > max || (min == max && (minExclusive || maxExclusive));
    }

    Slice slice() {
      return new Slice(RedisLayout.scorePrefix(min), !minExclusive, RedisLayout.scorePrefix(max),
          !maxExclusive);
    }
  }

  /** A lex interval over member rows: "[a", "(a", "-", "+"; null when empty. */
  static Slice lexSlice(byte[] min, byte[] max) {
    byte[] start;
    byte[] end;
    boolean endInclusive;
    if (min.length == 1 && min[0] == '-') {
      start = new byte[] {RedisLayout.ZSET_MEMBER};
    } else if (min.length == 1 && min[0] == '+') {
      return null;
    } else if (min.length > 0 && (min[0] == '[' || min[0] == '(')) {
      byte[] m = RedisLayout.tagged(RedisLayout.ZSET_MEMBER, Arrays.copyOfRange(min, 1, min.length));
      // "(a" starts at the next string after a: a + 0x00
      start = min[0] == '[' ? m : Arrays.copyOf(m, m.length + 1);
    } else {
      throw new RedisException(Errors.MIN_MAX_NOT_STRING);
    }
    if (max.length == 1 && max[0] == '+') {
      end = new byte[] {RedisLayout.ZSET_MEMBER};
      endInclusive = true; // every member row (prefix)
    } else if (max.length == 1 && max[0] == '-') {
      return null;
    } else if (max.length > 0 && (max[0] == '[' || max[0] == '(')) {
      byte[] m = RedisLayout.tagged(RedisLayout.ZSET_MEMBER, Arrays.copyOfRange(max, 1, max.length));
      // "[b" ends before b + 0x00 (so "ba" is out); "(b" ends before b
      end = max[0] == '[' ? Arrays.copyOf(m, m.length + 1) : m;
      endInclusive = false;
    } else {
      throw new RedisException(Errors.MIN_MAX_NOT_STRING);
    }
    if (!endInclusive && Arrays.compareUnsigned(start, end) >= 0) {
      return null;
    }
    return new Slice(start, true, end, endInclusive);
  }

  private static List<Entry> entriesFromScoreRows(List<Row> rows) {
    List<Entry> out = new ArrayList<>(rows.size());
    for (Row r : rows) {
      byte[] cl = r.clustering();
      out.add(new Entry(RedisLayout.memberOfScoreClustering(cl), RedisLayout.scoreOf(cl)));
    }
    return out;
  }

  /** Entries in a score range, optionally reversed, after {@code offset}, at most {@code count} (<0 = all). */
  static List<Entry> byScore(Database db, KeyMeta m, ScoreRange range, boolean reverse,
                             long offset, long count) {
    if (range.empty() || count == 0) {
      return List.of();
    }
    long limit = count < 0 ? Integer.MAX_VALUE : Math.min(Integer.MAX_VALUE, offset + count);
    List<Row> rows = db.subRows(m, range.slice(), reverse, (int) limit);
    if (offset >= rows.size()) {
      return List.of();
    }
    return entriesFromScoreRows(rows.subList((int) offset, rows.size()));
  }

  /** Entries by rank start..stop (Redis index rules), from the top when {@code reverse}. */
  static List<Entry> byRank(Database db, KeyMeta m, long start, long stop, boolean reverse) {
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
    List<Row> rows = db.subRowsTagged(m, RedisLayout.ZSET_SCORE, reverse, (int) (stop + 1));
    if (start >= rows.size()) {
      return List.of();
    }
    return entriesFromScoreRows(rows.subList((int) start, rows.size()));
  }

  private static void zrange(CommandContext c, int from, boolean reverse, Mode mode,
                             boolean legacy) {
    zrange(c, from, reverse, mode, legacy, false);
  }

  /**
   * The ZRANGE family; the source key is the argument before {@code from}. With {@code store}
   * (ZRANGESTORE dst src ...) the range replaces dst instead of being answered.
   */
  private static void zrange(CommandContext c, int from, boolean reverse, Mode mode,
                             boolean legacy, boolean store) {
    byte[] key = c.arg(from - 1);
    byte[] a = c.arg(from);
    byte[] b = c.arg(from + 1);
    boolean withScores = false;
    long offset = 0;
    long count = -1;
    boolean limit = false;
    for (int i = from + 2; i < c.argc(); i++) {
      byte[] o = c.arg(i);
      if (Args.is(o, "withscores") && !store) {
        withScores = true;
      } else if (Args.is(o, "limit") && i + 2 < c.argc()) {
        offset = Args.parseLong(c.arg(i + 1));
        count = Args.parseLong(c.arg(i + 2));
        limit = true;
        i += 2;
      } else if (!legacy && Args.is(o, "byscore") && mode == Mode.RANK) {
        mode = Mode.SCORE;
      } else if (!legacy && Args.is(o, "bylex") && mode == Mode.RANK) {
        mode = Mode.LEX;
      } else if (!legacy && Args.is(o, "rev")) {
        reverse = true;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    if (limit && mode == Mode.RANK) {
      throw new RedisException("ERR syntax error, LIMIT is only supported in combination with "
          + "either BYSCORE or BYLEX");
    }
    if (withScores && mode == Mode.LEX) {
      throw new RedisException("ERR syntax error, WITHSCORES not supported in combination with "
          + "BYLEX");
    }
    if (reverse && mode != Mode.RANK) { // REV takes max first
      byte[] t = a;
      a = b;
      b = t;
    }
    List<Entry> entries;
    switch (mode) {
      case RANK -> {
        long start = Args.parseLong(a);
        long stop = Args.parseLong(b);
        KeyMeta m = Keys.read(c, key, KeyType.ZSET);
        if (m != null && CollectionInTurns.inTurns(c, m.size)) {
          long first = Math.max(0, Keys.normalize(start, m.size));
          long last = Math.min(m.size - 1, Keys.normalize(stop, m.size));
          rangeInTurns(c, m, Slice.prefix(new byte[] {RedisLayout.ZSET_SCORE}), reverse, first,
              last - first + 1, false, store, withScores);
          return;
        }
        entries = m == null ? List.of() : byRank(c.db(), m, start, stop, reverse);
      }
      case SCORE -> {
        ScoreRange range = ScoreRange.parse(a, b);
        KeyMeta m = Keys.read(c, key, KeyType.ZSET);
        if (m != null && offset >= 0 && !range.empty() && CollectionInTurns.inTurns(c, m.size)) {
          rangeInTurns(c, m, range.slice(), reverse, offset, count < 0 ? Long.MAX_VALUE : count,
              false, store, withScores);
          return;
        }
        entries = m == null || offset < 0 ? List.of()
            : byScore(c.db(), m, range, reverse, offset, count);
      }
      default -> {
        Slice lex = lexSlice(a, b);
        KeyMeta m = Keys.read(c, key, KeyType.ZSET);
        if (m != null && lex != null && offset >= 0 && CollectionInTurns.inTurns(c, m.size)) {
          rangeInTurns(c, m, lex, reverse, offset, count < 0 ? Long.MAX_VALUE : count, true,
              store, withScores);
          return;
        }
        entries = new ArrayList<>();
        if (m != null && lex != null && offset >= 0 && count != 0) {
          long lim = count < 0 ? Integer.MAX_VALUE : Math.min(Integer.MAX_VALUE, offset + count);
          List<Row> rows = c.db().subRows(m, lex, reverse, (int) lim);
          for (int i = (int) Math.min(offset, rows.size()); i < rows.size(); i++) {
            entries.add(new Entry(RedisLayout.untag(rows.get(i).clustering()),
                RedisLayout.decodeScore(Database.valueOf(rows.get(i)))));
          }
        }
      }
    }
    if (store) {
      c.reply().integer(SortedSetAlgebra.storeResult(c, c.db(), c.arg(1), entries));
      return;
    }
    replyEntries(c.reply(), entries, withScores);
  }

  /**
   * A range of a large sorted set read in turns ({@link CollectionInTurns}, issue 13): rows of
   * {@code slice} after skipping {@code skip}, at most {@code take}; member rows when
   * {@code lexRows}, else score rows. Then answered, or stored by ZRANGESTORE.
   */
  private static void rangeInTurns(CommandContext c, KeyMeta m, Slice slice, boolean reverse,
                                   long skip, long take, boolean lexRows, boolean store,
                                   boolean withScores) {
    List<Entry> entries = new ArrayList<>();
    long[] state = {skip, 0}; // rows still to skip, bytes held
    java.util.function.BooleanSupplier read = CollectionInTurns.sliceRows(c.db(), m, slice,
        reverse, r -> {
          if (entries.size() >= take) {
            return false;
          }
          if (state[0] > 0) {
            state[0]--;
            return true;
          }
          Entry e = lexRows
              ? new Entry(RedisLayout.untag(r.clustering()), RedisLayout.decodeScore(Database.valueOf(r)))
              : new Entry(RedisLayout.memberOfScoreClustering(r.clustering()),
                  RedisLayout.scoreOf(r.clustering()));
          entries.add(e);
          state[1] += CollectionInTurns.held(e.member()) + 16;
          return entries.size() < take;
        });
    if (take <= 0) {
      read = () -> true;
    }
    java.util.function.BooleanSupplier steps = read;
    KeysInTurns.steps(c, () -> {
      boolean done = steps.getAsBoolean();
      CollectionInTurns.check(c, state[1]);
      return done;
    }, reply -> {
      if (store) {
        reply.integer(SortedSetAlgebra.storeResult(c, c.db(), c.arg(1), entries));
      } else {
        replyEntries(reply, entries, withScores);
      }
    }, () -> { });
  }

  static void replyEntries(Reply r, List<Entry> entries, boolean withScores) {
    if (withScores && r.resp3()) {
      r.array(entries.size());
      for (Entry e : entries) {
        r.array(2);
        r.bulk(e.member());
        r.doubleValue(e.score());
      }
      return;
    }
    r.array(entries.size() * (withScores ? 2 : 1));
    for (Entry e : entries) {
      r.bulk(e.member());
      if (withScores) {
        r.doubleValue(e.score());
      }
    }
  }

  private static void rank(CommandContext c, boolean reverse) {
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
    Double s = m == null ? null : score(c.db(), m, c.arg(2));
    if (s == null) {
      c.reply().nullBulk();
      return;
    }
    byte[] target = RedisLayout.scoreClustering(s, c.arg(2));
    // count the rows before the member (after it, when reversed)
    Slice before = reverse
        ? new Slice(Arrays.copyOf(target, target.length + 1), true,
            new byte[] {RedisLayout.ZSET_SCORE}, true)
        : new Slice(new byte[] {RedisLayout.ZSET_SCORE}, true, target, false);
    c.reply().integer(c.db().subRows(m, before, false, Integer.MAX_VALUE).size());
  }

  private static long remove(Database db, byte[] key, KeyMeta m, List<byte[]> members) {
    List<Entry> entries = new ArrayList<>();
    java.util.Set<ByteBuffer> seen = new java.util.HashSet<>();
    for (byte[] member : members) {
      if (!seen.add(ByteBuffer.wrap(member))) {
        continue;
      }
      Double s = score(db, m, member);
      if (s != null) {
        entries.add(new Entry(member, s));
      }
    }
    return removeEntries(db, key, m, entries);
  }

  static long removeEntries(Database db, byte[] key, KeyMeta m, List<Entry> entries) {
    if (entries.isEmpty()) {
      return 0;
    }
    KeyMeta old = KeyCommands.copyOf(m);
    Batch b = db.batch();
    for (Entry e : entries) {
      b.deleteSub(m, memberKey(e.member()));
      b.deleteSub(m, RedisLayout.scoreClustering(e.score(), e.member()));
    }
    m.size -= entries.size();
    if (m.size <= 0) {
      db.remove(b, key, old);
    } else {
      db.store(b, key, old, m);
    }
    b.commit();
    return entries.size();
  }

  private static void pop(CommandContext c, boolean max) {
    long count = 1;
    boolean hasCount = c.argc() == 3;
    if (hasCount) {
      Long n = Args.parseLongOrNull(c.arg(2));
      if (n == null || n < 0) {
        throw new RedisException(Errors.POSITIVE_COUNT);
      }
      count = n;
    } else if (c.argc() > 3) {
      throw new RedisException(Errors.SYNTAX);
    }
    KeyMeta m = Keys.typed(c, c.arg(1), KeyType.ZSET);
    List<Entry> entries = m == null || count == 0 ? List.of()
        : byRank(c.db(), m, 0, count - 1, max);
    if (m != null) {
      removeEntries(c.db(), c.arg(1), m, entries);
    }
    Reply r = c.reply();
    if (!hasCount && r.resp3()) {
      if (entries.isEmpty()) {
        r.emptyArray();
      } else {
        r.array(2);
        r.bulk(entries.get(0).member());
        r.doubleValue(entries.get(0).score());
      }
      return;
    }
    replyEntries(r, entries, true);
  }

  private static void zrandmember(CommandContext c) {
    KeyMeta m = Keys.read(c, c.arg(1), KeyType.ZSET);
    if (c.argc() == 2) {
      allEntries(c, m, (r, entries) -> {
        if (entries.isEmpty()) {
          r.nullBulk();
        } else {
          r.bulk(ScanHelper.randomPick(entries, 1).get(0).member());
        }
      });
      return;
    }
    long count = Args.parseNegatableLong(c.arg(2));
    boolean withScores = c.argc() == 4 && Args.is(c.arg(3), "withscores");
    if (c.argc() > 4 || (c.argc() == 4 && !withScores)) {
      throw new RedisException(Errors.SYNTAX);
    }
    if (withScores && (count < -Long.MAX_VALUE / 2 || count > Long.MAX_VALUE / 2)) {
      throw new RedisException("ERR value is out of range"); // count x 2 replies would overflow
    }
    allEntries(c, m, (r, entries) -> replyEntries(r, ScanHelper.randomPick(entries, count), withScores));
  }

  /** Every entry of {@code m} in score order, then {@code then}; in turns when huge ({@link CollectionInTurns#allRows}). */
  private static void allEntries(CommandContext c, KeyMeta m, java.util.function.BiConsumer<Reply, List<Entry>> then) {
    CollectionInTurns.allRows(c, m, RedisLayout.ZSET_SCORE,
        r -> new Entry(RedisLayout.memberOfScoreClustering(r.clustering()), RedisLayout.scoreOf(r.clustering())),
        e -> CollectionInTurns.held(e.member()) + 16, then);
  }

}
