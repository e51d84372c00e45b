package io.cassette.bench.jmh;

import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.io.FileTree;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.UUID;

/**
 * PointReadProbe's read for {@link InterleavedAb}: each class loader gets its own flushed and
 * compacted stress table of {@code rows} partitions; {@link #batch} is 20,000 point reads of
 * {@code keys}: {@code hot} (1,000 keys), {@code gauss} (cassandra-stress's read population,
 * gaussian over the rows, sigma = rows/6) or {@code cold} (uniform). The key sequence is 2^18
 * long and repeats, so caches keyed by partition see stress-like reuse. Example:
 * {@code InterleavedAb A.cp B.cp PointReadAb batch 20000 25 keys=gauss} with {@code -Xmx256m};
 * {@code sstables=3} reads uncompacted SSTables instead of one, as a stress read between
 * compactions does; but its A/A runs (one revision on both sides) gave 0.79 to 1.47, so the two
 * sides' tables differ somehow (flushes by the memtable budget at other moments, perhaps: not
 * checked). Use it only with an A/A run beside it (bench/results/2026-12-02-readindex.md).
 */
public class PointReadAb {
  public String keys = "cold";
  public String rows = "200000";
  /** SSTables the rows are flushed into (each a slice of the keys, all covering the ring), not compacted when above 1. */
  public String sstables = "1";

  private Path dir;
  private Engine engine;
  private Table table;
  private byte[][] readKeys;
  private int next;
  public long sink;
  private final ReadQuery all = ReadQuery.all(0);

  public void setUp() throws Exception {
    int n = Integer.parseInt(rows);
    dir = Files.createTempDirectory("cassette-point-read-ab");
    engine = Engine.open(EngineOptions.defaults(dir));
    table = engine.createTable(TableSpec.withDefaults(StressRows.KEYSPACE, StressRows.TABLE,
        UUID.nameUUIDFromBytes("jmh".getBytes())));
    int files = Integer.parseInt(sstables);
    for (int i = 0; i < n; i++) {
      table.apply(StressRows.update(i, 1_700_000_000_000_000L + i));
      if (files > 1 && (i + 1) % (n / files) == 0) {
        table.flush();
      }
    }
    table.flush();
    if (files == 1) {
      table.compact();
    }
    SplittableRandom uniform = new SplittableRandom(42);
    Random gauss = new Random(42);
    readKeys = new byte[1 << 18][];
    for (int i = 0; i < readKeys.length; i++) {
      long k = switch (keys) {
        case "hot" -> (long) (i % 1000) * (n / 1000);
        case "gauss" -> Math.max(0, Math.min(n - 1, Math.round(n / 2.0 + gauss.nextGaussian() * n / 6.0)));
        default -> uniform.nextInt(n);
      };
      readKeys[i] = StressRows.key(k);
    }
  }

  public void batch() {
    for (int i = 0; i < 20_000; i++) {
      PartitionView v = table.read(readKeys[next++ & (readKeys.length - 1)], all);
      if (v.staticRow() == null) {
        throw new IllegalStateException("not found");
      }
      sink += v.staticRow().cells().size();
    }
  }

  public void tearDown() throws Exception {
    engine.close();
    FileTree.delete(dir);
  }
}
