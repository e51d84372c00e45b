package io.cassette.coordinator.ring.hints;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cluster.net.Verb;
import io.cassette.cluster.net.VerbTimeouts;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.RingHarness;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.storage.Cell;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.TableSpec;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hints delivered over real messaging between harness nodes: kept while the node is DOWN or
 * does not acknowledge, delivered (throttled) when it is UP, deleted once acknowledged.
 */
class HintDeliveryTest {
  @TempDir
  Path dir;
  RingHarness ring;
  HintedHandoff hints;

  @BeforeEach
  void start() {
    ring = new RingHarness(dir.resolve("ring"), 3, 16,
        b -> b.timeouts(VerbTimeouts.defaults().with("write_request_timeout", Duration.ofMillis(500))));
    ring.schema(new KeyspaceDefinition("ks", Map.of("class", "SimpleStrategy", "replication_factor", "1"),
        List.of(TableSpec.withDefaults("ks", "t", UUID.nameUUIDFromBytes("ks.t".getBytes()))), null));
    hints = open(HintsConfig.defaults(dir.resolve("hints")).withDispatchInterval(Duration.ofMillis(100)));
  }

  HintedHandoff open(HintsConfig config) {
    return new HintedHandoff(config, ring.node(0).messaging(), () -> ring.ring(0), new HintsMetrics(null)).start();
  }

  @AfterEach
  void stop() {
    hints.close();
    ring.close();
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static Mutation put(String key, String value) {
    return Mutation.of(PartitionUpdate.builder("ks", "t", b(key))
        .row(Row.of(new byte[0], List.of(Cell.live("v", b(value), 1)))).build());
  }

  int rowsOn(int node, int count) {
    int found = 0;
    for (int i = 0; i < count; i++) {
      PartitionView p = ring.node(node).engine().table("ks", "t").orElseThrow().read(b("k" + i), ReadQuery.all(0));
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
  void hintsWaitWhileTheNodeIsDownAndAreDeliveredWhenItIsUp() throws Exception {
    Endpoint target = ring.node(2).endpoint();
    ring.markDown(2, true);
    for (int i = 0; i < 100; i++) {
      assertThat(hints.store(target, put("k" + i, "v" + i))).isTrue();
    }
    Thread.sleep(400); // several dispatch rounds: nothing goes to a DOWN node
    assertThat(hints.pending()).singleElement().satisfies(p -> assertThat(p.hostId()).isEqualTo(target.hostId()));
    assertThat(rowsOn(2, 100)).isZero();

    ring.markDown(2, false);
    hints.onUp(target.hostId());
    await(() -> hints.pending().isEmpty(), 15_000);
    assertThat(hints.pending()).isEmpty();
    assertThat(rowsOn(2, 100)).isEqualTo(100);
    assertThat(hints.metrics().replayed()).isEqualTo(100);
    try (var left = java.nio.file.Files.list(dir.resolve("hints"))) {
      assertThat(left.count()).as("delivered files are deleted").isZero();
    }
  }

  @Test
  void unacknowledgedHintsAreKeptAndResentLater() throws Exception {
    Endpoint target = ring.node(1).endpoint();
    for (int i = 0; i < 20; i++) {
      hints.store(target, put("k" + i, "v" + i));
    }
    ring.filters().verbs(Verb.MUTATION_REQ).to(RingHarness.address(1)).drop();
    await(() -> hints.metrics().replayFailures.value() > 0, 10_000);
    assertThat(hints.pending()).hasSize(1);
    assertThat(rowsOn(1, 20)).isZero();
    ring.filters().reset();
    await(() -> hints.pending().isEmpty(), 15_000);
    assertThat(rowsOn(1, 20)).isEqualTo(20);
  }

  @Test
  void deliveryIsThrottledAndTruncateEmpties() throws Exception {
    hints.close();
    // 8 KiB/s shared by the two other nodes: 4 KiB/s for this delivery.
    hints = open(HintsConfig.defaults(dir.resolve("hints")).withDispatchInterval(Duration.ofMillis(100))
        .withThrottle(8 * 1024));
    Endpoint target = ring.node(1).endpoint();
    ring.markDown(1, true);
    String value = "x".repeat(400);
    for (int i = 0; i < 30; i++) {
      hints.store(target, put("k" + i, value)); // ~12 KiB in all
    }
    long start = System.nanoTime();
    ring.markDown(1, false);
    await(() -> hints.pending().isEmpty(), 20_000);
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(rowsOn(1, 30)).isEqualTo(30);
    // 12 KiB at 4 KiB/s with one second of credit: at least ~2 s.
    assertThat(millis).isGreaterThan(1_500);

    Endpoint other = ring.node(2).endpoint();
    ring.markDown(2, true);
    for (int i = 0; i < 10; i++) {
      hints.store(other, put("k" + i, "v"));
    }
    assertThat(hints.pending()).hasSize(1);
    hints.truncate(other.hostId());
    assertThat(hints.pending()).isEmpty();
    ring.markDown(2, false);
    Thread.sleep(300);
    assertThat(rowsOn(2, 10)).isZero();
  }

  /**
   * A hint older than its table's gc_grace_seconds is dropped when its turn comes, never sent
   * (it could bring back data whose tombstone the node has purged); younger ones are delivered.
   */
  @Test
  void hintsOlderThanTheirTablesGcGraceAreDroppedOnDelivery() throws Exception {
    hints.close();
    java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong(
        System.currentTimeMillis() - Duration.ofHours(2).toMillis());
    GcGrace oneHour = (keyspace, table) -> keyspace.equals("ks") && table.equals("t") ? 3600 : -1;
    hints = new HintedHandoff(HintsConfig.defaults(dir.resolve("hints")).withDispatchInterval(Duration.ofMillis(100)),
        ring.node(0).messaging(), () -> ring.ring(0), new HintsMetrics(null), clock::get, oneHour).start();
    Endpoint target = ring.node(2).endpoint();
    ring.markDown(2, true);
    for (int i = 0; i < 10; i++) {
      assertThat(hints.store(target, put("k" + i, "old"))).isTrue(); // two hours ago
    }
    clock.set(System.currentTimeMillis());
    for (int i = 10; i < 15; i++) {
      assertThat(hints.store(target, put("k" + i, "new"))).isTrue();
    }
    ring.markDown(2, false);
    hints.onUp(target.hostId());
    await(() -> hints.pending().isEmpty(), 15_000);
    assertThat(hints.pending()).isEmpty();
    assertThat(hints.metrics().dropped("expired")).isEqualTo(10);
    assertThat(hints.metrics().replayed()).isEqualTo(5);
    assertThat(rowsOn(2, 10)).as("expired hints are not applied").isZero();
    assertThat(rowsOn(2, 15)).isEqualTo(5);
  }

  /**
   * A hint the node refuses for good (its table is gone there) no longer holds up every hint
   * behind it: it is dropped, counted, and delivery goes on. The old code retried it for ever.
   */
  @Test
  void aHintForATableTheNodeDoesNotKnowIsDroppedAndDeliveryGoesOn() throws Exception {
    Endpoint target = ring.node(1).endpoint();
    ring.markDown(1, true);
    assertThat(hints.store(target, Mutation.of(PartitionUpdate.builder("ks", "gone", b("x"))
        .row(Row.of(new byte[0], List.of(Cell.live("v", b("x"), 1)))).build()))).isTrue();
    for (int i = 0; i < 10; i++) {
      assertThat(hints.store(target, put("k" + i, "v" + i))).isTrue();
    }
    ring.markDown(1, false);
    hints.onUp(target.hostId());
    await(() -> hints.pending().isEmpty(), 15_000);
    assertThat(hints.pending()).isEmpty();
    assertThat(rowsOn(1, 10)).isEqualTo(10);
    assertThat(hints.metrics().dropped("unknown_table")).isEqualTo(1);
    assertThat(hints.metrics().replayed()).isEqualTo(10);
  }

  @Test
  void hintsForANodeThatLeftTheRingAreDropped() throws Exception {
    Endpoint gone = new Endpoint(new UUID(0, 99), InetAddress.getByName("127.0.0.99"));
    // Stored while it was a member (another node's view), then it is no longer in the ring.
    try (HintStore s = new HintStore(dir.resolve("hints"), 1 << 20, 0, System::currentTimeMillis)) {
      s.append(gone.hostId(), io.cassette.coordinator.ring.MutationPayload.encode(put("k0", "v").updates()));
    }
    hints.close();
    hints = open(HintsConfig.defaults(dir.resolve("hints")).withDispatchInterval(Duration.ofMillis(100)));
    TokenRing r = ring.ring(0);
    assertThat(r.member(gone)).isNull();
    await(() -> hints.pending().isEmpty(), 5_000);
    assertThat(hints.pending()).isEmpty();
    assertThat(hints.metrics().dropped("removed_node")).isEqualTo(1);
  }
}
