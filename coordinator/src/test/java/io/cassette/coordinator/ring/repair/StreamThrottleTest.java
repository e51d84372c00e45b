package io.cassette.coordinator.ring.repair;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StreamThrottleTest {
  @Test
  void batchesBeyondTheCapWaitAndAChangeAppliesAtOnce() throws Exception {
    StreamThrottle t = new StreamThrottle(1 << 20); // 1 MiB/s
    long start = System.nanoTime();
    for (int i = 0; i < 3; i++) {
      t.acquire(256 << 10); // the first goes at once, the next two wait 250 ms each at least
    }
    long millis = (System.nanoTime() - start) / 1_000_000;
    assertThat(millis).isGreaterThanOrEqualTo(450); // sleeping never ends early
    t.rate(0); // unthrottled: no wait beyond what was already scheduled
    assertThat(t.rate()).isZero();
    long before = System.nanoTime();
    for (int i = 0; i < 100; i++) {
      t.acquire(1 << 20);
    }
    assertThat((System.nanoTime() - before) / 1_000_000).isLessThan(5_000);
  }
}
