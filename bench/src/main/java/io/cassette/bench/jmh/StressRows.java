package io.cassette.bench.jmh;

import io.cassette.storage.Cell;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.Bytes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The rows the benchmarks write: cassandra-stress's default shape (keyspace1.standard1),
 * a 10-byte key and five 34-byte columns C0..C4 of random bytes as the stress tool makes
 * them, so chunks compress as the stress load's do (little).
 */
final class StressRows {
  static final String KEYSPACE = "keyspace1";
  static final String TABLE = "standard1";
  static final int COLUMNS = 5;
  static final int VALUE_BYTES = 34;
  private static final String[] NAMES = {"C0", "C1", "C2", "C3", "C4"};

  private StressRows() {}

  /** The stress tool's key for row number {@code i}: ten printable bytes. */
  static byte[] key(long i) {
    return String.format("%010d", i).getBytes(StandardCharsets.US_ASCII);
  }

  static PartitionUpdate update(long i, long timestamp) {
    SplittableRandom r = new SplittableRandom(i * 0x9E3779B97F4A7C15L);
    List<Cell> cells = new ArrayList<>(COLUMNS);
    for (int c = 0; c < COLUMNS; c++) {
      byte[] v = new byte[VALUE_BYTES];
      r.nextBytes(v);
      cells.add(Cell.live(NAMES[c], v, timestamp));
    }
    return PartitionUpdate.builder(KEYSPACE, TABLE, key(i)).row(Row.of(Bytes.EMPTY, cells)).build();
  }
}
