package io.cassette.coordinator.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cluster.net.Verb;
import io.cassette.cluster.net.VerbTimeouts;
import io.cassette.coordinator.BatchType;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.ring.batchlog.Batchlog;
import io.cassette.coordinator.ring.batchlog.BatchlogStore;
import io.cassette.coordinator.ring.hints.HintedHandoff;
import io.cassette.coordinator.ring.hints.HintsConfig;
import io.cassette.coordinator.ring.hints.HintsMetrics;
import io.cassette.coordinator.ring.hints.PendingHints;
import io.cassette.storage.Cell;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.TableSpec;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16 end to end on three harness nodes with RF=3: the ring coordinator with real hinted
 * handoff (hints on disk, delivered when the node is back) and the batch log (LOGGED batches
 * replayed by a batch log node when their coordinator dies).
 */
class HandoffAndBatchlogRingTest {
  static final Duration WRITE_TIMEOUT = Duration.ofMillis(1000);
  static final Request ONE = Request.of(ConsistencyLevel.ONE);

  @TempDir
  Path dir;
  RingHarness ring;
  final HintedHandoff[] hints = new HintedHandoff[3];
  final Batchlog[] logs = new Batchlog[3];
  final RingCoordinator[] coordinators = new RingCoordinator[3];

  @BeforeEach
  void start() {
    ring = new RingHarness(dir.resolve("ring"), 3, 16,
        b -> b.timeouts(VerbTimeouts.defaults().with("write_request_timeout", WRITE_TIMEOUT)));
    ring.schema(new KeyspaceDefinition("ks", Map.of("class", "SimpleStrategy", "replication_factor", "3"),
        List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
    for (int i = 0; i < 3; i++) {
      int n = i;
      RingHarness.Node node = ring.node(i);
      hints[i] = new HintedHandoff(HintsConfig.defaults(dir.resolve("hints" + i))
          .withDispatchInterval(Duration.ofMillis(100)), node.messaging(), () -> ring.ring(n), new HintsMetrics(null))
          .start().registerHandlers();
      // The harness's own coordinators serve peers' requests; these coordinate with real hints.
      coordinators[i] = new RingCoordinator(node.local(), node.messaging(), () -> ring.ring(n),
          e -> CompletableFuture.completedFuture(null), hints[i]);
      logs[i] = new Batchlog(new BatchlogStore(dir.resolve("batchlog" + i), System::currentTimeMillis),
          node.messaging(), () -> ring.ring(n), WRITE_TIMEOUT, 0,
          updates -> coordinators[n].write(new Mutation(updates), ONE));
      logs[i].registerHandlers();
      logs[i].start(Duration.ofMillis(100));
      coordinators[i].batchlog(logs[i]);
    }
    // Open every connection before anything is timed (the shared machine is often loaded).
    for (int attempt = 0; attempt < 20; attempt++) {
      try {
        coordinators[0].write(Mutation.of(put("warm", "x")), Request.of(ConsistencyLevel.ALL));
        coordinators[1].write(Mutation.of(put("warm", "x")), Request.of(ConsistencyLevel.ALL));
        coordinators[2].write(Mutation.of(put("warm", "x")), Request.of(ConsistencyLevel.ALL));
        break;
      } catch (CoordinatorException.Timeout e) {
        // again
      }
    }
    // A slow warm-up write may have left hints: start every test with none.
    for (HintedHandoff h : hints) {
      h.truncate(null);
    }
    stored0 = hints[0].metrics().stored();
  }

  long stored0;

  @AfterEach
  void stop() {
    for (int i = 0; i < 3; i++) {
      logs[i].close();
      hints[i].close();
    }
    ring.close();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static PartitionUpdate put(String key, String value) {
    return PartitionUpdate.builder("ks", "t", b(key)).row(Row.of(new byte[0], List.of(Cell.live("v", b(value), 1))))
        .build();
  }

  int rowsOn(int node, String prefix, int count) {
    int found = 0;
    for (int i = 0; i < count; i++) {
      PartitionView p = ring.node(node).engine().table("ks", "t").orElseThrow().read(b(prefix + i), ReadQuery.all(0));
      found += p.rows().isEmpty() && p.staticRow() == null ? 0 : 1;
    }
    return found;
  }

  static void await(BooleanSupplier done, long millis) throws InterruptedException {
    long end = System.currentTimeMillis() + millis;
    while (!done.getAsBoolean() && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
  }

  @Test
  void writesAtOneWithANodeDownLeaveHintsThatReplayWhenItIsBack() throws Exception {
    ring.markDown(2, true);
    for (int i = 0; i < 100; i++) {
      coordinators[0].write(Mutation.of(put("k" + i, "v" + i)), ONE);
    }
    assertThat(hints[0].metrics().stored() - stored0).isEqualTo(100);
    List<PendingHints> pending = hints[0].pending();
    assertThat(pending).singleElement().satisfies(p -> {
      assertThat(p.hostId()).isEqualTo(ring.node(2).endpoint().hostId());
      assertThat(p.totalFiles()).isEqualTo(1);
    });
    assertThat(rowsOn(2, "k", 100)).isZero();
    // ONE returned after the first acknowledgement: node 1 may still be applying the last ones.
    await(() -> rowsOn(1, "k", 100) == 100, 10_000);
    assertThat(rowsOn(1, "k", 100)).isEqualTo(100);

    ring.markDown(2, false);
    hints[0].onUp(ring.node(2).endpoint().hostId());
    await(() -> hints[0].pending().isEmpty(), 20_000);
    assertThat(hints[0].pending()).isEmpty();
    assertThat(rowsOn(2, "k", 100)).as("node 2's own storage after the replay").isEqualTo(100);
    assertThat(hints[0].metrics().replayed()).isGreaterThanOrEqualTo(100); // and any left by the warm-up
  }

  @Test
  void aDecommissionedNodeHandsItsHintsToANodeThatStays() throws Exception {
    ring.markDown(2, true);
    for (int i = 0; i < 50; i++) {
      coordinators[0].write(Mutation.of(put("h" + i, "v" + i)), ONE);
    }
    assertThat(hints[0].pending()).hasSize(1);
    // Node 0 leaves while node 2 is down: its hints go to node 1, kept there for node 2.
    List<String> progress = new ArrayList<>();
    long handed = hints[0].handOver(e -> !e.equals(ring.node(0).endpoint()), progress::add);
    assertThat(handed).as("progress %s", progress).isEqualTo(50);
    assertThat(hints[0].pending()).isEmpty();
    assertThat(hints[1].pending()).singleElement()
        .satisfies(p -> assertThat(p.hostId()).isEqualTo(ring.node(2).endpoint().hostId()));
    ring.filters().allVerbs().from(RingHarness.address(0)).drop(); // node 0 is gone
    ring.markDown(2, false);
    hints[1].onUp(ring.node(2).endpoint().hostId());
    await(() -> rowsOn(2, "h", 50) == 50, 20_000);
    assertThat(rowsOn(2, "h", 50)).as("node 2's own storage after node 1 replayed").isEqualTo(50);
  }

  @Test
  void truncatehintsEmptiesAndNothingIsReplayed() throws Exception {
    ring.markDown(1, true);
    for (int i = 0; i < 20; i++) {
      coordinators[0].write(Mutation.of(put("t" + i, "v")), ONE);
    }
    assertThat(hints[0].pending()).hasSize(1);
    hints[0].truncate(null);
    assertThat(hints[0].pending()).isEmpty();
    ring.markDown(1, false);
    Thread.sleep(500); // several dispatch rounds
    assertThat(rowsOn(1, "t", 20)).isZero();
  }

  @Test
  void aLoggedBatchIsAppliedEverywhereAndLeavesNoBatchBehind() throws Exception {
    List<PartitionUpdate> batch = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      batch.add(put("b" + i, "v"));
    }
    coordinators[0].batch(batch, BatchType.LOGGED, Request.of(ConsistencyLevel.QUORUM));
    // QUORUM answers after two replicas: the third applies a moment later
    await(() -> rowsOn(0, "b", 10) == 10 && rowsOn(1, "b", 10) == 10 && rowsOn(2, "b", 10) == 10
        && logs[1].store().size() + logs[2].store().size() == 0, 5_000);
    for (int n = 0; n < 3; n++) {
      assertThat(rowsOn(n, "b", 10)).isEqualTo(10);
    }
    assertThat(logs[1].store().size() + logs[2].store().size()).isZero();
  }

  @Test
  void aLoggedBatchWhoseCoordinatorDiesAfterBatchStoreIsReplayedByABatchlogReplica() throws Exception {
    List<PartitionUpdate> batch = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      batch.add(put("d" + i, "v"));
    }
    // Node 0's mutations never leave it: it "dies" right after storing the batch elsewhere.
    ring.filters().verbs(Verb.MUTATION_REQ).from(RingHarness.address(0)).drop();
    assertThatThrownBy(() -> coordinators[0].batch(batch, BatchType.LOGGED, Request.of(ConsistencyLevel.QUORUM)))
        .isInstanceOfSatisfying(CoordinatorException.Timeout.class, t -> assertThat(t.writeType).isEqualTo("BATCH"));
    assertThat(logs[1].store().size() + logs[2].store().size()).as("kept by both batch log nodes").isEqualTo(2);
    assertThat(rowsOn(1, "d", 10) + rowsOn(2, "d", 10)).isZero();
    ring.filters().reset();
    ring.filters().allVerbs().from(RingHarness.address(0)).drop();
    ring.filters().allVerbs().to(RingHarness.address(0)).drop();
    ring.markDown(0, true);
    hints[0].close(); // its hints die with it
    // Replayed after 2 x write_request_timeout by the batch log nodes, at ONE.
    await(() -> rowsOn(1, "d", 10) == 10 && rowsOn(2, "d", 10) == 10
        && logs[1].store().size() + logs[2].store().size() == 0, 20_000);
    assertThat(rowsOn(1, "d", 10)).isEqualTo(10);
    assertThat(rowsOn(2, "d", 10)).isEqualTo(10);
    assertThat(logs[1].store().size() + logs[2].store().size()).isZero();
    // One hint per replaying node: the batch's ten partitions go to node 0 as one mutation.
    assertThat(hints[1].metrics().stored() + hints[2].metrics().stored()).as("node 0 is hinted by the replayer")
        .isGreaterThanOrEqualTo(1);
  }

  @Test
  void aReplayedBatchLeavesOutTheUpdatesOfATableDroppedSinceAndReplaysTheRest() throws Exception {
    Map<String, String> rf3 = Map.of("class", "SimpleStrategy", "replication_factor", "3");
    TableSpec t = TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()));
    ring.schema(new KeyspaceDefinition("ks", rf3,
        List.of(t, TableSpec.withDefaults("ks", "gone", UUID.nameUUIDFromBytes("ks.gone".getBytes()))), null));
    List<PartitionUpdate> batch = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      batch.add(put("r" + i, "v"));
      batch.add(PartitionUpdate.builder("ks", "gone", b("r" + i))
          .row(Row.of(new byte[0], List.of(Cell.live("v", b("v"), 1)))).build());
    }
    List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
    java.util.logging.Logger log = java.util.logging.Logger.getLogger(Batchlog.class.getName());
    java.util.logging.Handler capture = new java.util.logging.Handler() {
      @Override
      public void publish(java.util.logging.LogRecord r) {
        if (r.getLevel() == java.util.logging.Level.WARNING) {
          warnings.add(new java.util.logging.SimpleFormatter().formatMessage(r));
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    log.addHandler(capture);
    try {
      // The coordinator dies after storing the batch on nodes 1 and 2; then the table is dropped.
      ring.filters().verbs(Verb.MUTATION_REQ).from(RingHarness.address(0)).drop();
      assertThatThrownBy(() -> coordinators[0].batch(batch, BatchType.LOGGED, Request.of(ConsistencyLevel.QUORUM)))
          .isInstanceOf(CoordinatorException.Timeout.class);
      assertThat(logs[1].store().size() + logs[2].store().size()).isEqualTo(2);
      ring.schema(new KeyspaceDefinition("ks", rf3, List.of(t), null));
      ring.filters().reset();
      ring.filters().allVerbs().from(RingHarness.address(0)).drop();
      ring.filters().allVerbs().to(RingHarness.address(0)).drop();
      ring.markDown(0, true);
      hints[0].close();
      // Replayed (after 2 x write_request_timeout, then every 100 ms) once, not refused for ever.
      await(() -> rowsOn(1, "r", 5) == 5 && rowsOn(2, "r", 5) == 5
          && logs[1].store().size() + logs[2].store().size() == 0, 20_000);
      assertThat(rowsOn(1, "r", 5)).as("the rest of the batch is replayed").isEqualTo(5);
      assertThat(rowsOn(2, "r", 5)).isEqualTo(5);
      assertThat(logs[1].store().size() + logs[2].store().size()).as("and the batch is gone").isZero();
      Thread.sleep(500); // several more replay rounds
      assertThat(warnings).as("said once by each batch log node").hasSize(2)
          .allSatisfy(w -> assertThat(w).contains("5 of its 10 updates are of tables dropped since (ks.gone)"));
    } finally {
      log.removeHandler(capture);
    }
  }

  @Test
  void aBatchLogStoreThatTimesOutIsAWriteTimeoutOfTypeBatchLog() {
    ring.filters().verbs(Verb.BATCH_STORE_REQ).drop();
    List<PartitionUpdate> batch = List.of(put("x1", "v"), put("x2", "v"));
    assertThatThrownBy(() -> coordinators[0].batch(batch, BatchType.LOGGED, Request.of(ConsistencyLevel.QUORUM)))
        .isInstanceOfSatisfying(CoordinatorException.Timeout.class, t -> {
          assertThat(t.writeType).isEqualTo("BATCH_LOG");
          assertThat(t.blockFor).isEqualTo(2);
        });
    assertThat(rowsOn(0, "x", 3)).as("nothing applied").isZero();
  }
}
