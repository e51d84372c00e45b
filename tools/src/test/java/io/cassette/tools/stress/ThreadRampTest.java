package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ThreadRampTest {

  @Test
  void threadCountsFollowCassandraStress() {
    List<Integer> counts = new ArrayList<>();
    for (int t = 4; t <= 1000; t = ThreadRamp.next(t)) {
      counts.add(t);
    }
    assertThat(counts).containsExactly(4, 8, 16, 24, 36, 54, 81, 121, 181, 271, 406, 609, 913);
  }

  @Test
  void keepsGoingWhileFewerThanFourStepsRan() {
    assertThat(ThreadRamp.keepGoing(List.of(100.0), -1)).isTrue();
    assertThat(ThreadRamp.keepGoing(List.of(100.0, 50.0, 25.0), -1)).isTrue();
  }

  @Test
  void stopsWhenTheLastThreeStepsLostThroughputOnAverage() {
    // improvements: +100%, -10%, -10%, +5% -> last three average -5%: stop
    List<Double> rates = List.of(100.0, 200.0, 180.0, 162.0, 170.1);
    assertThat(ThreadRamp.averageImprovement(rates, 3)).isCloseTo(-0.05, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(ThreadRamp.keepGoing(rates, -1)).isFalse();
  }

  @Test
  void continuesWhileThroughputStillImproves() {
    List<Double> rates = List.of(100.0, 190.0, 250.0, 260.0, 262.0);
    assertThat(ThreadRamp.keepGoing(rates, -1)).isTrue();
  }

  @Test
  void uncertaintyTargetAppliesToTheLastFiveSteps() {
    // +1% each step: fine against -1 (n= runs), too little against a 2% err< target
    List<Double> rates = List.of(100.0, 101.0, 102.01, 103.03, 104.06, 105.1);
    assertThat(ThreadRamp.keepGoing(rates, -1)).isTrue();
    assertThat(ThreadRamp.keepGoing(rates, 0.02)).isFalse();
  }
}
