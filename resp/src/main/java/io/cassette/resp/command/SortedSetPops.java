package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.BLOCKING;
import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.protocol.Reply;
import java.util.ArrayList;
import java.util.List;

/**
 * ZMPOP and the blocking pops BZPOPMIN, BZPOPMAX, BZMPOP (Redis 7.0's t_zset.c): the first
 * non-empty key in argument order is popped; with none, a blocking pop waits on all its keys
 * in {@link io.cassette.resp.session.BlockingRegistry} and is retried when ZADD & co. signal a
 * key (inside MULTI it answers a null array at once, as Redis does).
 */
final class SortedSetPops {
  private SortedSetPops() {}

  static void register(CommandTable t) {
    t.add("bzpopmin", -3, WRITE | FAST | BLOCKING, 1, -2, 1, c -> bzpop(c, false));
    t.add("bzpopmax", -3, WRITE | FAST | BLOCKING, 1, -2, 1, c -> bzpop(c, true));
    t.add("zmpop", -4, WRITE, c -> mpop(c, 1, false));
    t.add("bzmpop", -5, WRITE | BLOCKING, c -> mpop(c, 2, true));
  }

  /** Removes and returns up to {@code count} entries from one end of non-empty {@code m}. */
  private static List<SortedSetCommands.Entry> take(CommandContext c, byte[] key, KeyMeta m,
                                                     long count, boolean max) {
    List<SortedSetCommands.Entry> entries =
        SortedSetCommands.byRank(c.db(), m, 0, Math.min(count, m.size) - 1, max);
    SortedSetCommands.removeEntries(c.db(), key, m, entries);
    return entries;
  }

  private static void bzpop(CommandContext c, boolean max) {
    long deadline = ListCommands.deadline(c.arg(c.argc() - 1));
    List<byte[]> keys = new ArrayList<>();
    for (int i = 1; i < c.argc() - 1; i++) {
      keys.add(c.arg(i));
    }
    for (byte[] key : keys) {
      KeyMeta m = Keys.awaited(c, key, KeyType.ZSET);
      if (m == null || m.size == 0) {
        continue;
      }
      SortedSetCommands.Entry e = take(c, key, m, 1, max).get(0);
      c.server.blocking.unblock(c.session);
      Reply r = c.reply();
      r.array(3);
      r.bulk(key);
      r.bulk(e.member());
      r.doubleValue(e.score());
      return;
    }
    waitOrNull(c, keys, deadline);
  }

  private static void waitOrNull(CommandContext c, List<byte[]> keys, long deadline) {
    if (!c.mayBlock) {
      c.reply().nullArray();
      return;
    }
    ListCommands.block(c, keys, deadline);
  }

  /** ZMPOP numkeys key... MIN|MAX [COUNT n]; BZMPOP timeout numkeys key... MIN|MAX [COUNT n]. */
  private static void mpop(CommandContext c, int numkeysIndex, boolean blocking) {
    Long parsed = Args.parseLongOrNull(c.arg(numkeysIndex));
    if (parsed == null || parsed < 1) {
      throw new RedisException("ERR numkeys should be greater than 0");
    }
    long numkeys = parsed;
    long whereIndex = numkeysIndex + numkeys + 1;
    if (whereIndex >= c.argc()) {
      throw new RedisException(Errors.SYNTAX);
    }
    boolean max;
    if (Args.is(c.arg((int) whereIndex), "min")) {
      max = false;
    } else if (Args.is(c.arg((int) whereIndex), "max")) {
      max = true;
    } else {
      throw new RedisException(Errors.SYNTAX);
    }
    long count = ListCommands.mpopCount(c, (int) whereIndex + 1);
    long deadline = blocking ? ListCommands.deadline(c.arg(1)) : 0;
    List<byte[]> keys = new ArrayList<>();
    for (int i = numkeysIndex + 1; i < whereIndex; i++) {
      keys.add(c.arg(i));
    }
    for (byte[] key : keys) {
      KeyMeta m = Keys.awaited(c, key, KeyType.ZSET);
      if (m == null || m.size == 0) {
        continue;
      }
      List<SortedSetCommands.Entry> entries = take(c, key, m, count, max);
      if (blocking) {
        c.server.blocking.unblock(c.session);
      }
      Reply r = c.reply();
      r.array(2);
      r.bulk(key);
      r.array(entries.size());
      for (SortedSetCommands.Entry e : entries) {
        r.array(2);
        r.bulk(e.member());
        r.doubleValue(e.score());
      }
      return;
    }
    if (!blocking) {
      c.reply().nullArray();
      return;
    }
    waitOrNull(c, keys, deadline);
  }
}
