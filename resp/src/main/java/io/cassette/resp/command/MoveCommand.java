package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.RedisLayout;

/**
 * MOVE key db (Redis 7.0's db.c): the key, with its expiry, goes to another database unless
 * one of that name is there already. Databases are separate tables, so the value is copied
 * ({@link StoredValues}: a large one in several mutations before its metadata row) and then
 * removed from the source; a crash in between leaves it in both, never in neither.
 */
final class MoveCommand {
  private MoveCommand() {}

  static void register(CommandTable t) {
    t.add("move", 3, WRITE | FAST, 1, 1, 1, MoveCommand::move);
  }

  private static void move(CommandContext c) {
    if (c.server.ring != null) {
      throw new RedisException("ERR MOVE is not allowed in cluster mode");
    }
    long dst = Args.parseIntInRange(c.arg(2));
    if (dst < 0 || dst >= RedisLayout.DATABASES) {
      throw new RedisException(Errors.DB_OUT_OF_RANGE);
    }
    if (dst == c.session.db) {
      throw new RedisException("ERR source and destination objects are the same");
    }
    byte[] key = c.arg(1);
    Database from = c.db();
    KeyMeta m = from.meta(key);
    if (m == null) {
      c.reply().integer(0);
      return;
    }
    Database to = c.server.keyspace.db((int) dst);
    if (to.meta(key) != null) {
      c.reply().integer(0);
      return;
    }
    StoredValues.write(to, key, null, StoredValues.read(from, m), m.expireAtMs);
    Batch b = from.batch();
    from.remove(b, key, m);
    b.commit();
    c.server.watches.touch((int) dst, key);
    c.server.blocking.signal((int) dst, key);
    c.reply().integer(1);
  }
}
