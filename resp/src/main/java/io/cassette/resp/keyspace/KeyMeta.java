package io.cassette.resp.keyspace;

import java.nio.ByteBuffer;

/**
 * The metadata of one Redis key, as stored in the value of its metadata row (see
 * {@link RedisLayout}). Layout, big-endian (do not change: it is on disk):
 *
 * <pre>
 *  0      1              9              17             25             33          41
 *  +------+--------------+--------------+--------------+--------------+-----------+
 *  | type | expireAtMs   | version      | size         | head         | tail      |  list
 *  +------+--------------+--------------+--------------+--------------+-----------+
 *  | type | expireAtMs   | version      | size         |                             hash, set, zset
 *  +------+--------------+--------------+--------------+
 *  | type | expireAtMs   | value bytes ...                                           string
 *  +------+--------------+-----------------------------
 * </pre>
 *
 * {@code expireAtMs} is 0 for a key without expiry. {@code version} names the sub-row
 * partition of a collection; a new collection gets a new version, so rows of a deleted or
 * expired predecessor are never seen again. {@code head}/{@code tail} bound a list's
 * positions: elements live at positions head .. tail-1.
 *
 * <p>A mutable value object: commands change fields and write it back. Not thread-safe.
 */
public final class KeyMeta {
  static final int HEADER = 9;
  static final int COLLECTION_BYTES = 25;
  static final int LIST_BYTES = 41;

  public KeyType type;
  public long expireAtMs;
  public long version;
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

  public static KeyMeta collection(KeyType type, long version) {
    KeyMeta m = new KeyMeta();
    m.type = type;
    m.version = version;
    return m;
  }

  /** A detached copy (a string's value array is shared: values are never changed in place). */
  public KeyMeta copy() {
    KeyMeta o = new KeyMeta();
    o.type = type;
    o.expireAtMs = expireAtMs;
    o.version = version;
    o.size = size;
    o.head = head;
    o.tail = tail;
    o.value = value;
    return o;
  }

  public boolean expiresAt(long nowMs) {
    return expireAtMs != 0 && expireAtMs <= nowMs;
  }

  byte[] encode() {
    if (type == KeyType.STRING) {
      byte[] out = new byte[HEADER + value.length];
      out[0] = (byte) type.code;
      putLong(out, 1, expireAtMs);
      System.arraycopy(value, 0, out, HEADER, value.length);
      return out;
    }
    byte[] out = new byte[type == KeyType.LIST ? LIST_BYTES : COLLECTION_BYTES];
    out[0] = (byte) type.code;
    putLong(out, 1, expireAtMs);
    putLong(out, 9, version);
    putLong(out, 17, size);
    if (type == KeyType.LIST) {
      putLong(out, 25, head);
      putLong(out, 33, tail);
    }
    return out;
  }

  static KeyMeta decode(byte[] in) {
    if (in.length < HEADER) {
      throw new IllegalStateException("Redis metadata row of " + in.length
          + " bytes (expected: >= " + HEADER + ")");
    }
    KeyMeta m = new KeyMeta();
    m.type = KeyType.ofCode(in[0]);
    ByteBuffer b = ByteBuffer.wrap(in);
    m.expireAtMs = b.getLong(1);
    if (m.type == KeyType.STRING) {
      byte[] v = new byte[in.length - HEADER];
      System.arraycopy(in, HEADER, v, 0, v.length);
      m.value = v;
      return m;
    }
    int expected = m.type == KeyType.LIST ? LIST_BYTES : COLLECTION_BYTES;
    if (in.length < expected) {
      throw new IllegalStateException("Redis " + m.type.typeName + " metadata of " + in.length
          + " bytes (expected: " + expected + ")");
    }
    m.version = b.getLong(9);
    m.size = b.getLong(17);
    if (m.type == KeyType.LIST) {
      m.head = b.getLong(25);
      m.tail = b.getLong(33);
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
