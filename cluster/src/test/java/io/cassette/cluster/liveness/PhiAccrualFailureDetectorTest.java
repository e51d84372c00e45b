package io.cassette.cluster.liveness;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The detector's arithmetic with a made-up clock. */
class PhiAccrualFailureDetectorTest {
  static final long MS = 1_000_000L;
  static final InetSocketAddress PEER = new InetSocketAddress("127.0.0.2", 7000);

  final List<String> events = new CopyOnWriteArrayList<>();

  PhiAccrualFailureDetector detector(long intervalMillis) {
    PhiAccrualFailureDetector fd = new PhiAccrualFailureDetector(8, intervalMillis * MS);
    fd.addListener(new LivenessListener() {
      @Override
      public void onUp(InetSocketAddress peer) {
        events.add("UP " + peer.getAddress().getHostAddress());
      }

      @Override
      public void onDown(InetSocketAddress peer) {
        events.add("DOWN " + peer.getAddress().getHostAddress());
      }
    });
    fd.watch(PEER);
    return fd;
  }

  @Test
  void aSilentPeerIsConvictedAfterAboutEighteenIntervals() {
    PhiAccrualFailureDetector fd = detector(100);
    long t = 1_000 * MS;
    for (int i = 0; i < 200; i++) {
      fd.report(PEER, t);
      fd.interpret(t);
      t += 100 * MS;
    }
    assertThat(events).containsExactly("UP 127.0.0.2");
    long last = t - 100 * MS;
    // Mean ~100 ms (one seed of 200 ms among 200 samples): phi 8 at ~18.5 intervals.
    long step = 10 * MS;
    long convictedAt = -1;
    for (long now = last; now < last + 5_000 * MS; now += step) {
      fd.interpret(now);
      if (!fd.isAlive(PEER)) {
        convictedAt = now;
        break;
      }
    }
    long after = (convictedAt - last) / MS;
    assertThat(after).isBetween(1_800L, 1_900L);
    assertThat(events).containsExactly("UP 127.0.0.2", "DOWN 127.0.0.2");
    assertThat(fd.convictAfterNanos(100 * MS) / MS).isEqualTo(1842);
  }

  @Test
  void theNextHeartbeatBringsItBack() {
    PhiAccrualFailureDetector fd = detector(100);
    fd.report(PEER, 0);
    fd.interpret(10_000 * MS);
    assertThat(fd.isAlive(PEER)).isFalse();
    fd.report(PEER, 10_001 * MS);
    assertThat(fd.isAlive(PEER)).isTrue();
    assertThat(events).containsExactly("UP 127.0.0.2", "DOWN 127.0.0.2", "UP 127.0.0.2");
    // The 10 s gap was longer than the max interval (200 ms): not learned, so detection stays
    // quick. Window: 200 (seed), 100 -> mean 150 ms, phi after 1 s = 0.434 * 1000 / 150 = 2.9;
    // had the gap been learned the mean would be ~3.4 s and phi 0.13.
    fd.report(PEER, 10_101 * MS);
    assertThat(fd.phi(PEER, 10_101 * MS + 1_000 * MS)).isBetween(2.8, 3.0);
  }

  @Test
  void jitterWithinTheMeanNeverConvicts() {
    PhiAccrualFailureDetector fd = detector(100);
    long t = 0;
    for (int i = 0; i < 1_000; i++) {
      t += (i % 2 == 0 ? 40 : 160) * MS; // mean 100 ms, a lot of jitter
      fd.report(PEER, t);
      fd.interpret(t + 150 * MS);
    }
    assertThat(events).containsExactly("UP 127.0.0.2");
  }

  @Test
  void unknownPeersAreNeitherUpNorReported() {
    PhiAccrualFailureDetector fd = detector(100);
    InetSocketAddress stranger = new InetSocketAddress("127.0.0.9", 7000);
    fd.report(stranger, 0);
    assertThat(fd.isAlive(stranger)).isFalse();
    fd.interpret(1_000_000 * MS);
    assertThat(fd.isAlive(PEER)).isFalse(); // never heard from: DOWN without an event
    assertThat(events).isEmpty();
  }
}
