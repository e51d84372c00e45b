package io.cassette.coordinator.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cluster.net.MessageFilters;
import io.cassette.cluster.net.Verb;
import io.cassette.cluster.net.VerbTimeouts;
import io.cassette.coordinator.BatchType;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Three ring nodes in one JVM: requests coordinated by any node reach the token's owner. */
class RingCoordinatorTest {
  static final Map<String, String> RF1 = Map.of("class", "SimpleStrategy", "replication_factor", "1");
  static final Request ONE = Request.of(ConsistencyLevel.ONE);

  @TempDir
  Path dir;
  RingHarness ring;

  @BeforeEach
  void start() {
    // Default timeouts (2 s writes, 5 s reads): the shared test machine is often loaded.
    ring = new RingHarness(dir.resolve("ring"), 3, 16, b -> b);
    schema(ring);
  }

  static void schema(RingHarness ring) {
    ring.schema(new KeyspaceDefinition("ks", RF1,
        List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
  }

  @AfterEach
  void stop() {
    ring.close();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static PartitionUpdate put(String key, String value, long ts) {
    return PartitionUpdate.builder("ks", "t", b(key)).row(Row.of(new byte[0], List.of(Cell.live("v", b(value), ts))))
        .build();
  }

  static String value(PartitionView p) {
    Row r = row(p);
    if (r == null) {
      return null;
    }
    Cell c = r.cell("v");
    return c == null ? null : new String(c.value(), StandardCharsets.UTF_8);
  }

  Coordinator c(int node) {
    return ring.node(node).coordinator();
  }

  PartitionView localRead(int node, String key) {
    return ring.node(node).engine().table("ks", "t").orElseThrow().read(b(key), ReadQuery.all(0));
  }

  int owner(String key) {
    return ring.ownerIndex(Murmur3Token.of(b(key)));
  }

  /** A key owned by node {@code index}. */
  String keyOwnedBy(int index, String prefix) {
    for (int i = 0; ; i++) {
      if (owner(prefix + i) == index) {
        return prefix + i;
      }
    }
  }

  @Test
  void writesLandOnTheOwnerOnlyAndEveryNodeReadsThem() {
    int[] perOwner = new int[3];
    for (int i = 0; i < 150; i++) {
      c(0).write(Mutation.of(put("k" + i, "v" + i, 1)), ONE);
    }
    for (int i = 0; i < 150; i++) {
      String key = "k" + i;
      int o = owner(key);
      perOwner[o]++;
      for (int n = 0; n < 3; n++) {
        assertThat(value(localRead(n, key))).as("engine of node %d for %s (owner %d)", n, key, o)
            .isEqualTo(n == o ? "v" + i : null);
        assertThat(value(c(n).read("ks", "t", b(key), ReadQuery.all(0), ONE))).isEqualTo("v" + i);
      }
    }
    assertThat(java.util.Arrays.stream(perOwner).min().getAsInt()).isGreaterThan(10); // 16 tokens each: every node owns some
  }

  @Test
  void aMutationAcrossOwnersAndABatchAreSplitPerOwner() {
    List<PartitionUpdate> updates = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      updates.add(put("m" + i, "x", 1));
    }
    c(1).write(new Mutation(updates), ONE);
    List<PartitionUpdate> batch = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      batch.add(put("b" + i, "y", 1));
    }
    c(2).batch(batch, BatchType.LOGGED, ONE);
    for (int i = 0; i < 30; i++) {
      assertThat(value(localRead(owner("m" + i), "m" + i))).isEqualTo("x");
      assertThat(value(localRead(owner("b" + i), "b" + i))).isEqualTo("y");
    }
    c(0).truncate("ks", "t", ONE);
    for (int n = 0; n < 3; n++) {
      try (Table.CloseableIterator<PartitionView> it = ring.node(n).engine().table("ks", "t").orElseThrow()
          .scan(KeyRange.ALL, ReadQuery.all(0))) {
        assertThat(it.hasNext()).as("node %d truncated", n).isFalse();
      }
    }
  }

  @Test
  void scansAndPagesReturnEveryPartitionOnceInTokenOrder() {
    Set<String> written = new HashSet<>();
    for (int i = 0; i < 200; i++) {
      c(i % 3).write(Mutation.of(put("s" + i, "v", 1)), ONE);
      written.add("s" + i);
    }
    for (int n = 0; n < 3; n++) {
      List<DecoratedKey> all = scan(c(n), KeyRange.ALL, Integer.MAX_VALUE);
      assertThat(all).hasSize(200);
      assertThat(all).isSorted();
      Set<String> keys = new HashSet<>();
      for (DecoratedKey k : all) {
        keys.add(new String(k.key(), StandardCharsets.UTF_8));
      }
      assertThat(keys).isEqualTo(written);
      // Paging: stop after 7, resume with KeyRange(lastKey, end).
      List<DecoratedKey> paged = new ArrayList<>();
      KeyRange range = KeyRange.ALL;
      while (true) {
        List<DecoratedKey> page = scan(c(n), range, 7);
        paged.addAll(page);
        if (page.size() < 7) {
          break;
        }
        range = new KeyRange(page.get(page.size() - 1), Long.MAX_VALUE);
      }
      assertThat(paged).isEqualTo(all);
      // A token range (CQL's token() bounds) cut inside the ring.
      long lo = all.get(50).token();
      long hi = all.get(150).token();
      assertThat(scan(c(n), KeyRange.tokens(lo, hi), Integer.MAX_VALUE)).isEqualTo(all.subList(51, 151));
    }
  }

  static List<DecoratedKey> scan(Coordinator c, KeyRange range, int max) {
    List<DecoratedKey> out = new ArrayList<>();
    try (Table.CloseableIterator<PartitionView> it = c.scan("ks", "t", range, ReadQuery.all(0), ONE)) {
      while (out.size() < max && it.hasNext()) {
        out.add(it.next().key());
      }
    }
    return out;
  }

  @Test
  void compareAndSetFromSeveralCoordinatorsIsLinearizable() throws Exception {
    String key = keyOwnedBy(2, "cas");
    int perThread = 40;
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int n = 0; n < 3; n++) { // nodes 0 and 1 forward, node 2 owns the key
        Coordinator coordinator = c(n);
        done.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            increment(coordinator, key);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(counter(c(0).read("ks", "t", b(key), ReadQuery.all(0), ONE))).isEqualTo(3 * perThread);
  }

  /** Adds one to the counter in {@code key}; the write's timestamp is the new value (monotonic). */
  static void increment(Coordinator c, String key) {
    Request cas = new Request(ConsistencyLevel.ONE, ConsistencyLevel.SERIAL, Duration.ofSeconds(20), null);
    c.compareAndSet("ks", "t", b(key), (current, writes) -> {
      long v = counter(current.read(ReadQuery.all(0)));
      writes.add(PartitionUpdate.builder("ks", "t", b(key)).row(Row.of(new byte[0],
          List.of(Cell.live("v", ByteBuffer.allocate(8).putLong(v + 1).array(), v + 1)))).build());
      return v + 1;
    }, cas);
  }

  static long counter(PartitionView p) {
    Row r = row(p);
    return r == null ? 0 : ByteBuffer.wrap(r.cell("v").value()).getLong();
  }

  /** The row the tests write: clustering empty, i.e. the static row. */
  static Row row(PartitionView p) {
    return p.rows().isEmpty() ? p.staticRow() : p.rows().get(0);
  }

  @Test
  void anOwnerThatIsDownIsUnavailableAtOnce() {
    String key = keyOwnedBy(1, "down");
    ring.markDown(1, true);
    long start = System.nanoTime();
    assertThatThrownBy(() -> c(0).read("ks", "t", b(key), ReadQuery.all(0), ONE))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
          assertThat(e.consistency).isEqualTo(ConsistencyLevel.ONE);
          assertThat(e.required).isEqualTo(1);
          assertThat(e.alive).isEqualTo(0);
        });
    assertThatThrownBy(() -> c(2).write(Mutation.of(put(key, "x", 1)), ONE))
        .isInstanceOf(CoordinatorException.Unavailable.class);
    assertThatThrownBy(() -> scan(c(0), KeyRange.ALL, 1)).isInstanceOf(CoordinatorException.Unavailable.class);
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(200));
    // Keys on the live nodes are still served.
    c(0).write(Mutation.of(put(keyOwnedBy(2, "up"), "y", 1)), ONE);
    ring.markDown(1, false);
    c(0).write(Mutation.of(put(key, "x", 1)), ONE);
    assertThat(value(c(2).read("ks", "t", b(key), ReadQuery.all(0), ONE))).isEqualTo("x");
  }

  @Test
  void droppedMessagesTimeOutAsReadAndWriteTimeouts() {
    ring.close();
    ring = new RingHarness(dir.resolve("short"), 3, 16, b -> b.timeouts(VerbTimeouts.defaults()
        .with("read_request_timeout", Duration.ofMillis(500))
        .with("write_request_timeout", Duration.ofMillis(500))));
    schema(ring);
    String key = keyOwnedBy(2, "drop");
    MessageFilters.Rule reads = ring.filters().verbs(Verb.READ_REQ).to(RingHarness.address(2)).drop();
    assertThatThrownBy(() -> c(0).read("ks", "t", b(key), ReadQuery.all(0), ONE))
        .isInstanceOfSatisfying(CoordinatorException.Timeout.class, e -> {
          assertThat(e.writeType).isNull();
          assertThat(e.received).isEqualTo(0);
          assertThat(e.blockFor).isEqualTo(1);
        });
    reads.off();
    MessageFilters.Rule writes = ring.filters().verbs(Verb.MUTATION_RSP).from(RingHarness.address(2)).drop();
    assertThatThrownBy(() -> c(0).write(Mutation.of(put(key, "x", 1)), ONE))
        .isInstanceOfSatisfying(CoordinatorException.Timeout.class, e -> assertThat(e.writeType).isEqualTo("SIMPLE"));
    writes.off();
    // The write reached the owner; only its acknowledgement was lost.
    assertThat(value(c(0).read("ks", "t", b(key), ReadQuery.all(0), ONE))).isEqualTo("x");
  }

  @Test
  void aTableTheOwnerDoesNotKnowIsAFailure() {
    TableSpec spec = TableSpec.withDefaults("ks2", "t", UUID.nameUUIDFromBytes("ks2.t".getBytes()));
    ring.node(0).local().metadata().commit(io.cassette.coordinator.metadata.MetadataChange.put(
        new KeyspaceDefinition("ks2", RF1, List.of(spec), null)));
    String key = keyOwnedBy(1, "f");
    PartitionUpdate u = PartitionUpdate.builder("ks2", "t", b(key))
        .row(Row.of(new byte[0], List.of(Cell.live("v", b("x"), 1)))).build();
    assertThatThrownBy(() -> c(0).write(Mutation.of(u), ONE))
        .isInstanceOfSatisfying(CoordinatorException.Failure.class, e -> {
          assertThat(e.writeType).isEqualTo("SIMPLE");
          assertThat(e.failures).isEqualTo(Map.of(RingHarness.address(1), 3)); // INCOMPATIBLE_SCHEMA
          assertThat(e.getMessage()).contains("INCOMPATIBLE_SCHEMA from /127.0.0.2:");
        });
    assertThatThrownBy(() -> c(0).read("ks2", "t", b(key), ReadQuery.all(0), ONE))
        .isInstanceOfSatisfying(CoordinatorException.Failure.class, e -> assertThat(e.writeType).isNull());
  }

  @Test
  void levelsAreCheckedAgainstTheRing() {
    ring.schema(new KeyspaceDefinition("rf3", Map.of("class", "SimpleStrategy", "replication_factor", "3"),
        List.of(TableSpec.withDefaults("rf3", "t", UUID.nameUUIDFromBytes("rf3.t".getBytes()))), null));
    // Three nodes alive: QUORUM of 3 is reachable (the data is on the primary until issue 16).
    c(0).write(Mutation.of(PartitionUpdate.builder("rf3", "t", b("q"))
        .row(Row.of(new byte[0], List.of(Cell.live("v", b("x"), 1)))).build()), Request.of(ConsistencyLevel.QUORUM));
    ring.markDown(keyOwnerOtherThan(0, "rf3-"), true);
    assertThatThrownBy(() -> c(0).read("rf3", "t", b("q"), ReadQuery.all(0), Request.of(ConsistencyLevel.ALL)))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
          assertThat(e.required).isEqualTo(3);
          assertThat(e.alive).isEqualTo(2);
        });
    assertThatThrownBy(() -> c(0).read("ks", "t", b("q"), ReadQuery.all(0), Request.of(ConsistencyLevel.ANY)))
        .isInstanceOf(CoordinatorException.Invalid.class);
  }

  private int keyOwnerOtherThan(int node, String prefix) {
    return node == 1 ? 2 : 1;
  }

  @Test
  void aMessageFromANewerEpochWaitsForCatchUp() throws InterruptedException {
    String key = keyOwnedBy(1, "epoch");
    c(0).write(Mutation.of(put(key, "x", 1)), ONE);
    assertThat(ring.catchUps()).isEmpty();
    ring.setEpoch(0, 5);
    assertThat(value(c(0).read("ks", "t", b(key), ReadQuery.all(0), ONE))).isEqualTo("x");
    assertThat(ring.catchUps()).hasSize(1);
    assertThat(ring.catchUps().get(0)).containsExactly(1, 5);
    assertThat(ring.ring(1).epoch()).isEqualTo(5);
    // An answer from a node that is ahead starts the coordinator's catch-up too.
    ring.setEpoch(1, 9);
    c(0).read("ks", "t", b(key), ReadQuery.all(0), ONE);
    // Started from a handler thread (the answer is counted on the event loop): wait, bounded.
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (!java.util.Arrays.equals(ring.catchUps().get(ring.catchUps().size() - 1), new long[] {0, 9})
        && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(ring.catchUps().get(ring.catchUps().size() - 1)).containsExactly(0, 9);
  }

  /**
   * Not a benchmark, a rough figure for the report: a partition owned by the coordinator
   * (an engine call) against one owned by a peer (a loopback round trip), bounded in count.
   */
  @Test
  void forwardingCostsARoundTrip() {
    String mine = keyOwnedBy(0, "lat-local");
    String theirs = keyOwnedBy(1, "lat-remote");
    for (int round = 0; round < 2; round++) { // the first round warms up
      long[] local = timeWritesAndReads(mine, 1000);
      long[] remote = timeWritesAndReads(theirs, 1000);
      if (round == 1) {
        System.out.printf("ring latency (mean of 1000, micros): local write %d read %d; forwarded write %d read %d%n",
            local[0], local[1], remote[0], remote[1]);
      }
    }
    assertThat(value(c(0).read("ks", "t", b(theirs), ReadQuery.all(0), ONE))).isEqualTo("v999");
  }

  private long[] timeWritesAndReads(String key, int n) {
    long t0 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      c(0).write(Mutation.of(put(key, "v" + i, i + 1)), ONE);
    }
    long t1 = System.nanoTime();
    for (int i = 0; i < n; i++) {
      c(0).read("ks", "t", b(key), ReadQuery.all(0), ONE);
    }
    long t2 = System.nanoTime();
    return new long[] {(t1 - t0) / n / 1000, (t2 - t1) / n / 1000};
  }
}
