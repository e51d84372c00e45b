package io.cassette.tools.migrate;

import java.nio.ByteBuffer;

/**
 * An order-independent checksum of a set of rows: the sum of a 64-bit hash of each row's
 * column values (in the protocol's serialized form, the same bytes on Cassette and
 * Cassandra), so two clusters that return a range's rows in different orders still agree.
 * Not thread-safe; one per range.
 */
final class RowChecksum {
  private long rows;
  private long sum;
  private long bytes;

  /** Adds one row, given its column values in the select's order (null = no value). */
  void add(ByteBuffer[] values) {
    long h = 0xcbf29ce484222325L;
    for (ByteBuffer v : values) {
      if (v == null) {
        h = mix(h, -1);
        continue;
      }
      h = mix(h, v.remaining());
      for (int i = v.position(); i < v.limit(); i++) {
        h = (h ^ (v.get(i) & 0xff)) * 0x100000001b3L;
      }
      bytes += v.remaining();
    }
    sum += finish(h);
    rows++;
  }

  long rows() {
    return rows;
  }

  long sum() {
    return sum;
  }

  long bytes() {
    return bytes;
  }

  private static long mix(long h, int length) {
    return (h ^ length) * 0x100000001b3L;
  }

  /** MurmurHash3's 64-bit finaliser: spreads the FNV hash before summing. */
  private static long finish(long h) {
    h ^= h >>> 33;
    h *= 0xff51afd7ed558ccdL;
    h ^= h >>> 33;
    h *= 0xc4ceb9fe1a85ec53L;
    return h ^ (h >>> 33);
  }
}
