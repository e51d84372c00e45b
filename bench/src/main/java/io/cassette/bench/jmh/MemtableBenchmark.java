package io.cassette.bench.jmh;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import java.util.Iterator;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.memtable.MemtablePartition;
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
import org.openjdk.jmh.annotations.Warmup;

/**
 * A memtable alone (no commit log): inserting stress rows into a memtable that holds
 * {@link #ROWS} partitions at most (then a fresh one, as a flush would leave), and getting
 * one of {@link #ROWS} partitions by key ({@code get}: the partition only; {@code getRow}: its
 * row too, as a read consumes it, cells and values), and overwriting a row already there
 * ({@code overwrite}: Redis's read-modify-writes, CQL updates), and reading a page of
 * {@link #PAGE} partitions in token order from one of them ({@code scan}: a range read's page,
 * and a flush's walk). Updates and keys are built before the loop so the figure is the
 * memtable's own cost.
 *
 * <p>The {@code big*} ones are one partition of {@link #MEMBERS} rows, as a Redis hash or sorted
 * set that redis-benchmark's HSET/ZADD fill (one key, members {@code element:<12 digits>}
 * under an 8-byte version prefix, one small cell each): {@code bigInsert} adds members (a
 * fresh partition every {@link #MEMBERS}), {@code bigOverwrite} rewrites one already there,
 * {@code bigGet} reads one member's row, {@code bigPage} reads {@link #PAGE} rows in order from
 * one of them (a range read, and what a flush walks).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xbatch", "-Xmx256m", "-Xms256m"})
public class MemtableBenchmark {
  /** About 40 MB of heap when full, as a 128 MB node's memtable share allows. */
  static final int ROWS = 100_000;
  /** Partitions in one {@code scan}. */
  static final int PAGE = 100;

  /** Rows of the one big partition. */
  static final int MEMBERS = 100_000;

  private PartitionUpdate[] updates;
  private PartitionUpdate[] memberUpdates;
  private byte[][] members;
  private DecoratedKey bigKey;
  private Memtable bigFilling;
  private Memtable bigFull;
  private int nextMember;
  private DecoratedKey[] keys;
  private Memtable filling;
  private Memtable full;
  private int next;

  @Setup(Level.Trial)
  public void setUp() {
    updates = new PartitionUpdate[ROWS];
    keys = new DecoratedKey[ROWS];
    full = new Memtable();
    for (int i = 0; i < ROWS; i++) {
      updates[i] = StressRows.update(i, 1);
      keys[i] = DecoratedKey.of(updates[i].key());
      full.apply(keys[i], updates[i]);
    }
    filling = new Memtable();
    bigKey = DecoratedKey.of("myhash".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    members = new byte[MEMBERS][];
    memberUpdates = new PartitionUpdate[MEMBERS];
    bigFull = new Memtable();
    java.util.SplittableRandom r = new java.util.SplittableRandom(42);
    for (int i = 0; i < MEMBERS; i++) {
      // redis-benchmark's random members, in random order
      String name = String.format("element:%012d", r.nextInt(1_000_000_000));
      byte[] m = new byte[8 + name.length()];
      m[7] = 1; // the key's version
      System.arraycopy(name.getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, m, 8, name.length());
      members[i] = m;
      memberUpdates[i] = PartitionUpdate.builder(StressRows.KEYSPACE, StressRows.TABLE, bigKey.key())
          .row(Row.of(m, java.util.List.of(Cell.live("v", new byte[] {'x', 'y', 'z'}, 1)))).build();
      bigFull.apply(bigKey, memberUpdates[i]);
    }
    bigFilling = new Memtable();
  }

  @Benchmark
  public long bigInsert() {
    int i = nextMember++;
    if (i == MEMBERS) {
      bigFilling = new Memtable();
      nextMember = 1;
      i = 0;
    }
    return bigFilling.apply(bigKey, memberUpdates[i]);
  }

  @Benchmark
  public long bigOverwrite() {
    int i = nextMember++;
    if (i >= MEMBERS) {
      nextMember = 1;
      i = 0;
    }
    int k = (int) ((i * 7919L) % MEMBERS);
    return bigFull.apply(bigKey, memberUpdates[k]);
  }

  @Benchmark
  public long bigGet() {
    int i = nextMember++;
    if (i >= MEMBERS) {
      nextMember = 1;
      i = 0;
    }
    Iterator<Row> it = bigFull.get(bigKey).rows(members[(int) ((i * 7919L) % MEMBERS)]);
    Row row = it.next();
    return row.cells().get(0).timestamp();
  }

  @Benchmark
  public long bigPage() {
    int i = nextMember++;
    if (i >= MEMBERS) {
      nextMember = 1;
      i = 0;
    }
    long sum = 0;
    Iterator<Row> it = bigFull.get(bigKey).rows(members[(int) ((i * 7919L) % MEMBERS)]);
    for (int n = 0; n < PAGE && it.hasNext(); n++) {
      sum += it.next().clustering().length;
    }
    return sum;
  }

  @Benchmark
  public long insert() {
    int i = next++;
    if (i == ROWS) {
      filling = new Memtable();
      next = 1;
      i = 0;
    }
    return filling.apply(keys[i], updates[i]);
  }

  @Benchmark
  public Object get() {
    int i = next++;
    if (i >= ROWS) {
      next = 1;
      i = 0;
    }
    // a stride through the keys, so successive gets do not share cache lines
    return full.get(keys[(int) ((i * 7919L) % ROWS)]);
  }

  @Benchmark
  public long getRow() {
    int i = next++;
    if (i >= ROWS) {
      next = 1;
      i = 0;
    }
    long sum = 0;
    for (Iterator<Row> it = full.get(keys[(int) ((i * 7919L) % ROWS)]).rows(Bytes.EMPTY); it.hasNext(); ) {
      for (Cell c : it.next().cells()) {
        sum += c.timestamp() + c.value()[0];
      }
    }
    return sum;
  }

  @Benchmark
  public long overwrite() {
    int i = next++;
    if (i >= ROWS) {
      next = 1;
      i = 0;
    }
    int k = (int) ((i * 7919L) % ROWS);
    return full.apply(keys[k], updates[k]);
  }

  @Benchmark
  public long scan() {
    int i = next++;
    if (i >= ROWS) {
      next = 1;
      i = 0;
    }
    long sum = 0;
    Iterator<MemtablePartition> it = full.partitions(keys[(int) ((i * 7919L) % ROWS)], true);
    for (int n = 0; n < PAGE && it.hasNext(); n++) {
      sum += it.next().key().token();
    }
    return sum;
  }
}
