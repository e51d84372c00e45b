package io.cassette.coordinator.ring.hints;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.storage.Cell;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the sink accepts: enabled, within max_hint_window, a member of the ring. */
class HintedHandoffTest {
  @TempDir
  Path dir;

  static Endpoint node(int i) throws Exception {
    return new Endpoint(new UUID(0, i), InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) i}));
  }

  static TokenRing ring(boolean secondAlive) throws Exception {
    return TokenRing.builder(1, node(1)).add(node(1), "datacenter1", "rack1", List.of(1L))
        .add(node(2), "datacenter1", "rack1", List.of(2L)).alive(node(2), secondAlive).build();
  }

  static Mutation mutation() {
    return Mutation.of(PartitionUpdate.builder("ks", "t", new byte[] {1})
        .row(Row.of(new byte[0], List.of(Cell.live("v", new byte[] {2}, 1)))).build());
  }

  @Test
  void noHintsForANodeDownLongerThanTheWindowNorWhenDisabled() throws Exception {
    AtomicLong clock = new AtomicLong(1_000_000);
    AtomicReference<TokenRing> ring = new AtomicReference<>(ring(false));
    HintsMetrics metrics = new HintsMetrics(null);
    HintsConfig config = HintsConfig.defaults(dir).withWindow(Duration.ofMinutes(10));
    try (HintedHandoff h = new HintedHandoff(config, null, ring::get, metrics, clock::get)) {
      assertThat(h.store(node(2), mutation())).as("just seen down").isTrue();
      clock.addAndGet(Duration.ofMinutes(9).toMillis());
      assertThat(h.store(node(2), mutation())).as("down 9 min of 10").isTrue();
      clock.addAndGet(Duration.ofMinutes(2).toMillis());
      assertThat(h.store(node(2), mutation())).as("down 11 min").isFalse();
      assertThat(metrics.dropped("window")).isEqualTo(1);
      ring.set(ring(true));
      assertThat(h.store(node(2), mutation())).as("up again (a timed-out write): the window restarts").isTrue();
      assertThat(h.store(node(3), mutation())).as("not a member").isFalse();
      assertThat(metrics.stored()).isEqualTo(3);
      assertThat(h.pending()).hasSize(1);
      h.truncate(null);
      assertThat(h.pending()).isEmpty();
    }
    try (HintedHandoff off = new HintedHandoff(config.withEnabled(false), null, ring::get, metrics, clock::get)) {
      assertThat(off.store(node(2), mutation())).isFalse();
      assertThat(metrics.dropped("disabled")).isEqualTo(1);
    }
  }
}
