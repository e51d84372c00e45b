package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class DistributionTest {

  @Test
  void samplesStayInRange() {
    SplittableRandom r = new SplittableRandom(1);
    for (String spec : new String[] {"uniform(5..10)", "gaussian(1..100)", "gauss(1..100,5)",
        "normal(1..100,50,10)", "exp(1..1000)", "extreme(1..1000,1.5)", "~exp(1..1000)", "fixed(7)"}) {
      Distribution d = Distribution.parse(spec);
      for (int i = 0; i < 10_000; i++) {
        assertThat(d.next(r)).as(spec).isBetween(d.min(), d.max());
      }
    }
  }

  @Test
  void uniformVisitsBothEnds() {
    Distribution d = Distribution.parse("UNIFORM(1..3)");
    SplittableRandom r = new SplittableRandom(2);
    boolean[] seen = new boolean[4];
    for (int i = 0; i < 1000; i++) {
      seen[(int) d.next(r)] = true;
    }
    assertThat(seen[1] && seen[2] && seen[3]).isTrue();
  }

  @Test
  void invertedExponentialFavoursTheTop() {
    SplittableRandom r = new SplittableRandom(3);
    long plain = 0;
    long inverted = 0;
    Distribution exp = Distribution.parse("exp(1..1000)");
    Distribution inv = Distribution.parse("~exp(1..1000)");
    for (int i = 0; i < 10_000; i++) {
      plain += exp.next(r);
      inverted += inv.next(r);
    }
    // The mean is about (max - min) / ln(sqrt(max - min)) = 289 from the bottom.
    assertThat(plain / 10_000).isBetween(250L, 330L);
    assertThat(inverted / 10_000).isBetween(670L, 750L);
  }

  @Test
  void suffixes() {
    assertThat(Distribution.parseLong("3k")).isEqualTo(3000);
    assertThat(Distribution.parseLong("2m")).isEqualTo(2_000_000);
    assertThat(Distribution.parseLong("1b")).isEqualTo(1_000_000_000);
    assertThat(Distribution.parse("fixed(2k)").max()).isEqualTo(2000);
  }

  @Test
  void rejectsWhatItCannotRead() {
    assertThatThrownBy(() -> Distribution.parse("uniform(1-3)")).hasMessageContaining("uniform(1-3)");
    assertThatThrownBy(() -> Distribution.parse("zipf(1..3)")).hasMessageContaining("Illegal distribution type 'zipf'");
    assertThatThrownBy(() -> Distribution.parse("34")).hasMessageContaining("Illegal distribution specification: '34'");
    assertThatThrownBy(() -> Distribution.parse("uniform(9..3)")).hasMessageContaining("min > max");
  }
}
