package io.cassette.coordinator.ring.batchlog;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cluster.net.Verb;
import io.cassette.cluster.net.VerbTimeouts;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.ring.RingHarness;
import io.cassette.storage.Cell;
import io.cassette.storage.Murmur3Token;
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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The batch log across three harness nodes: stored on the two others, removed, or replayed by them. */
class BatchlogRingTest {
  static final Duration WRITE_TIMEOUT = Duration.ofMillis(500);

  @TempDir
  Path dir;
  RingHarness ring;
  final Batchlog[] logs = new Batchlog[3];

  @BeforeEach
  void start() {
    ring = new RingHarness(dir.resolve("ring"), 3, 16,
        b -> b.timeouts(VerbTimeouts.defaults().with("write_request_timeout", WRITE_TIMEOUT)));
    ring.schema(new KeyspaceDefinition("ks", Map.of("class", "SimpleStrategy", "replication_factor", "3"),
        List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
    for (int i = 0; i < 3; i++) {
      int n = i;
      logs[i] = new Batchlog(new BatchlogStore(dir.resolve("batchlog" + i), System::currentTimeMillis),
          ring.node(i).messaging(), () -> ring.ring(n), WRITE_TIMEOUT, 0,
          updates -> ring.node(n).coordinator().write(new Mutation(updates), Request.of(ConsistencyLevel.ONE)));
      logs[i].registerHandlers();
      logs[i].start(Duration.ofMillis(100));
    }
    // Connections are opened by the first messages; on a loaded machine that can take longer
    // than the 500 ms timeout, so open them before measuring anything.
    for (int attempt = 0; ; attempt++) {
      try {
        logs[0].write(batch("warm", 1), ConsistencyLevel.ONE, u -> {});
        break;
      } catch (CoordinatorException.Timeout e) {
        if (attempt == 20) {
          throw e;
        }
      }
    }
    // A warm-up store that timed out may still land after its removal was sent; it is then
    // replayed and removed (2 x write timeout). Tests count batches: start from none.
    try {
      await(() -> logs[0].store().size() + logs[1].store().size() + logs[2].store().size() == 0, 15_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @AfterEach
  void stop() {
    for (Batchlog l : logs) {
      l.close();
    }
    ring.close();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** Updates of {@code count} partitions whose primary owner is not node 0. */
  List<PartitionUpdate> batch(String prefix, int count) {
    List<PartitionUpdate> out = new ArrayList<>();
    for (int i = 0; out.size() < count; i++) {
      String key = prefix + i;
      if (ring.ownerIndex(Murmur3Token.of(b(key))) != 0) {
        out.add(PartitionUpdate.builder("ks", "t", b(key))
            .row(Row.of(new byte[0], List.of(Cell.live("v", b("v" + i), 1)))).build());
      }
    }
    return out;
  }

  boolean onOwner(PartitionUpdate u) {
    int owner = ring.ownerIndex(Murmur3Token.of(u.key()));
    PartitionView p = ring.node(owner).engine().table("ks", "t").orElseThrow().read(u.key(), ReadQuery.all(0));
    return !p.rows().isEmpty() || p.staticRow() != null;
  }

  static void await(BooleanSupplier done, long millis) throws InterruptedException {
    long end = System.currentTimeMillis() + millis;
    while (!done.getAsBoolean() && System.currentTimeMillis() < end) {
      Thread.sleep(20);
    }
  }

  @Test
  void aBatchWhoseCoordinatorDiesAfterStoringItIsReplayedByABatchlogNode() throws Exception {
    List<PartitionUpdate> updates = batch("died", 10);
    assertThatThrownBy(() -> logs[0].write(updates, ConsistencyLevel.QUORUM, u -> {
      throw new IllegalStateException("the coordinator died here");
    })).hasMessageContaining("died");
    assertThat(logs[1].store().size() + logs[2].store().size()).as("stored on both other nodes").isEqualTo(2);
    assertThat(updates.stream().filter(this::onOwner).count()).isZero();
    ring.markDown(0, true);
    ring.filters().allVerbs().from(RingHarness.address(0)).drop(); // node 0 says nothing more
    // Replayed after 2 x write_request_timeout (1 s) by node 1 and node 2.
    await(() -> logs[1].store().size() + logs[2].store().size() == 0, 15_000);
    assertThat(logs[1].store().size() + logs[2].store().size()).isZero();
    assertThat(updates.stream().filter(this::onOwner).count()).isEqualTo(10);
  }

  @Test
  void anAppliedBatchIsRemovedFromTheBatchlogNodes() throws Exception {
    List<PartitionUpdate> updates = batch("ok", 10);
    long start = System.nanoTime();
    logs[0].write(updates, ConsistencyLevel.ONE,
        u -> ring.node(0).coordinator().write(new Mutation(u), Request.of(ConsistencyLevel.ONE)));
    assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(WRITE_TIMEOUT.toMillis());
    // ONE returns after the first acknowledgement: the owners may still be applying.
    await(() -> logs[1].store().size() + logs[2].store().size() == 0
        && updates.stream().filter(this::onOwner).count() == 10, 5_000);
    assertThat(logs[1].store().size() + logs[2].store().size()).isZero();
    assertThat(updates.stream().filter(this::onOwner).count()).isEqualTo(10);
  }

  @Test
  void aBatchlogThatDoesNotAnswerIsAWriteTimeoutOfTypeBatchLogAndNothingIsApplied() {
    ring.filters().verbs(Verb.BATCH_STORE_REQ).to(RingHarness.address(2)).drop();
    AtomicBoolean applied = new AtomicBoolean();
    assertThatThrownBy(() -> logs[0].write(batch("lost", 3), ConsistencyLevel.ONE, u -> applied.set(true)))
        .isInstanceOfSatisfying(CoordinatorException.Timeout.class, t -> {
          assertThat(t.writeType).isEqualTo("BATCH_LOG");
          assertThat(t.consistency).isEqualTo(ConsistencyLevel.TWO);
          assertThat(t.blockFor).isEqualTo(2);
          assertThat(t.received).isEqualTo(1);
        });
    assertThat(applied).isFalse();
  }
}
