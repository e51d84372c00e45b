package io.cassette.resp.command;

import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.resp.rdb.RedisValue;
import io.cassette.storage.Row;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A whole key as one {@link RedisValue} and back: what DUMP, RESTORE and MIGRATE move. Reads
 * the key's elements in Cassette's order (list order; hash fields and set members by bytes;
 * sorted-set members by score); writes a new incarnation of the key.
 */
final class StoredValues {
  /** Sub-rows per mutation when a large value is written (one commit-log record each). */
  static final int ROWS_PER_BATCH = 2000;
  private static final byte[] EMPTY = new byte[0];

  private StoredValues() {}

  static RedisValue read(Database db, KeyMeta m) {
    switch (m.type) {
      case STRING:
        return new RedisValue.Str(m.value);
      case LIST: {
        List<byte[]> out = new ArrayList<>((int) Math.min(m.size, 1 << 20));
        for (Row r : db.listRange(m, m.head, m.tail - 1, false, Integer.MAX_VALUE)) {
          out.add(Database.valueOf(r));
        }
        return new RedisValue.ListValue(out);
      }
      case SET: {
        List<byte[]> out = new ArrayList<>();
        for (Row r : db.subRowsTagged(m, RedisLayout.SET_MEMBER, false, Integer.MAX_VALUE)) {
          out.add(RedisLayout.untag(r.clustering()));
        }
        return new RedisValue.SetValue(out);
      }
      case HASH: {
        List<byte[]> f = new ArrayList<>();
        List<byte[]> v = new ArrayList<>();
        for (Row r : db.subRowsTagged(m, RedisLayout.HASH_FIELD, false, Integer.MAX_VALUE)) {
          f.add(RedisLayout.untag(r.clustering()));
          v.add(Database.valueOf(r));
        }
        return new RedisValue.HashValue(f, v);
      }
      case ZSET: {
        List<Row> rows = db.subRowsTagged(m, RedisLayout.ZSET_SCORE, false, Integer.MAX_VALUE);
        List<byte[]> members = new ArrayList<>(rows.size());
        double[] scores = new double[rows.size()];
        for (int i = 0; i < rows.size(); i++) {
          members.add(RedisLayout.memberOfScoreClustering(rows.get(i).clustering()));
          scores[i] = RedisLayout.scoreOf(rows.get(i).clustering());
        }
        return new RedisValue.ZSetValue(members, scores);
      }
      case STREAM:
        return io.cassette.resp.stream.StreamValues.read(db, m);
      default:
        throw new IllegalStateException("type " + m.type);
    }
  }

  /**
   * Stores {@code value} as {@code key} (replacing {@code existing}, or null), expiring at
   * {@code expireAtMs} (0: never). A large collection's elements are written in several
   * mutations before its metadata row: until that row is written the new incarnation is
   * invisible, so a crash half-way leaves the old key (or none), never a partial one.
   *
   * @return false when the value is an empty collection (Redis refuses those)
   */
  static boolean write(Database db, byte[] key, KeyMeta existing, RedisValue value, long expireAtMs) {
    if (value instanceof RedisValue.Str s) {
      Batch b = db.batch();
      db.store(b, key, existing, KeyMeta.string(s.value(), expireAtMs));
      b.commit();
      return true;
    }
    if (value instanceof RedisValue.StreamValue st) { // an empty stream is a stream
      io.cassette.resp.stream.StreamValues.write(db, key, existing, st, expireAtMs);
      return true;
    }
    if (value.size() == 0) {
      return false;
    }
    KeyMeta fresh;
    Batch b = db.batch();
    int pending = 0;
    if (value instanceof RedisValue.ListValue l) {
        fresh = db.newCollection(KeyType.LIST);
        for (byte[] e : l.elements()) {
          b.listPut(fresh, fresh.tail++, e);
          pending = flushSome(b, pending);
        }
        fresh.size = l.elements().size();
    } else if (value instanceof RedisValue.SetValue s) {
        fresh = db.newCollection(KeyType.SET);
        Map<ByteBuffer, byte[]> unique = new LinkedHashMap<>();
        for (byte[] e : s.members()) {
          unique.put(ByteBuffer.wrap(e), e);
        }
        for (byte[] e : unique.values()) {
          b.putSub(fresh, RedisLayout.tagged(RedisLayout.SET_MEMBER, e), EMPTY);
          pending = flushSome(b, pending);
        }
        fresh.size = unique.size();
    } else if (value instanceof RedisValue.HashValue h) {
        fresh = db.newCollection(KeyType.HASH);
        Map<ByteBuffer, byte[][]> unique = new LinkedHashMap<>();
        for (int i = 0; i < h.fields().size(); i++) {
          unique.put(ByteBuffer.wrap(h.fields().get(i)), new byte[][] {h.fields().get(i), h.values().get(i)});
        }
        for (byte[][] fv : unique.values()) {
          b.putSub(fresh, RedisLayout.tagged(RedisLayout.HASH_FIELD, fv[0]), fv[1]);
          pending = flushSome(b, pending);
        }
        fresh.size = unique.size();
    } else if (value instanceof RedisValue.ZSetValue z) {
        fresh = db.newCollection(KeyType.ZSET);
        Map<ByteBuffer, Integer> unique = new LinkedHashMap<>();
        for (int i = 0; i < z.members().size(); i++) {
          if (Double.isNaN(z.scores()[i])) {
            return false;
          }
          unique.put(ByteBuffer.wrap(z.members().get(i)), i);
        }
        for (int i : unique.values()) {
          byte[] member = z.members().get(i);
          double score = z.scores()[i];
          b.putSub(fresh, RedisLayout.tagged(RedisLayout.ZSET_MEMBER, member), RedisLayout.encodeScore(score));
          b.putSub(fresh, RedisLayout.scoreClustering(score, member), EMPTY);
          pending = flushSome(b, pending + 1);
        }
        fresh.size = unique.size();
    } else {
      throw new IllegalStateException();
    }
    fresh.expireAtMs = expireAtMs;
    db.store(b, key, existing, fresh);
    b.commit();
    return true;
  }

  private static int flushSome(Batch b, int pending) {
    if (++pending >= ROWS_PER_BATCH) {
      b.commit();
      return 0;
    }
    return pending;
  }
}
