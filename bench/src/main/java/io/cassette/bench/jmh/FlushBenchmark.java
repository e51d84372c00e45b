package io.cassette.bench.jmh;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.TableSpec;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.compaction.CompactionMerger;
import io.cassette.storage.compaction.CompactionTask;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.io.FileTree;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.memtable.MemtableFlush;
import io.cassette.storage.sstable.SSTableDescriptor;
import io.cassette.storage.sstable.SSTableReader;
import io.cassette.storage.sstable.SSTableScanner;
import io.cassette.storage.sstable.SSTableWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The background work a stress write costs, per row: {@code flush} writes a memtable of
 * {@link #ROWS} stress rows into an SSTable (what the flush thread does: rows, index, Bloom
 * filter, Digest.db, Meta.db, fsync); {@code compact} merges {@link #INPUTS} such SSTables
 * into one as a compaction does. {@code disjoint}: each key in one input (a stress write load:
 * every key written once); {@code overlap}: every key in every input, newer timestamps in later
 * ones (overwrites). One operation is one row written or read: the figure is per row.
 * The table's default options (LZ4, 16 KiB chunks), or uncompressed ({@code compression=none}). Inputs are left as they were. Compare
 * revisions by {@code -prof io.cassette.bench.jmh.CpuTimeProfiler}'s CPU time per row.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 3)
@Measurement(iterations = 5, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xbatch", "-Xmx128m", "-Xms128m"})
public class FlushBenchmark {
  static final int ROWS = 20_000;
  static final int INPUTS = 4;

  @Param({"disjoint", "overlap"})
  public String keys;

  /** {@code lz4}: the table default; {@code none}: the stress tool's tables (uncompressed). */
  @Param({"lz4", "none"})
  public String compression;

  private Path dir;
  private TableSpec spec;
  private Memtable memtable;
  private final List<SSTableReader> inputs = new ArrayList<>();
  private long generation;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    // in memory where there is /dev/shm: an fsync then costs no wait, so an iteration holds
    // many operations; what is measured is CPU time anyway
    Path shm = Path.of("/dev/shm");
    dir = Files.isDirectory(shm) && Files.isWritable(shm) ? Files.createTempDirectory(shm, "cassette-jmh-flush")
        : Files.createTempDirectory("cassette-jmh-flush");
    TableSpec d = TableSpec.withDefaults(StressRows.KEYSPACE, StressRows.TABLE, UUID.nameUUIDFromBytes("jmh".getBytes()));
    spec = compression.equals("none") ? new TableSpec(d.keyspace(), d.name(), d.id(), java.util.Map.of("enabled", "false"),
        d.compaction(), d.gcGraceSeconds(), d.bloomFilterFpChance(), d.defaultTimeToLive()) : d;
    memtable = fill(0, 0);
    for (int i = 0; i < INPUTS; i++) {
      Memtable m = keys.equals("disjoint") ? fill(i * (long) ROWS, i) : fill(0, i);
      SSTableWriter w = writer();
      MemtableFlush.write(m, w);
      inputs.add(SSTableReader.open(w.finish(CommitLogPosition.NONE)));
    }
  }

  private static Memtable fill(long firstKey, int version) {
    Memtable m = new Memtable();
    for (long i = firstKey; i < firstKey + ROWS; i++) {
      var u = StressRows.update(i, 1_700_000_000_000_000L + i + version * 1_000_000L);
      m.apply(DecoratedKey.of(u.key()), u);
    }
    return m;
  }

  private SSTableWriter writer() {
    return new SSTableWriter(new SSTableDescriptor(dir, ++generation), Compressors.forOptions(spec.compression()),
        Compressors.chunkLength(spec.compression()), ROWS, spec.bloomFilterFpChance(), null);
  }

  private static void delete(SSTableDescriptor d) throws IOException {
    for (SSTableDescriptor.Component c : SSTableDescriptor.Component.values()) {
      Files.deleteIfExists(d.path(c));
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    inputs.forEach(SSTableReader::release);
    FileTree.delete(dir);
  }

  @Benchmark
  @OperationsPerInvocation(ROWS)
  public long flush() throws IOException {
    SSTableWriter w = writer();
    MemtableFlush.write(memtable, w);
    SSTableDescriptor d = w.finish(CommitLogPosition.NONE);
    long n = w.uncompressedBytes();
    delete(d);
    return n;
  }

  @Benchmark
  @OperationsPerInvocation(ROWS * INPUTS)
  public long compact() throws IOException {
    SSTableWriter w = writer();
    List<SSTableScanner> scanners = new ArrayList<>();
    try {
      CompactionTask.merge(inputs, w, new CompactionMerger(1_800_000_000L, spec.gcGraceSeconds()),
          key -> Long.MAX_VALUE, null, () -> false, scanners);
    } finally {
      scanners.forEach(SSTableScanner::close);
    }
    SSTableDescriptor d = w.finish(CommitLogPosition.NONE);
    long n = w.uncompressedBytes();
    delete(d);
    return n;
  }
}
