package io.cassette.bench.jmh;

import io.cassette.storage.CommitLogSync;
import io.cassette.storage.Mutation;
import io.cassette.storage.commitlog.CommitLog;
import io.cassette.storage.commitlog.MutationSerializer;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.FileTree;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The commit-log half of a write: {@code serialize} frames one stress mutation as the
 * engine does (serializer, CRC32C of header and payload); {@code append} also appends it
 * to a real commit log in periodic mode (10 s), where the sync thread writes and fsyncs
 * behind the writer. Old segments are dropped as they fill so the disk use stays bounded.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xbatch", "-Xmx128m"})
public class CommitLogBenchmark {
  private static final UUID TABLE = UUID.nameUUIDFromBytes("jmh".getBytes());
  private static final List<UUID> TABLES = List.of(TABLE);

  private Path dir;
  private CommitLog log;
  private Mutation[] mutations;
  private final ByteArrayWriter buf = new ByteArrayWriter(512);
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws IOException {
    dir = Files.createTempDirectory("cassette-jmh-commitlog");
    log = CommitLog.open(dir, CommitLogSync.PERIODIC, TimeUnit.SECONDS.toNanos(10), 32L << 20, 8L << 20, 0);
    mutations = new Mutation[1024];
    for (int i = 0; i < mutations.length; i++) {
      mutations[i] = Mutation.of(StressRows.update(i, 1_700_000_000_000_000L + i));
    }
  }

  @TearDown(Level.Iteration)
  public void dropSegments() {
    log.discardSegments(s -> true);
  }

  @TearDown(Level.Trial)
  public void tearDown() throws IOException {
    log.close();
    FileTree.delete(dir);
  }

  private int frame() {
    Mutation m = mutations[next++ & (mutations.length - 1)];
    buf.reset();
    buf.writeLong(0);
    MutationSerializer.write(buf, m, TABLES);
    return CommitLog.frame(buf, buf.length() - CommitLog.RECORD_HEADER);
  }

  @Benchmark
  public int serialize() {
    return frame();
  }

  @Benchmark
  public int append() {
    int length = frame();
    log.append(buf.buffer(), length, TABLES);
    return length;
  }

  /** 10,000 {@link #append}s, then the segments dropped: one call of {@code InterleavedAb}. */
  public long appendMany() {
    long bytes = 0;
    for (int i = 0; i < 10_000; i++) {
      bytes += append();
    }
    log.discardSegments(s -> true);
    return bytes;
  }
}
