package io.cassette.storage.compaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.storage.StorageException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UnifiedStrategyTest {
  @Test
  void scalingParametersAreSpelledAsCassandrasUcsSpellsThem() {
    assertThat(UnifiedStrategy.parseScalingParameter("T4")).isEqualTo(2);
    assertThat(UnifiedStrategy.parseScalingParameter("L10")).isEqualTo(-8);
    assertThat(UnifiedStrategy.parseScalingParameter("N")).isZero();
    assertThat(UnifiedStrategy.parseScalingParameter("-6")).isEqualTo(-6);
    assertThatThrownBy(() -> UnifiedStrategy.parseScalingParameter("T1")).isInstanceOf(StorageException.class);
    assertThatThrownBy(() -> UnifiedStrategy.parseScalingParameter("X")).isInstanceOf(StorageException.class);
  }

  @Test
  void tieredLevelsCompactFourAndLevelledTwo() {
    UnifiedStrategy s = UnifiedStrategy.fromOptions(Map.of("scaling_parameters", "T4, L10"));
    assertThat(s.fanout(0)).isEqualTo(4);
    assertThat(s.threshold(0)).isEqualTo(4);
    assertThat(s.fanout(1)).isEqualTo(10);
    assertThat(s.threshold(1)).isEqualTo(2);
    assertThat(s.threshold(5)).isEqualTo(2);
    UnifiedStrategy n = UnifiedStrategy.fromOptions(Map.of("scaling_parameters", "N"));
    assertThat(n.fanout(0)).isEqualTo(2);
    assertThat(n.threshold(0)).isEqualTo(2);
  }

  @Test
  void flushSizeOverrideTakesUnits() {
    assertThat(UnifiedStrategy.parseSize("64MiB")).isEqualTo(64L << 20);
    assertThat(UnifiedStrategy.parseSize("4096")).isEqualTo(4096);
    assertThat(UnifiedStrategy.parseSize("2 GiB")).isEqualTo(2L << 30);
    assertThat(UnifiedStrategy.parseSize("10KiB")).isEqualTo(10L << 10);
    assertThat(UnifiedStrategy.parseSize("7B")).isEqualTo(7);
    assertThatThrownBy(() -> UnifiedStrategy.parseSize("-1")).isInstanceOf(StorageException.class);
  }
}
