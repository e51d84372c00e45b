package io.cassette.resp.command;

import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.resp.protocol.DoubleFormat;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.util.Glob;
import io.cassette.storage.Row;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** HSCAN/SSCAN/ZSCAN and the random picks of HRANDFIELD/SRANDMEMBER. */
final class ScanHelper {
  /** Collections up to this size are returned in one SCAN reply (as Redis's small encodings). */
  static final int SINGLE_REPLY_SIZE = 512;

  private ScanHelper() {}

  /**
   * Replies {@code [cursor, [element (, value)...]]}. The cursor is an offset into the
   * collection's byte order; small collections come back whole with cursor 0.
   *
   * @param withValues hash: field and value; zset (tag 'm'): member and score
   */
  static void scanSubRows(CommandContext c, KeyMeta m, byte tag, boolean withValues) {
    long cursor = KeyCommands.parseCursor(c.arg(2));
    byte[] pattern = null;
    long count = KeyCommands.SCAN_DEFAULT_COUNT;
    for (int i = 3; i < c.argc(); i++) {
      if (Args.is(c.arg(i), "match") && i + 1 < c.argc()) {
        pattern = c.arg(++i);
      } else if (Args.is(c.arg(i), "count") && i + 1 < c.argc()) {
        count = Args.parseLong(c.arg(++i));
        if (count < 1) {
          throw new RedisException(Errors.SYNTAX);
        }
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    List<Row> page = List.of();
    long next = 0;
    if (m != null) {
      Database db = c.db();
      if (m.size <= SINGLE_REPLY_SIZE && cursor == 0) {
        page = db.subRowsTagged(m, tag, false, Integer.MAX_VALUE);
      } else {
        long limit = Math.min(Integer.MAX_VALUE, cursor + count);
        List<Row> rows = db.subRowsTagged(m, tag, false, (int) limit);
        page = cursor >= rows.size() ? List.of() : rows.subList((int) cursor, rows.size());
        next = rows.size() < limit ? 0 : limit;
      }
    }
    List<Row> matched = new ArrayList<>();
    for (Row r : page) {
      if (pattern == null || Glob.matches(pattern, RedisLayout.untag(r.clustering()))) {
        matched.add(r);
      }
    }
    Reply r = c.reply();
    r.array(2);
    r.bulk(Long.toUnsignedString(next));
    r.array(matched.size() * (withValues ? 2 : 1));
    for (Row row : matched) {
      r.bulk(RedisLayout.untag(row.clustering()));
      if (withValues) {
        byte[] v = Database.valueOf(row);
        if (tag == RedisLayout.ZSET_MEMBER) {
          r.bulk(DoubleFormat.g17(RedisLayout.decodeScore(v)));
        } else {
          r.bulk(v);
        }
      }
    }
  }

  /**
   * HRANDFIELD/SRANDMEMBER/ZRANDMEMBER with a count: positive gives distinct elements (at
   * most all), negative allows repeats and gives exactly |count|.
   */
  static <T> List<T> randomPick(List<T> all, long count) {
    if (all.isEmpty() || count == 0) {
      return List.of();
    }
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    if (count < 0) {
      if (count < -Integer.MAX_VALUE / 2) {
        throw new RedisException(Errors.NOT_INTEGER);
      }
      List<T> out = new ArrayList<>((int) -count);
      for (long i = 0; i < -count; i++) {
        out.add(all.get(rnd.nextInt(all.size())));
      }
      return out;
    }
    List<T> out = new ArrayList<>(all);
    Collections.shuffle(out, rnd);
    return count >= out.size() ? out : out.subList(0, (int) count);
  }
}
