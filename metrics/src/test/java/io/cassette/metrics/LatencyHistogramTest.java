package io.cassette.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

class LatencyHistogramTest {
  @Test
  void percentilesOfAKnownDistributionAreWithinOnePercent() {
    LatencyHistogram h = new LatencyHistogram();
    for (int v = 1; v <= 10_000; v++) {
      h.record(v);
    }
    Percentiles p = h.snapshot(0).allTime();
    assertThat(p.count()).isEqualTo(10_000);
    assertThat((double) p.p50()).isCloseTo(5_000, within(50.0));
    assertThat((double) p.p95()).isCloseTo(9_500, within(95.0));
    assertThat((double) p.p99()).isCloseTo(9_900, within(99.0));
    assertThat((double) p.max()).isCloseTo(10_000, within(100.0));
    assertThat(p.mean()).isCloseTo(5_000.5, within(50.0));
  }

  @Test
  void theRecentWindowRollsAndEmptiesWhenNothingHappens() {
    LatencyHistogram h = new LatencyHistogram();
    h.record(1_000);
    LatencySnapshot first = h.snapshot(0);
    assertThat(first.recent().count()).isZero(); // the first window is not complete yet
    h.record(3_000);
    LatencySnapshot second = h.snapshot(LatencyHistogram.RECENT_WINDOW_MILLIS);
    assertThat(second.recent().count()).isEqualTo(2);
    assertThat(second.recent().max()).isBetween(2_970L, 3_030L);
    h.record(500);
    LatencySnapshot third = h.snapshot(2 * LatencyHistogram.RECENT_WINDOW_MILLIS);
    assertThat(third.recent().count()).isEqualTo(1);
    assertThat(third.recent().p99()).isBetween(495L, 505L);
    assertThat(third.allTime().count()).isEqualTo(3);
    LatencySnapshot idle = h.snapshot(3 * LatencyHistogram.RECENT_WINDOW_MILLIS);
    assertThat(idle.recent()).isEqualTo(Percentiles.EMPTY);
    assertThat(idle.count()).isEqualTo(3);
    assertThat(idle.sumMicros()).isEqualTo(4_500);
  }

  @Test
  void powerOfTwoBucketsAreCumulativeAsRedisLatencyHistogramShowsThem() {
    LatencyHistogram h = new LatencyHistogram();
    h.record(1);
    h.record(3);
    h.record(3);
    h.record(100);
    List<long[]> buckets = h.cumulativePowerOfTwoBuckets();
    assertThat(buckets).extracting(b -> b[0] + ":" + b[1]).containsExactly("1:1", "4:3", "128:4");
  }

  @Test
  void outOfRangeValuesAreClampedNotLost() {
    LatencyHistogram h = new LatencyHistogram();
    h.record(-5);
    h.record(LatencyHistogram.HIGHEST_MICROS * 10);
    LatencySnapshot s = h.snapshot(0);
    assertThat(s.count()).isEqualTo(2);
    assertThat(s.allTime().max()).isGreaterThanOrEqualTo(LatencyHistogram.HIGHEST_MICROS);
    assertThat(s.sumMicros()).isEqualTo(LatencyHistogram.HIGHEST_MICROS);
  }

  @Test
  void oneHistogramStaysSmallEnoughForAHistogramPerRequestType() {
    LatencyHistogram h = new LatencyHistogram();
    java.util.Random random = new java.util.Random(7);
    for (long now = 0; now <= 3 * LatencyHistogram.RECENT_WINDOW_MILLIS; now += LatencyHistogram.RECENT_WINDOW_MILLIS) {
      for (int i = 0; i < 100_000; i++) {
        h.record(50 + (long) Math.abs(random.nextGaussian() * 2_000)); // 50 us to ~10 ms
      }
      h.record(2_000_000);
      h.snapshot(now);
    }
    int bytes = h.footprintBytes();
    System.out.println("one LatencyHistogram after 300k requests: " + bytes + " bytes");
    assertThat(bytes).isLessThan(64 << 10);
  }

  @Test
  void aSumOfPartsShowsWhatOneHistogramRecordingEverythingShows() {
    LatencyHistogram one = new LatencyHistogram();
    LatencyHistogram sum = new LatencyHistogram();
    LatencyHistogram reads = new LatencyHistogram();
    LatencyHistogram writes = new LatencyHistogram();
    sum.addPart(reads);
    sum.addPart(writes);
    for (int v = 1; v <= 3_000; v++) {
      (v % 3 == 0 ? writes : reads).record(v);
      one.record(v);
    }
    // A part read first (a Prometheus scrape of one type) hands its values on; none is lost or counted twice.
    assertThat(reads.snapshot(0).count()).isEqualTo(2_000);
    writes.record(90_000);
    one.record(90_000);
    LatencySnapshot expected = one.snapshot(0);
    LatencySnapshot got = sum.snapshot(0);
    assertThat(got.count()).isEqualTo(expected.count()).isEqualTo(3_001);
    assertThat(got.sumMicros()).isEqualTo(expected.sumMicros());
    assertThat(got.allTime()).isEqualTo(expected.allTime());
    assertThat(got.allTime().max()).isEqualTo(90_000);
    assertThat(sum.count()).isEqualTo(3_001);
    assertThat(sum.cumulativePowerOfTwoBuckets()).extracting(b -> b[0] + ":" + b[1])
        .containsExactlyElementsOf(one.cumulativePowerOfTwoBuckets().stream().map(b -> b[0] + ":" + b[1]).toList());
    // The recent window of the sum holds what its parts recorded in it.
    reads.record(700);
    assertThat(sum.snapshot(LatencyHistogram.RECENT_WINDOW_MILLIS).recent().count()).isEqualTo(3_002);
    assertThat(sum.snapshot(2 * LatencyHistogram.RECENT_WINDOW_MILLIS).recent()).isEqualTo(Percentiles.EMPTY);
  }
}
