package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.RedisLayout;

/**
 * SWAPDB index1 index2 (Redis 7.0's db.c dbSwapDatabases): the two databases exchange their
 * data at once. Each database is its own table, so only the map from index to table changes
 * ({@code keyspace.DatabaseMap}, in the metadata log: durable and the same on every node).
 * Clients stay in the database they selected and see the other data; as in Redis, watched keys
 * of both databases that exist on either side are touched, and clients blocked on keys of
 * either database look again (a key that arrived serves them; XREADGROUP's stream may be gone).
 */
final class SwapDbCommand {
  private SwapDbCommand() {}

  static void register(CommandTable t) {
    t.add("swapdb", 3, WRITE | FAST, SwapDbCommand::swapdb);
  }

  private static void swapdb(CommandContext c) {
    int a = index(c.arg(1), "ERR invalid first DB index");
    int b = index(c.arg(2), "ERR invalid second DB index");
    if (a < 0 || a >= RedisLayout.DATABASES || b < 0 || b >= RedisLayout.DATABASES) {
      throw new RedisException(Errors.DB_OUT_OF_RANGE);
    }
    if (a != b) {
      // Redis's touchAllWatchedKeysInDb(a, b) and (b, a): before the swap, a watched key of
      // either database changes if it exists now on either side (stale keys count as none).
      c.server.watches.touchExisting(a, (db, key) -> exists(c, a, key) || exists(c, b, key));
      c.server.watches.touchExisting(b, (db, key) -> exists(c, a, key) || exists(c, b, key));
      c.server.keyspace.swap(a, b);
      if (c.server.ring != null) {
        c.server.ring.flushed(a); // the other nodes touch their watchers of both databases
        c.server.ring.flushed(b);
      }
      c.server.blocking.signalWaitersIn(a);
      c.server.blocking.signalWaitersIn(b);
    }
    c.reply().ok();
  }

  /** Redis's getIntFromObjectOrReply with its own message. */
  private static int index(byte[] arg, String error) {
    Long v = Args.parseLongOrNull(arg);
    if (v == null || v < Integer.MIN_VALUE || v > Integer.MAX_VALUE) {
      throw new RedisException(error);
    }
    return v.intValue();
  }

  /** Whether {@code key} is live in database {@code db} (on a ring: assumed, it may live elsewhere). */
  private static boolean exists(CommandContext c, int db, byte[] key) {
    if (c.server.ring != null) {
      return true;
    }
    Database d = c.server.keyspace.existing(db);
    return d != null && d.holdsLive(key);
  }
}
