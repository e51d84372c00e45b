package io.cassette.bench.jmh;

/**
 * {@link MemtableBenchmark}'s operations in batches of {@link #BATCH} for {@link InterleavedAb}
 * (one reflective call per batch, not per operation): both sides run the same bench classes
 * against their own storage jar. Example, under the board's JIT:
 * {@code java -XX:TieredStopAtLevel=1 -Xmx256m -cp CLASSES io.cassette.bench.jmh.InterleavedAb A.cp B.cp MemtableAb get 10000 60}.
 */
public class MemtableAb {
  static final int BATCH = 10_000;
  private final MemtableBenchmark b = new MemtableBenchmark();
  public long sink;

  public void setUp() {
    b.setUp();
  }

  public void insert() {
    for (int i = 0; i < BATCH; i++) {
      sink += b.insert();
    }
  }

  public void get() {
    for (int i = 0; i < BATCH; i++) {
      sink += b.get() == null ? 0 : 1;
    }
  }

  public void overwrite() {
    for (int i = 0; i < BATCH; i++) {
      sink += b.overwrite();
    }
  }

  public void bigGet() {
    for (int i = 0; i < BATCH; i++) {
      sink += b.bigGet();
    }
  }

  public void bigInsert() {
    for (int i = 0; i < BATCH; i++) {
      sink += b.bigInsert();
    }
  }
}
