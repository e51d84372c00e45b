package io.cassette.resp.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.coordinator.Fence;
import io.cassette.coordinator.FenceGuard;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A replica's promises to the Redis executors: epochs only grow, survive a restart, fence writes. */
class LeasePromisesTest {
  @TempDir
  Path dir;

  static final InetAddress A = InetAddress.getLoopbackAddress();
  static final InetAddress B;

  static {
    try {
      B = InetAddress.getByName("127.0.0.2");
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  @Test
  void aPromiseSurvivesARestartAndFencesOlderWrites() {
    Path file = dir.resolve("redis-leases");
    LeasePromises p = new LeasePromises(file);
    long now = System.currentTimeMillis();
    assertThat(p.grant("L", 5, A, now + 3_000).granted()).isTrue();
    assertThat(p.grant("L", 5, A, now + 4_000).granted()).as("a renewal").isTrue();
    assertThat(p.grant("L", 5, B, now + 3_000).granted()).as("the same epoch to another holder").isFalse();
    assertThat(p.grant("L", 6, B, now + 3_000)).as("another holder while A's lease runs")
        .satisfies(a -> assertThat(a.granted()).isFalse())
        .satisfies(a -> assertThat(a.otherEndMillis()).isEqualTo(now + 4_000));
    assertThat(p.grant("L", 4, A, now + 3_000).granted()).as("an older epoch").isFalse();

    LeasePromises restarted = new LeasePromises(file);
    assertThat(restarted.promised("L")).isEqualTo(5);
    AtomicInteger applied = new AtomicInteger();
    assertThatThrownBy(() -> restarted.apply(new Fence("L", 4), applied::incrementAndGet))
        .isInstanceOf(FenceGuard.Refused.class);
    restarted.apply(new Fence("L", 5), applied::incrementAndGet);
    restarted.apply(null, applied::incrementAndGet); // not fenced: always applied
    assertThat(applied).hasValue(2);
    // Lease ends are not kept: after a restart any lease it promised may run a full period more.
    assertThat(restarted.grant("L", 6, B, now + 3_000).granted()).isFalse();
    // A write of a newer epoch (this replica missed its grant) raises the promise, durably.
    restarted.apply(new Fence("L", 9), applied::incrementAndGet);
    assertThat(new LeasePromises(file).promised("L")).isEqualTo(9);
    assertThat(restarted.grant("M", 1, B, now + 3_000).granted()).as("another lease is independent").isTrue();
  }
}
