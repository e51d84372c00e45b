package io.cassette.cluster.liveness;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.TestRing;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Three nodes ping each other; a stopped node is DOWN within the bound and UP when it returns. */
class HeartbeatServiceTest {
  static final Duration INTERVAL = Duration.ofMillis(100);

  @Test
  void aStoppedPeerIsMarkedDownWithinTheBoundAndUpWhenItReturns() {
    try (TestRing ring = new TestRing(3)) {
      List<HeartbeatService> hbs = new ArrayList<>();
      Map<String, Long> downAt = new ConcurrentHashMap<>();
      Map<String, Long> upAt = new ConcurrentHashMap<>();
      for (int i = 0; i < 3; i++) {
        HeartbeatService hb = new HeartbeatService(ring.node(i), new LivenessConfig(8, INTERVAL));
        for (int j = 0; j < 3; j++) if (j != i) hb.watch(ring.peer(j));
        int self = i;
        hb.detector().addListener(new LivenessListener() {
          @Override
          public void onUp(InetSocketAddress peer) {
            upAt.put(self + "->" + peer.getAddress().getHostAddress(), System.nanoTime());
          }

          @Override
          public void onDown(InetSocketAddress peer) {
            downAt.put(self + "->" + peer.getAddress().getHostAddress(), System.nanoTime());
          }
        });
        hb.start();
        hbs.add(hb);
      }
      try {
        awaitTrue(() -> upAt.size() == 6, 10_000);
        // Let the windows fill with real intervals.
        TestRing.sleep(1_000);
        assertThat(downAt).isEmpty();

        long stoppedAt = System.nanoTime();
        hbs.get(2).stop();
        ring.stop(2);
        awaitTrue(() -> downAt.containsKey("0->127.0.0.3") && downAt.containsKey("1->127.0.0.3"), 10_000);
        // Bound: phi 8 at 100 ms heartbeats is ~1.84 s after the last answer; allow a busy machine.
        for (String k : List.of("0->127.0.0.3", "1->127.0.0.3")) {
          long millis = (downAt.get(k) - stoppedAt) / 1_000_000;
          assertThat(millis).as(k).isBetween(1_000L, 4_000L);
        }
        assertThat(hbs.get(0).isAlive(ring.peer(1))).isTrue();
        assertThat(downAt).hasSize(2);

        upAt.clear();
        MessagingService back = ring.restart(2);
        long restartedAt = System.nanoTime();
        awaitTrue(() -> upAt.containsKey("0->127.0.0.3") && upAt.containsKey("1->127.0.0.3"), 10_000);
        long upMillis = (Math.max(upAt.get("0->127.0.0.3"), upAt.get("1->127.0.0.3")) - restartedAt) / 1_000_000;
        assertThat(upMillis).isLessThan(3_000);
        assertThat(back.address()).isEqualTo(ring.peer(2));
      } finally {
        for (HeartbeatService hb : hbs) hb.stop();
      }
    }
  }

  @Test
  void eachPingAnswerCarriesTheAnsweringNodesState() {
    try (TestRing ring = new TestRing(2)) {
      HeartbeatService a = new HeartbeatService(ring.node(0), new LivenessConfig(8, INTERVAL));
      HeartbeatService b = new HeartbeatService(ring.node(1), new LivenessConfig(8, INTERVAL));
      java.util.concurrent.atomic.AtomicReference<byte[]> bState = new java.util.concurrent.atomic.AtomicReference<>(
          new byte[] {1, 2, 3});
      b.localState(bState::get);
      List<InetSocketAddress> answered = new java.util.concurrent.CopyOnWriteArrayList<>();
      a.onAnswer((peer, message) -> answered.add(peer));
      a.watch(ring.peer(1));
      b.watch(ring.peer(0));
      assertThat(a.state(ring.peer(1))).isNull();
      a.start();
      b.start();
      try {
        awaitTrue(() -> java.util.Arrays.equals(a.state(ring.peer(1)), new byte[] {1, 2, 3}), 10_000);
        bState.set(new byte[] {4});
        awaitTrue(() -> java.util.Arrays.equals(a.state(ring.peer(1)), new byte[] {4}), 10_000);
        assertThat(answered).contains(ring.peer(1));
        // a sends no state of its own: b knows an empty one.
        awaitTrue(() -> b.state(ring.peer(0)) != null, 10_000);
        assertThat(b.state(ring.peer(0))).isEmpty();
        a.forget(ring.peer(1));
        assertThat(a.state(ring.peer(1))).isNull();
      } finally {
        a.stop();
        b.stop();
      }
    }
  }

  static void awaitTrue(java.util.function.BooleanSupplier condition, long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) throw new AssertionError("condition not met within " + millis + " ms");
      TestRing.sleep(10);
    }
  }
}
