package io.cassette.coordinator.ring;

import static io.cassette.coordinator.ring.RingCoordinatorTest.b;
import static io.cassette.coordinator.ring.RingCoordinatorTest.put;
import static io.cassette.coordinator.ring.RingCoordinatorTest.value;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cluster.net.MessageFilters;
import io.cassette.cluster.net.Verb;
import io.cassette.cluster.net.VerbTimeouts;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three ring nodes in one JVM with replication factor 3: levels, unavailability, timeouts,
 * hints, read repair, speculative retry, scans and counters.
 */
class RingReplicationTest {
  static final Map<String, String> RF3 = Map.of("class", "SimpleStrategy", "replication_factor", "3");
  static final Request QUORUM = Request.of(ConsistencyLevel.QUORUM);
  static final Request ALL = Request.of(ConsistencyLevel.ALL);
  static final Request ONE = Request.of(ConsistencyLevel.ONE);

  @TempDir
  Path dir;
  RingHarness ring;
  final List<MessageFilters.Rule> cuts = new ArrayList<>();

  @BeforeEach
  void start() {
    // Short timeouts so the timeout cases stay quick; generous enough for a loaded machine.
    ring = new RingHarness(dir.resolve("ring"), 3, 16, b -> b.timeouts(VerbTimeouts.defaults()
        .with("write_request_timeout", Duration.ofMillis(1500))
        .with("read_request_timeout", Duration.ofMillis(1500))
        .with("range_request_timeout", Duration.ofMillis(3000))));
    ring.schema(new KeyspaceDefinition("ks", RF3,
        List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
  }

  @AfterEach
  void stop() {
    ring.close();
  }

  RingCoordinator c(int node) {
    return ring.node(node).coordinator();
  }

  PartitionView localRead(int node, String key) {
    return ring.node(node).engine().table("ks", "t").orElseThrow().read(b(key), ReadQuery.all(0));
  }

  /** Node {@code i} killed or cut off: the others' failure detectors say DOWN and nothing reaches it. */
  void kill(int i) {
    ring.markDown(i, true);
    cuts.add(ring.filters().allVerbs().to(RingHarness.address(i)).drop());
    cuts.add(ring.filters().allVerbs().from(RingHarness.address(i)).drop());
  }

  void revive(int i) {
    cuts.forEach(MessageFilters.Rule::off);
    cuts.clear();
    ring.markDown(i, false);
  }

  @Test
  void everyWriteReachesEveryReplica() {
    for (int i = 0; i < 30; i++) {
      c(i % 3).write(Mutation.of(put("k" + i, "v" + i, 1)), QUORUM);
    }
    // QUORUM returns after two acknowledgements; the third lands moments later.
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    for (int i = 0; i < 30; i++) {
      for (int n = 0; n < 3; n++) {
        while (value(localRead(n, "k" + i)) == null && System.nanoTime() < until) {
          Thread.onSpinWait();
        }
        assertThat(value(localRead(n, "k" + i))).as("k%d on node %d", i, n).isEqualTo("v" + i);
      }
    }
    assertThat(ring.hints()).isEmpty();
  }

  @Test
  void withOneNodeDownQuorumGoesOnAndLosesNothing() throws Exception {
    kill(2);
    int acknowledged = 0;
    int refused = 0;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (int i = 0; i < 300 && System.nanoTime() < until; i++) {
      try {
        c(i % 2).write(Mutation.of(put("q" + i, "v" + i, 1)), QUORUM);
        acknowledged++;
      } catch (CoordinatorException e) {
        refused++;
      }
    }
    assertThat(refused).isZero();
    assertThat(acknowledged).isEqualTo(300);
    // Each write had one replica down: a hint for node 2 each time.
    assertThat(ring.hints()).hasSize(300).allMatch(h -> ring.indexOf(h.target()) == 2);
    int lost = 0;
    for (int i = 0; i < acknowledged; i++) {
      if (!("v" + i).equals(value(c((i + 1) % 2).read("ks", "t", b("q" + i), ReadQuery.all(0), QUORUM)))) {
        lost++;
      }
    }
    assertThat(lost).isZero();
    // Back up: node 2 missed everything (the harness replays no hints); reads at QUORUM still
    // see every write, and a read that includes node 2 repairs it.
    revive(2);
    int seen = 0;
    for (int i = 0; i < acknowledged; i++) {
      seen += ("v" + i).equals(value(c(2).read("ks", "t", b("q" + i), ReadQuery.all(0), QUORUM))) ? 1 : 0;
    }
    assertThat(seen).isEqualTo(acknowledged);
    assertThat(value(localRead(2, "q7"))).isEqualTo("v7"); // node 2 read its own copy and repaired it
  }

  @Test
  void aNodeCutOffWithoutBeingMarkedDownIsHintedAfterTheTimeout() {
    MessageFilters.Rule cut = ring.filters().verbs(Verb.MUTATION_REQ).to(RingHarness.address(2)).drop();
    long start = System.nanoTime();
    c(0).write(Mutation.of(put("silent", "x", 1)), QUORUM); // two acknowledgements suffice
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(1000));
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (ring.hints().isEmpty() && System.nanoTime() < until) {
      Thread.onSpinWait();
    }
    assertThat(ring.hints()).hasSize(1);
    assertThat(ring.indexOf(ring.hints().get(0).target())).isEqualTo(2);
    assertThat(ring.hints().get(0).mutation().updates().get(0).key()).isEqualTo(b("silent"));
    cut.off();
  }

  @Test
  void twoNodesDownIsUnavailableAtOnce() {
    kill(1);
    kill(2);
    long start = System.nanoTime();
    assertThatThrownBy(() -> c(0).write(Mutation.of(put("u", "x", 1)), QUORUM))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
          assertThat(e.consistency).isEqualTo(ConsistencyLevel.QUORUM);
          assertThat(e.required).isEqualTo(2);
          assertThat(e.alive).isEqualTo(1);
        });
    assertThatThrownBy(() -> c(0).read("ks", "t", b("u"), ReadQuery.all(0), QUORUM))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> assertThat(e.alive).isEqualTo(1));
    assertThatThrownBy(() -> c(0).scan("ks", "t", KeyRange.ALL, ReadQuery.all(0), QUORUM))
        .isInstanceOf(CoordinatorException.Unavailable.class);
    assertThatThrownBy(() -> c(0).write(Mutation.of(put("u", "x", 1)), Request.of(ConsistencyLevel.TWO)))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> assertThat(e.required).isEqualTo(2));
    // A Paxos round names the serial level, as Cassandra 5.0.4 on a 3-node ring with 2 down does
    // (one node with RF 3 says QUORUM instead: its electorate of 1 has a quorum, the RF does not).
    Request lwt = new Request(ConsistencyLevel.QUORUM, ConsistencyLevel.SERIAL, Duration.ofSeconds(2), null);
    assertThatThrownBy(() -> c(0).compareAndSet("ks", "t", b("u"), (current, writes) -> true, lwt))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
          assertThat(e.consistency).isEqualTo(ConsistencyLevel.SERIAL);
          assertThat(e.required).isEqualTo(2);
          assertThat(e.alive).isEqualTo(1);
        });
    assertThatThrownBy(() -> c(0).read("ks", "t", b("u"), ReadQuery.all(0), Request.of(ConsistencyLevel.SERIAL)))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class,
            e -> assertThat(e.consistency).isEqualTo(ConsistencyLevel.SERIAL));
    assertThat(System.nanoTime() - start).isLessThan(TimeUnit.SECONDS.toNanos(1));
    assertThat(ring.hints()).isEmpty(); // nothing written, nothing hinted
    // ONE still works, and ANY even with no replica alive for the coordinator's... (node 0 is one).
    c(0).write(Mutation.of(put("u", "one", 1)), ONE);
    assertThat(value(c(0).read("ks", "t", b("u"), ReadQuery.all(0), ONE))).isEqualTo("one");
  }

  @Test
  void anyIsMetByAHintWhenNoReplicaIsAlive() throws Exception {
    // RF 1 keyspace: its single replica down, ANY is acknowledged by the hint.
    ring.schema(new KeyspaceDefinition("one", Map.of("class", "SimpleStrategy", "replication_factor", "1"),
        List.of(TableSpec.withDefaults("one", "t", UUID.nameUUIDFromBytes("one.t".getBytes()))), null));
    String key = null;
    for (int i = 0; key == null; i++) {
      if (ring.ownerIndex(io.cassette.storage.Murmur3Token.of(b("any" + i))) == 1) {
        key = "any" + i;
      }
    }
    kill(1);
    PartitionUpdate u = PartitionUpdate.builder("one", "t", b(key))
        .row(Row.of(new byte[0], List.of(Cell.live("v", b("x"), 1)))).build();
    c(0).write(Mutation.of(u), Request.of(ConsistencyLevel.ANY));
    assertThat(ring.hints()).hasSize(1);
    assertThatThrownBy(() -> c(0).write(Mutation.of(u), ONE))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> assertThat(e.alive).isZero());
    ring.acceptHints(false);
    assertThatThrownBy(() -> c(0).write(Mutation.of(u), Request.of(ConsistencyLevel.ANY)))
        .isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
          assertThat(e.consistency).isEqualTo(ConsistencyLevel.ANY);
          assertThat(e.required).isEqualTo(1);
          assertThat(e.alive).isZero();
        });
  }

  @Test
  void timeoutsCarryReceivedBlockForAndDataPresent() {
    MessageFilters.Rule writes = ring.filters().verbs(Verb.MUTATION_REQ).from(RingHarness.address(0)).drop();
    assertThatThrownBy(() -> c(0).write(Mutation.of(put("t", "x", 1)), QUORUM))
        .isInstanceOfSatisfying(CoordinatorException.Timeout.class, e -> {
          assertThat(e.writeType).isEqualTo("SIMPLE");
          assertThat(e.received).isEqualTo(1); // the local copy
          assertThat(e.blockFor).isEqualTo(2);
        });
    writes.off();
    c(1).write(Mutation.of(put("t", "y", 2)), ALL);
    MessageFilters.Rule reads = ring.filters().verbs(Verb.READ_REQ).from(RingHarness.address(0)).drop();
    assertThatThrownBy(() -> c(0).read("ks", "t", b("t"), ReadQuery.all(0), QUORUM))
        .isInstanceOfSatisfying(CoordinatorException.Timeout.class, e -> {
          assertThat(e.writeType).isNull();
          assertThat(e.received).isEqualTo(1);
          assertThat(e.blockFor).isEqualTo(2);
          assertThat(e.dataPresent).isTrue(); // node 0 read its own copy: only digests were missing
        });
    reads.off();
  }

  @Test
  void readRepairHealsAReplicaThatMissedWrites() {
    MessageFilters.Rule missed = ring.filters().verbs(Verb.MUTATION_REQ).to(RingHarness.address(2)).drop();
    for (int i = 0; i < 20; i++) {
      c(i % 2).write(Mutation.of(put("rr" + i, "v" + i, 10)), QUORUM);
    }
    missed.off();
    for (int i = 0; i < 20; i++) {
      assertThat(value(localRead(2, "rr" + i))).isNull();
    }
    // A read at ALL sees the mismatch, merges, and writes the value back before answering.
    for (int i = 0; i < 10; i++) {
      assertThat(value(c(0).read("ks", "t", b("rr" + i), ReadQuery.all(0), ALL))).isEqualTo("v" + i);
      assertThat(value(localRead(2, "rr" + i))).isEqualTo("v" + i);
    }
    // read_repair = 'NONE': the answer is merged, the replica left as it is.
    c(0).readPolicies((ks, t) -> ReadPolicy.of("NONE", "99p"));
    assertThat(value(c(0).read("ks", "t", b("rr10"), ReadQuery.all(0), ALL))).isEqualTo("v10");
    assertThat(value(localRead(2, "rr10"))).isNull();
    // A newer value on one replica only wins over older ones on the others.
    ring.node(2).engine().table("ks", "t").orElseThrow().apply(put("rr11", "newest", 99));
    c(0).readPolicies((ks, t) -> ReadPolicy.DEFAULT);
    assertThat(value(c(0).read("ks", "t", b("rr11"), ReadQuery.all(0), ALL))).isEqualTo("newest");
    assertThat(value(localRead(0, "rr11"))).isEqualTo("newest");
    assertThat(value(localRead(1, "rr11"))).isEqualTo("newest");
    // A scan at ALL repairs the rest.
    int n = 0;
    try (Table.CloseableIterator<PartitionView> it = c(1).scan("ks", "t", KeyRange.ALL, ReadQuery.all(0), ALL)) {
      while (it.hasNext()) {
        it.next();
        n++;
      }
    }
    assertThat(n).isEqualTo(20);
    for (int i = 12; i < 20; i++) {
      assertThat(value(localRead(2, "rr" + i))).isEqualTo("v" + i);
    }
  }

  @Test
  void aDeletionOneReplicaMissedWinsTheReadAndIsRepaired() {
    long now = System.currentTimeMillis() / 1000;
    List<String> keys = List.of("partitionDeleted", "rowDeleted", "cellDeleted", "expired");
    for (String k : keys) {
      c(0).write(Mutation.of(put(k, "old", 10)), ALL);
    }
    MessageFilters.Rule missed = ring.filters().verbs(Verb.MUTATION_REQ).to(RingHarness.address(2)).drop();
    c(0).write(Mutation.of(PartitionUpdate.builder("ks", "t", b("partitionDeleted"))
        .deletePartition(new DeletionTime(20, now)).build()), QUORUM);
    c(0).write(Mutation.of(PartitionUpdate.builder("ks", "t", b("rowDeleted"))
        .row(new Row(new byte[0], LivenessInfo.EMPTY, new DeletionTime(20, now), List.of())).build()), QUORUM);
    c(0).write(Mutation.of(PartitionUpdate.builder("ks", "t", b("cellDeleted"))
        .row(Row.of(new byte[0], List.of(Cell.tombstone("v", 20, now)))).build()), QUORUM);
    // Overwritten with a TTL that has run out by the time of the read.
    c(0).write(Mutation.of(PartitionUpdate.builder("ks", "t", b("expired"))
        .row(Row.of(new byte[0], List.of(Cell.expiring("v", b("new"), 20, 1, now - 10)))).build()), QUORUM);
    missed.off();
    for (String k : keys) {
      assertThat(value(localRead(2, k))).as("stale %s on node 2", k).isEqualTo("old");
    }
    // Coordinated by the stale replica: its own data answer is the stale one, a digest from
    // another replica differs, and the reconciled answer must not bring the old value back.
    for (String k : keys) {
      assertThat(value(c(2).read("ks", "t", b(k), ReadQuery.all(now), QUORUM))).as(k).isNull();
      // Blocking read repair has written the deletion (or the expired cell) to node 2.
      assertThat(value(ring.node(2).engine().table("ks", "t").orElseThrow().read(b(k), ReadQuery.all(now))))
          .as("%s repaired on node 2", k).isNull();
    }
    assertThat(ring.node(2).engine().table("ks", "t").orElseThrow()
        .readUnfiltered(b("partitionDeleted"), ReadQuery.all(now)).partitionDeletion().markedForDeleteAt()).isEqualTo(20);
    // Now the replicas agree: every level answers nothing, from every coordinator.
    for (int n = 0; n < 3; n++) {
      for (String k : keys) {
        assertThat(value(c(n).read("ks", "t", b(k), ReadQuery.all(now), ALL))).as("%s via %d", k, n).isNull();
      }
    }
  }

  /**
   * Short-read protection: replica A has rows 1..10, replica B only newer deletions of rows 1..5
   * (reversed: of 6..10). A QUORUM read with LIMIT 5 gets 1..5 from A, all deleted by B's
   * tombstones; without asking A for more the answer was empty, not 6..10. The same for a
   * partition of a range scan with a row limit per partition.
   */
  @Test
  void aLimitedReadAsksAShortReplicaForMoreRows() {
    long now = System.currentTimeMillis() / 1000;
    for (boolean scan : new boolean[] {false, true}) {
      for (boolean reversed : new boolean[] {false, true}) {
        String key = "srp" + (scan ? "Scan" : "") + (reversed ? "Reversed" : "");
        for (int node = 0; node < 2; node++) { // A: nodes 0 and 1
          PartitionUpdate.Builder rows = PartitionUpdate.builder("ks", "t", b(key));
          for (int i = 1; i <= 10; i++) {
            rows.row(Row.of(new byte[] {(byte) i}, List.of(Cell.live("v", b("r" + i), 10))));
          }
          ring.node(node).engine().table("ks", "t").orElseThrow().apply(rows.build());
        }
        PartitionUpdate.Builder deletions = PartitionUpdate.builder("ks", "t", b(key)); // B: node 2, the coordinator
        for (int i = reversed ? 6 : 1; i <= (reversed ? 10 : 5); i++) {
          deletions.row(new Row(new byte[] {(byte) i}, LivenessInfo.EMPTY, new DeletionTime(20, now), List.of()));
        }
        ring.node(2).engine().table("ks", "t").orElseThrow().apply(deletions.build());

        ReadQuery limit5 = new ReadQuery(List.of(io.cassette.storage.Slice.ALL), reversed, 5, now);
        List<Integer> got = new ArrayList<>();
        if (scan) {
          try (Table.CloseableIterator<PartitionView> it = c(2).scan("ks", "t", KeyRange.ALL, limit5, QUORUM)) {
            while (it.hasNext()) {
              PartitionView p = it.next();
              if (new String(p.key().key()).equals(key)) {
                p.rows().forEach(r -> got.add((int) r.clustering()[0]));
              }
            }
          }
        } else {
          c(2).read("ks", "t", b(key), limit5, QUORUM).rows().forEach(r -> got.add((int) r.clustering()[0]));
        }
        assertThat(got).as("%s, reversed %s", scan ? "scan" : "read", reversed)
            .isEqualTo(reversed ? List.of(5, 4, 3, 2, 1) : List.of(6, 7, 8, 9, 10));
      }
    }
  }

  @Test
  void aScanDoesNotBringBackADeletionOneReplicaMissed() {
    long now = System.currentTimeMillis() / 1000;
    for (int i = 0; i < 20; i++) {
      c(0).write(Mutation.of(put("s" + i, "old", 10)), ALL);
    }
    MessageFilters.Rule missed = ring.filters().verbs(Verb.MUTATION_REQ).to(RingHarness.address(2)).drop();
    for (int i = 0; i < 20; i += 2) {
      c(0).write(Mutation.of(PartitionUpdate.builder("ks", "t", b("s" + i))
          .deletePartition(new DeletionTime(20, now)).build()), QUORUM);
    }
    missed.off();
    assertThat(value(localRead(2, "s0"))).isEqualTo("old");
    // From the stale node at QUORUM: its own page and another replica's, reconciled with tombstones.
    List<String> seen = new ArrayList<>();
    try (Table.CloseableIterator<PartitionView> it = c(2).scan("ks", "t", KeyRange.ALL, ReadQuery.all(now), QUORUM)) {
      while (it.hasNext()) {
        seen.add(new String(it.next().key().key()));
      }
    }
    assertThat(seen).hasSize(10).allSatisfy(k -> assertThat(Integer.parseInt(k.substring(1)) % 2).isEqualTo(1));
    for (int i = 0; i < 20; i += 2) {
      assertThat(value(localRead(2, "s" + i))).as("s%d repaired on node 2", i).isNull();
    }
  }

  @Test
  void speculativeRetryAsksAnotherReplicaWhenOneIsSlow() {
    c(0).write(Mutation.of(put("spec", "x", 1)), ALL);
    // Node 0 is a replica and reads its copy; it asks the first peer in placement order for a
    // digest (no latencies known yet). That peer gets no reads: without a retry, a timeout.
    Endpoint first = null;
    for (Endpoint e : ring.ring(0).replicas(io.cassette.storage.Murmur3Token.of(b("spec")),
        new io.cassette.coordinator.replication.SimpleStrategy(3))) {
      if (first == null && ring.indexOf(e) != 0) {
        first = e;
      }
    }
    MessageFilters.Rule slow = ring.filters().verbs(Verb.READ_REQ).to(first.address()).drop();
    c(0).readPolicies((ks, t) -> ReadPolicy.of("BLOCKING", "20ms"));
    for (int i = 0; i < 10; i++) {
      long start = System.nanoTime();
      assertThat(value(c(0).read("ks", "t", b("spec"), ReadQuery.all(0), QUORUM))).isEqualTo("x");
      assertThat(System.nanoTime() - start).isLessThan(TimeUnit.MILLISECONDS.toNanos(1000));
    }
    // The silent peer is still asked first (it never answered, so it has no latency): without a
    // retry the read times out, which also marks the peer slow for the next reads.
    c(0).readPolicies((ks, t) -> ReadPolicy.of("BLOCKING", "NONE"));
    assertThatThrownBy(() -> c(0).read("ks", "t", b("spec"), ReadQuery.all(0), QUORUM))
        .isInstanceOf(CoordinatorException.Timeout.class);
    assertThat(value(c(0).read("ks", "t", b("spec"), ReadQuery.all(0), QUORUM))).isEqualTo("x");
    c(0).readPolicies((ks, t) -> ReadPolicy.of("BLOCKING", "ALWAYS"));
    assertThat(value(c(0).read("ks", "t", b("spec"), ReadQuery.all(0), QUORUM))).isEqualTo("x");
    slow.off();
  }

  @Test
  void speculativeRetryPolicies() {
    ReadLatencies.Table t = new ReadLatencies().table("ks", "t");
    assertThat(ReadPolicy.of(null, "NONE").retryAfterMicros(t)).isEqualTo(Long.MAX_VALUE);
    assertThat(ReadPolicy.of(null, "ALWAYS").retryAfterMicros(t)).isZero();
    assertThat(ReadPolicy.of(null, "50ms").retryAfterMicros(t)).isEqualTo(50_000);
    assertThat(ReadPolicy.of(null, "99p").retryAfterMicros(t)).isEqualTo(Long.MAX_VALUE); // no samples yet
    assertThat(ReadPolicy.of(null, "99p").retryAfterMicros(t, 750_000)).isEqualTo(750_000); // half the timeout
    for (int i = 1; i <= 100; i++) {
      t.add(i * 100L);
    }
    assertThat(ReadPolicy.of(null, "99p").retryAfterMicros(t)).isEqualTo(9_900);
    assertThat(ReadPolicy.of(null, "50PERCENTILE").retryAfterMicros(t)).isEqualTo(5_000);
    assertThat(ReadPolicy.of(null, "MIN(99p,2ms)").retryAfterMicros(t)).isEqualTo(2_000);
    assertThat(ReadPolicy.of(null, "MAX(99p,2ms)").retryAfterMicros(t)).isEqualTo(9_900);
    assertThat(ReadPolicy.of("none", null).blockingReadRepair()).isFalse();
    assertThat(ReadPolicy.DEFAULT.blockingReadRepair()).isTrue();
  }

  @Test
  void scansPageAcrossReplicasAtEveryLevel() {
    // Written at ALL: a scan at ONE may ask the one replica a QUORUM write had not reached yet.
    for (int i = 0; i < 200; i++) {
      c(i % 3).write(Mutation.of(put("s" + i, "v" + i, 1)), ALL);
    }
    for (ConsistencyLevel cl : List.of(ConsistencyLevel.ONE, ConsistencyLevel.QUORUM, ConsistencyLevel.ALL)) {
      for (int node = 0; node < 3; node++) {
        assertThat(scanAll(node, Request.of(cl), 37)).as("%s from node %d", cl, node).isEqualTo(200);
      }
    }
    kill(1);
    assertThat(scanAll(0, QUORUM, 50)).isEqualTo(200);
    assertThatThrownBy(() -> scanAll(0, ALL, 50)).isInstanceOf(CoordinatorException.Unavailable.class);
  }

  /** Scans the whole table in pages of {@code pageSize} (resuming after the last key); returns the count. */
  int scanAll(int node, Request request, int pageSize) {
    KeyRange range = KeyRange.ALL;
    int count = 0;
    io.cassette.storage.DecoratedKey last = null;
    while (true) {
      int inPage = 0;
      try (Table.CloseableIterator<PartitionView> it = c(node).scan("ks", "t", range, ReadQuery.all(0), request)) {
        while (it.hasNext() && inPage < pageSize) {
          PartitionView p = it.next();
          if (last != null) {
            assertThat(p.key().compareTo(last)).isPositive();
          }
          last = p.key();
          inPage++;
        }
      }
      count += inPage;
      if (inPage < pageSize) {
        return count;
      }
      range = new KeyRange(last, KeyRange.ALL.endToken());
    }
  }

  /** Counter updates wait for the partition's leader: a longer budget than the 2 s default on a busy machine. */
  static final Request COUNTER = new Request(ConsistencyLevel.QUORUM, ConsistencyLevel.SERIAL, Duration.ofSeconds(10),
      null);

  @Test
  void countersEndEqualToAcknowledgedIncrements() throws Exception {
    AtomicLong clock = new AtomicLong();
    int perThread = 25;
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      List<Future<int[]>> done = new ArrayList<>();
      for (int n = 0; n < 3; n++) {
        int node = n;
        done.add(pool.submit(() -> {
          int[] ackedAndUnknown = new int[2];
          for (int i = 0; i < perThread; i++) {
            try {
              increment(node, "counter", clock);
              ackedAndUnknown[0]++;
            } catch (CoordinatorException.Timeout e) {
              ackedAndUnknown[1]++; // unknown outcome: applied at most once, never retried
            }
          }
          return ackedAndUnknown;
        }));
      }
      int acked = 0;
      int unknown = 0;
      for (Future<int[]> f : done) {
        int[] r = f.get(120, TimeUnit.SECONDS);
        acked += r[0];
        unknown += r[1];
      }
      System.out.printf("counter: %d increments acknowledged, %d timed out (3 coordinators, one partition)%n",
          acked, unknown);
      assertThat(acked + unknown).isEqualTo(3 * perThread);
      assertThat(acked).isGreaterThan(3 * perThread / 2);
      long value = counter(0, "counter", QUORUM);
      // Every acknowledged increment counted once; a timed-out one at most once.
      assertThat(value).isBetween((long) acked, (long) acked + unknown);
      // With a node down the increments go on at QUORUM, through the next live replica.
      kill(0);
      for (int i = 0; i < 20; i++) {
        increment(1 + i % 2, "counter", clock);
      }
      assertThat(counter(1, "counter", QUORUM)).isEqualTo(value + 20);
      revive(0);
      // Node 0 back, with a stale copy: a read at QUORUM through the leader repairs it first.
      for (int i = 0; i < 10; i++) {
        increment(i % 3, "counter", clock);
      }
      assertThat(counter(2, "counter", QUORUM)).isEqualTo(value + 30);
      assertThat(counter(0, "counter", ALL)).isEqualTo(value + 30);
    } finally {
      pool.shutdownNow();
    }
  }

  void increment(int node, String key, AtomicLong clock) {
    c(node).readModifyWrite("ks", "t", b(key), true, (current, writes) -> {
      PartitionView v = current.read(ReadQuery.all(0));
      Cell cell = v.staticRow() == null ? null : v.staticRow().cell("v");
      long now = cell == null ? 0 : ByteBuffer.wrap(cell.value()).getLong();
      long ts = Math.max(clock.incrementAndGet(), cell == null ? 0 : cell.timestamp() + 1);
      writes.add(PartitionUpdate.builder("ks", "t", b(key)).row(Row.of(new byte[0],
          List.of(Cell.live("v", ByteBuffer.allocate(8).putLong(0, now + 1).array(), ts)))).build());
      return null;
    }, COUNTER);
  }

  long counter(int node, String key, Request request) {
    PartitionView v = c(node).read("ks", "t", b(key), ReadQuery.all(0), request);
    Cell cell = v.staticRow() == null ? null : v.staticRow().cell("v");
    return cell == null ? 0 : ByteBuffer.wrap(cell.value()).getLong();
  }

  /** Not a benchmark: a rough figure for the report (mean of 500 after a warm-up round, bounded). */
  @Test
  void levelCostFigures() {
    for (int round = 0; round < 2; round++) {
      StringBuilder line = new StringBuilder("RF=3 latency (mean of 500, micros):");
      for (Request request : List.of(ONE, QUORUM, ALL)) {
        long t0 = System.nanoTime();
        for (int i = 0; i < 500; i++) {
          c(0).write(Mutation.of(put("cost" + i, "v" + i, round * 1000 + i + 1)), request);
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < 500; i++) {
          c(0).read("ks", "t", b("cost" + i), ReadQuery.all(0), request);
        }
        long t2 = System.nanoTime();
        line.append(String.format(" %s write %d read %d;", request.consistency(), (t1 - t0) / 500_000,
            (t2 - t1) / 500_000));
      }
      if (round == 1) {
        System.out.println(line);
      }
    }
    assertThat(value(c(1).read("ks", "t", b("cost499"), ReadQuery.all(0), QUORUM))).isEqualTo("v499");
  }
}
