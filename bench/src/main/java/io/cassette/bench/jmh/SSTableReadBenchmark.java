package io.cassette.bench.jmh;

import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.io.FileTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * A point read of one stress row through the engine's public API after everything was
 * flushed and compacted into one SSTable (the memtable empty): Bloom filter, index, data
 * chunk, row decoding. {@code hot}: 1,000 keys read again and again (the chunk cache holds
 * them); {@code cold}: any of {@link #ROWS} keys (about 36 MB of rows, far beyond the cache
 * of a 128 MB heap, so nearly every read decodes a chunk; the OS page cache holds the file).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xbatch", "-Xmx128m", "-Xms128m"})
public class SSTableReadBenchmark {
  static final int ROWS = 200_000;
  static final int HOT_ROWS = 1_000;

  @Param({"hot", "cold"})
  public String keys;

  private Path dir;
  private Engine engine;
  private Table table;
  private byte[][] readKeys;
  private int next;
  private final ReadQuery all = ReadQuery.all(0);

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("cassette-jmh-sstable");
    engine = Engine.open(EngineOptions.defaults(dir));
    table = engine.createTable(TableSpec.withDefaults(StressRows.KEYSPACE, StressRows.TABLE,
        UUID.nameUUIDFromBytes("jmh".getBytes())));
    for (int i = 0; i < ROWS; i++) {
      table.apply(StressRows.update(i, 1_700_000_000_000_000L + i));
    }
    table.flush();
    table.compact();
    int n = keys.equals("hot") ? HOT_ROWS : ROWS;
    readKeys = new byte[n][];
    java.util.SplittableRandom r = new java.util.SplittableRandom(42);
    for (int i = 0; i < n; i++) {
      readKeys[i] = StressRows.key(keys.equals("hot") ? i * (ROWS / HOT_ROWS) : r.nextInt(ROWS));
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    engine.close();
    FileTree.delete(dir);
  }

  @Benchmark
  public PartitionView read() {
    int i = next++;
    if (i >= readKeys.length) {
      next = 1;
      i = 0;
    }
    PartitionView v = table.read(readKeys[i], all);
    if (v.staticRow() == null) {
      throw new IllegalStateException("row " + new String(readKeys[i]) + " not found");
    }
    return v;
  }
}
