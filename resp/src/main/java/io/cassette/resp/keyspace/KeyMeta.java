package io.cassette.resp.keyspace;

import java.util.Arrays;

/**
 * The metadata of one Redis key, as stored in the value of its metadata row (see
 * {@link RedisLayout}). Layout 2, big-endian (do not change: it is on disk):
 *
 * <pre>
 *  0      1              9              17             25             33          41        49
 *  +------+--------------+--------------+--------------+--------------+-----------+---------+
 *  | type | expireAtMs   | version      | salt         | size         | head      | tail    |  list
 *  +------+--------------+--------------+--------------+--------------+-----------+---------+
 *  | type | expireAtMs   | version      | salt         | size         |                          hash, set, zset
 *  +------+--------------+--------------+--------------+--------------+
 *  | type | expireAtMs   | value bytes ...                                                       string
 *  +------+--------------+-----------------------------
 * </pre>
 *
 * {@code expireAtMs} is 0 for a key without expiry. {@code version} (the creation timestamp,
 * µs) and {@code salt} (64 random bits, never 0) together name the sub-row partitions of a
 * collection: unique across the ring, not just on one node, so a new collection never sees
 * the rows of another one or of a deleted predecessor. {@code head}/{@code tail} bound a
 * list's positions: elements live at positions head .. tail-1.
 *
 * <p>Layout 1 (before the ring) had no salt: collections of exactly 25 bytes (41 for a list).
 * They are still read, as {@code salt = 0}, and their sub-rows stay under the layout-1
 * partition keys (see {@link RedisLayout#subKey}); any other length is refused.
 *
 * <p>A mutable value object: commands change fields and write it back. Not thread-safe.
 */
public final class KeyMeta {
  static final int HEADER = 9;
  static final int COLLECTION_BYTES = 33;
  static final int LIST_BYTES = 49;
  /** Layout 1 sizes (no salt). */
  static final int COLLECTION_BYTES_V1 = 25;
  static final int LIST_BYTES_V1 = 41;

  public KeyType type;
  public long expireAtMs;
  public long version;
  /** Random, never 0 for a collection created by layout 2; 0 for a layout-1 collection. */
  public long salt;
  public long size;
  public long head;
  public long tail;
  /** A string's value; null for other types. */
  public byte[] value;

  public static KeyMeta string(byte[] value, long expireAtMs) {
    KeyMeta m = new KeyMeta();
    m.type = KeyType.STRING;
    m.value = value;
    m.expireAtMs = expireAtMs;
    return m;
  }

  public static KeyMeta collection(KeyType type, long version, long salt) {
    KeyMeta m = new KeyMeta();
    m.type = type;
    m.version = version;
    m.salt = salt;
    return m;
  }

  /** Whether {@code other} is the same incarnation of a collection (same sub-rows). */
  public boolean sameIncarnation(KeyMeta other) {
    return type == other.type && version == other.version && salt == other.salt;
  }

  /**
   * One long standing for (version, salt), for caches keyed by collection: equal for the
   * same incarnation; for different ones equal only with chance 2^-64 (salts are random).
   */
  public long cacheId() {
    return version ^ (salt * 0x9E3779B97F4A7C15L);
  }

  /** A detached copy (a string's value array is shared: values are never changed in place). */
  public KeyMeta copy() {
    KeyMeta o = new KeyMeta();
    o.type = type;
    o.expireAtMs = expireAtMs;
    o.version = version;
    o.salt = salt;
    o.size = size;
    o.head = head;
    o.tail = tail;
    o.value = value;
    return o;
  }

  public boolean expiresAt(long nowMs) {
    return expireAtMs != 0 && expireAtMs <= nowMs;
  }

  /** The row of a string holding {@code value} in decimal (as Long.toString), without a KeyMeta. */
  static byte[] encodeLong(long value, long expireAtMs) {
    int digits = 1;
    for (long v = value; v <= -10 || v >= 10; v /= 10) {
      digits++;
    }
    int len = digits + (value < 0 ? 1 : 0);
    byte[] out = new byte[HEADER + len];
    out[0] = (byte) KeyType.STRING.code;
    putLong(out, 1, expireAtMs);
    long v = value;
    for (int i = HEADER + len - 1; i >= HEADER + len - digits; i--) {
      out[i] = (byte) ('0' + Math.abs(v % 10)); // abs of each digit: Long.MIN_VALUE too
      v /= 10;
    }
    if (value < 0) {
      out[HEADER] = '-';
    }
    return out;
  }

  byte[] encode() {
    if (type == KeyType.STRING) {
      byte[] out = new byte[HEADER + value.length];
      out[0] = (byte) type.code;
      putLong(out, 1, expireAtMs);
      System.arraycopy(value, 0, out, HEADER, value.length);
      return out;
    }
    boolean v1 = salt == 0;
    int off = v1 ? 17 : 25;
    byte[] out = new byte[type == KeyType.LIST ? (v1 ? LIST_BYTES_V1 : LIST_BYTES)
        : (v1 ? COLLECTION_BYTES_V1 : COLLECTION_BYTES)];
    out[0] = (byte) type.code;
    putLong(out, 1, expireAtMs);
    putLong(out, 9, version);
    if (!v1) {
      putLong(out, 17, salt); // a layout-1 collection keeps its layout: its sub-rows are there
    }
    putLong(out, off, size);
    if (type == KeyType.LIST) {
      putLong(out, off + 8, head);
      putLong(out, off + 16, tail);
    }
    return out;
  }

  static KeyMeta decode(byte[] in) {
    return decode(in, 0, in.length);
  }

  /** Decodes the {@code length} bytes of a metadata row at {@code start} of {@code in}. */
  static KeyMeta decode(byte[] in, int start, int length) {
    if (length < HEADER) {
      throw new IllegalStateException("Redis metadata row of " + length
          + " bytes (expected: >= " + HEADER + ")");
    }
    KeyMeta m = new KeyMeta();
    m.type = KeyType.ofCode(in[start]);
    m.expireAtMs = getLong(in, start + 1);
    if (m.type == KeyType.STRING) {
      m.value = Arrays.copyOfRange(in, start + HEADER, start + length);
      return m;
    }
    boolean list = m.type == KeyType.LIST;
    int off;
    if (length == (list ? LIST_BYTES : COLLECTION_BYTES)) {
      m.salt = getLong(in, start + 17);
      off = 25;
    } else if (length == (list ? LIST_BYTES_V1 : COLLECTION_BYTES_V1)) {
      off = 17; // layout 1: no salt
    } else {
      throw new IllegalStateException("Redis " + m.type.typeName + " metadata of " + length
          + " bytes (expected: " + (list ? LIST_BYTES : COLLECTION_BYTES) + ", or "
          + (list ? LIST_BYTES_V1 : COLLECTION_BYTES_V1) + " for layout 1)");
    }
    m.version = getLong(in, start + 9);
    m.size = getLong(in, start + off);
    if (list) {
      m.head = getLong(in, start + off + 8);
      m.tail = getLong(in, start + off + 16);
    }
    return m;
  }

  static void putLong(byte[] out, int offset, long v) {
    for (int i = 7; i >= 0; i--) {
      out[offset + i] = (byte) v;
      v >>>= 8;
    }
  }

  static long getLong(byte[] in, int offset) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (in[offset + i] & 0xFF);
    }
    return v;
  }
}
