package io.cassette.resp.keyspace;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;

/**
 * How Redis keys are laid out in storage (Kvrocks-style; described in
 * docs/format/redis-encoding.md, layout {@value #LAYOUT}). One table per database,
 * {@code redis.db0} .. {@code redis.db15}, created on first use; every row has one cell,
 * column {@code "v"}. Do not change these values: they are on disk.
 *
 * <pre>
 *  partition key                          clustering                        cell v
 *  'm' | key                              0x00                              {@link KeyMeta} (strings inline)
 *  's' | version(8) | salt(8)             'f' | field                       hash value
 *                                         'e' | member                      (empty)   set member
 *                                         'm' | member                      score(8, IEEE 754)
 *                                         's' | sortable score(8) | member  (empty)   zset by score
 *                                         'E' | ms(8) | seq(8)              stream entry (resp .stream)
 *                                         'T' / 'G' | group name            stream state / consumer group
 *  'l' | version(8) | salt(8) | chunk(8)  'i' | position^0x80..(8)          list element
 *  'x' | bucket(1)                        expireAtMs(8) | key               (empty)   expiry index
 *  'L'                                    0x00                              layout version (4)
 * </pre>
 *
 * A list is cut into chunk partitions of {@link #LIST_CHUNK} positions ({@code chunk =
 * position >> 10}, sign bit flipped), so reading an element near either end of a long list
 * reads one small partition, not the whole list.
 *
 * Ring-ready: a collection's sub-rows are named by (version, salt) — creation timestamp and
 * 64 random bits — unique across nodes without any node-local counter, so RENAME still moves
 * only the metadata row. Expiry entries are spread over {@link #EXPIRY_BUCKETS} partitions by
 * the token of the key's metadata partition, so the entries of a token range are found
 * without reading one ring-wide partition (each node scans the buckets of its ranges).
 * Layout 1 (one node): sub-rows under {@code 's'|version} / {@code 'l'|version|chunk} with
 * salt 0, all expiry entries in partition {@code 'x'}; still read, see docs.
 */
public final class RedisLayout {
  public static final String KEYSPACE = "redis";
  public static final String COLUMN = "v";
  public static final int DATABASES = 16;
  /** The layout this code writes; a table marked with a newer one is refused. */
  public static final int LAYOUT = 2;
  /** Expiry index partitions per database: the top bits of the metadata partition's token. */
  static final int EXPIRY_BUCKET_BITS = 4;
  static final int EXPIRY_BUCKETS = 1 << EXPIRY_BUCKET_BITS;
  static final byte[] LAYOUT_KEY = {'L'};
  /** The Redis keyspace's replication in the metadata log: placed by token like any keyspace. */
  static final java.util.Map<String, String> REPLICATION =
      java.util.Map.of("class", "SimpleStrategy", "replication_factor", "1");
  /** The Redis keyspace's replication before the metadata log has it (SimpleStrategy, 1). */
  public static java.util.Map<String, String> replication() {
    return REPLICATION;
  }

  /** Deleted Redis data is not replicated yet, so tombstones may be purged soon. */
  public static final int GC_GRACE_SECONDS = 3600;

  static final byte META_PREFIX = 'm';
  static final byte SUB_PREFIX = 's';
  static final byte LIST_PREFIX = 'l';
  /** log2 of the positions per list chunk partition. */
  public static final int LIST_CHUNK_BITS = 10;
  public static final long LIST_CHUNK = 1L << LIST_CHUNK_BITS;
  /** Layout 1's single expiry partition (read until it is empty). */
  static final byte[] LEGACY_EXPIRY_KEY = {'x'};
  static final byte[] META_CLUSTERING = {0};

  public static final byte HASH_FIELD = 'f';
  public static final byte SET_MEMBER = 'e';
  public static final byte LIST_ITEM = 'i';
  public static final byte ZSET_MEMBER = 'm';
  public static final byte ZSET_SCORE = 's';
  /** A stream entry (io.cassette.resp.stream.StreamLayout): read by range, never cached. */
  public static final byte STREAM_ENTRY = 'E';

  private RedisLayout() {}

  public static String tableName(int db) {
    return "db" + db;
  }

  /** Stable table id so a restart finds the same table. */
  static UUID tableId(int db) {
    return UUID.nameUUIDFromBytes((KEYSPACE + "." + tableName(db)).getBytes(StandardCharsets.UTF_8));
  }

  static byte[] metaKey(byte[] key) {
    byte[] k = new byte[key.length + 1];
    k[0] = META_PREFIX;
    System.arraycopy(key, 0, k, 1, key.length);
    return k;
  }

  /** The partition key of {@code key}'s metadata row (the ring places keys by its token). */
  public static byte[] metaPartition(byte[] key) {
    return metaKey(key);
  }

  static boolean isMetaKey(byte[] partitionKey) {
    return partitionKey.length > 0 && partitionKey[0] == META_PREFIX;
  }

  static byte[] userKey(byte[] metaKey) {
    return Arrays.copyOfRange(metaKey, 1, metaKey.length);
  }

  /** The partition of a hash, set or sorted set's elements (layout 1 when salt is 0). */
  static byte[] subKey(KeyMeta meta) {
    byte[] k = new byte[meta.salt == 0 ? 9 : 17];
    k[0] = SUB_PREFIX;
    KeyMeta.putLong(k, 1, meta.version);
    if (meta.salt != 0) {
      KeyMeta.putLong(k, 9, meta.salt);
    }
    return k;
  }

  /** The partition of list {@code meta} holding chunk {@code chunk} (layout 1 when salt is 0). */
  static byte[] listChunkKey(KeyMeta meta, long chunk) {
    int at = meta.salt == 0 ? 9 : 17;
    byte[] k = new byte[at + 8];
    k[0] = LIST_PREFIX;
    KeyMeta.putLong(k, 1, meta.version);
    if (meta.salt != 0) {
      KeyMeta.putLong(k, 9, meta.salt);
    }
    KeyMeta.putLong(k, at, chunk ^ Long.MIN_VALUE);
    return k;
  }

  /** {@code 'x' | bucket}: the expiry partition of {@code key}, by its metadata's token. */
  static byte[] expiryKey(byte[] key) {
    return expiryBucketKey(expiryBucket(key));
  }

  static int expiryBucket(byte[] key) {
    long token = io.cassette.storage.Murmur3Token.of(metaKey(key));
    return (int) ((token ^ Long.MIN_VALUE) >>> (64 - EXPIRY_BUCKET_BITS)); // token order
  }

  static byte[] expiryBucketKey(int bucket) {
    return new byte[] {'x', (byte) bucket};
  }

  static long chunkOf(long position) {
    return position >> LIST_CHUNK_BITS;
  }

  static long chunkStart(long chunk) {
    return chunk << LIST_CHUNK_BITS;
  }

  static long chunkEnd(long chunk) {
    return chunkStart(chunk) + LIST_CHUNK - 1;
  }

  /** {@code tag | bytes}: the clustering of a hash field, set member or zset member. */
  public static byte[] tagged(byte tag, byte[] bytes) {
    byte[] c = new byte[bytes.length + 1];
    c[0] = tag;
    System.arraycopy(bytes, 0, c, 1, bytes.length);
    return c;
  }

  /** The bytes after the one-byte tag. */
  public static byte[] untag(byte[] clustering) {
    return Arrays.copyOfRange(clustering, 1, clustering.length);
  }

  /** A list position in unsigned byte order (sign bit flipped). */
  public static byte[] listPosition(long position) {
    byte[] c = new byte[9];
    c[0] = LIST_ITEM;
    KeyMeta.putLong(c, 1, position ^ Long.MIN_VALUE);
    return c;
  }

  public static long listPositionOf(byte[] clustering) {
    return KeyMeta.getLong(clustering, 1) ^ Long.MIN_VALUE;
  }

  /** {@code 's' | sortable(score) | member}: orders by score, then member, as Redis does. */
  public static byte[] scoreClustering(double score, byte[] member) {
    byte[] c = new byte[9 + member.length];
    c[0] = ZSET_SCORE;
    KeyMeta.putLong(c, 1, sortableScore(score));
    System.arraycopy(member, 0, c, 9, member.length);
    return c;
  }

  /** {@code 's' | sortable(score)}: a bound for score ranges. */
  public static byte[] scorePrefix(double score) {
    byte[] c = new byte[9];
    c[0] = ZSET_SCORE;
    KeyMeta.putLong(c, 1, sortableScore(score));
    return c;
  }

  public static double scoreOf(byte[] scoreClustering) {
    return unsortableScore(KeyMeta.getLong(scoreClustering, 1));
  }

  public static byte[] memberOfScoreClustering(byte[] c) {
    return Arrays.copyOfRange(c, 9, c.length);
  }

  /** Maps a double to a long whose unsigned order is the double's numeric order. */
  static long sortableScore(double score) {
    long bits = Double.doubleToLongBits(score == 0.0 ? 0.0 : score); // -0.0 sorts as 0
    return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
  }

  static double unsortableScore(long sortable) {
    long bits = sortable < 0 ? sortable ^ Long.MIN_VALUE : ~sortable;
    return Double.longBitsToDouble(bits);
  }

  public static byte[] encodeScore(double score) {
    byte[] v = new byte[8];
    KeyMeta.putLong(v, 0, Double.doubleToLongBits(score));
    return v;
  }

  public static double decodeScore(byte[] v) {
    return Double.longBitsToDouble(KeyMeta.getLong(v, 0));
  }

  static byte[] expiryClustering(long expireAtMs, byte[] key) {
    byte[] c = new byte[8 + key.length];
    KeyMeta.putLong(c, 0, expireAtMs);
    System.arraycopy(key, 0, c, 8, key.length);
    return c;
  }
}
