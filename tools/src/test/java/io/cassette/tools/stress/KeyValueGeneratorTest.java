package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KeyValueGeneratorTest {
  private final KeyValueGenerator generator =
      new KeyValueGenerator(StressSettingsParser.parse("write", "n=1").columns());

  @Test
  void keysAreTenCharactersOfStressAlphabetAndDistinct() {
    Set<String> keys = new HashSet<>();
    for (long seed = 1; seed <= 100_000; seed++) {
      String key = new String(generator.key(seed), java.nio.charset.StandardCharsets.US_ASCII);
      assertThat(key).matches("[0-9K-P]{10}");
      keys.add(key);
    }
    assertThat(keys).hasSize(100_000);
  }

  @Test
  void valuesAreAFunctionOfSeedAndColumn() {
    assertThat(generator.value(7, 0)).isEqualTo(generator.value(7, 0));
    assertThat(generator.value(7, 0).remaining()).isEqualTo(34);
    assertThat(generator.value(7, 0)).isNotEqualTo(generator.value(7, 1));
    assertThat(generator.value(7, 0)).isNotEqualTo(generator.value(8, 0));
    assertThat(generator.columnCount(7)).isEqualTo(5);
  }

  @Test
  void sequentialSeedsVisitEveryKeyOnceThenWrap() {
    SeedSource seeds = new SeedSource(new StressSettings.PopulationSettings(1, 3, true, null));
    assertThat(new long[] {seeds.next(), seeds.next(), seeds.next(), seeds.next()}).containsExactly(1, 2, 3, 1);
    SeedSource noWrap = new SeedSource(new StressSettings.PopulationSettings(1, 2, false, null));
    assertThat(new long[] {noWrap.next(), noWrap.next(), noWrap.next()}).containsExactly(1, 2, SeedSource.EXHAUSTED);
  }
}
