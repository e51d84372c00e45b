package io.cassette.tools.stress;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * The predefined workloads' data, a pure function of the partition seed: the same seed always
 * gives the same key, column count and cell values, so a read can check what a write stored.
 *
 * <p>Keys are {@value #KEY_SIZE} characters from cassandra-stress's alphabet ('0'..'9' then
 * 'K'..'P'). They are not byte-identical to cassandra-stress's keys (which come from its
 * seeded generator chain), so data written by one tool is not validated by the other's reads.
 *
 * <p>Thread-safe: stateless.
 */
public final class KeyValueGenerator {
  /** Partition key length in bytes, as cassandra-stress's default key size. */
  public static final int KEY_SIZE = 10;
  /** Salt so that cell values differ from the key and from each other column by column. */
  private static final long VALUE_SALT = 0x9E3779B97F4A7C15L;

  private final StressSettings.ColumnSettings columns;

  public KeyValueGenerator(StressSettings.ColumnSettings columns) {
    this.columns = columns;
  }

  /** The partition key for {@code seed}. */
  public byte[] key(long seed) {
    byte[] key = new byte[KEY_SIZE];
    long value = mix(seed);
    for (int i = 0; i < KEY_SIZE; i++) {
      if (i == 16) {
        value = mix(value);
      }
      int v = (int) (value & 15);
      key[i] = (byte) ((v < 10 ? '0' : 'A') + v);
      value >>>= 4;
    }
    return key;
  }

  /** How many columns (from the first) an operation on {@code seed} writes and reads. */
  public int columnCount(long seed) {
    if (columns.count().min() == columns.count().max()) {
      return (int) columns.count().max();
    }
    return (int) columns.count().next(new SplittableRandom(mix(seed ^ 0x5DEECE66DL)));
  }

  /** The value of column {@code column} (0-based) for {@code seed}. */
  public ByteBuffer value(long seed, int column) {
    SplittableRandom random = new SplittableRandom(mix(seed + VALUE_SALT * (column + 1)));
    int size = (int) columns.size().next(random);
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i += 8) {
      long v = random.nextLong();
      for (int j = 0; j < 8 && i + j < size; j++, v >>>= 8) {
        bytes[i + j] = (byte) v;
      }
    }
    return ByteBuffer.wrap(bytes);
  }

  /** A 64-bit mixing function (SplitMix64's finaliser): nearby seeds give unrelated bits. */
  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
