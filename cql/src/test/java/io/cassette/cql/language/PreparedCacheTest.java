package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The prepared-statement cache is bounded in heap, not only in number (issue 13: ten thousand
 * unique statements near the message size each would have taken gigabytes).
 */
class PreparedCacheTest {
  private static byte[] id(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  @Test
  void uniqueLargeStatementsEvictTheLeastRecentlyUsedByWeight() {
    long max = 8L << 20;
    PreparedCache<String> cache = new PreparedCache<>(10_000, max);
    long big = PreparedCache.weightOf(1 << 20); // a 1 MiB statement weighs ~8 MiB
    cache.put(id(0), "small", PreparedCache.weightOf(100));
    for (int i = 1; i <= 100; i++) {
      cache.put(id(i), "big" + i, big / 4);
      assertThat(cache.get(id(0))).isEqualTo("small"); // used: stays
      assertThat(cache.weight()).isLessThanOrEqualTo(max);
    }
    assertThat(cache.get(id(1))).isNull();
    assertThat(cache.get(id(100))).isEqualTo("big100");
    // one statement heavier than the whole bound is still kept (alone), as it must be executable
    cache.put(id(200), "huge", 2 * max);
    assertThat(cache.size()).isEqualTo(1);
    assertThat(cache.get(id(200))).isEqualTo("huge");
    cache.remove(id(200));
    assertThat(cache.weight()).isZero();
  }

  @Test
  void countBoundAndReplacementKeepTheWeightExact() {
    PreparedCache<String> cache = new PreparedCache<>(3, Long.MAX_VALUE);
    for (int i = 0; i < 10; i++) {
      cache.put(id(i), "s" + i, 10);
    }
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.weight()).isEqualTo(30);
    cache.put(id(9), "again", 10); // recompiled after a schema change: same statement
    assertThat(cache.weight()).isEqualTo(30);
    assertThat(cache.get(id(9))).isEqualTo("again");
  }

  @Test
  void anExecutedStatementOutlivesOlderAndNewerOnesNobodyExecutes() {
    PreparedCache<String> cache = new PreparedCache<>(3, Long.MAX_VALUE);
    cache.put(id(0), "hot", 10);
    for (int i = 1; i <= 50; i++) {
      assertThat(cache.get(id(0))).isEqualTo("hot"); // executed between every two PREPAREs
      cache.put(id(i), "s" + i, 10);
      assertThat(cache.size()).isEqualTo(Math.min(3, i + 1));
    }
    assertThat(cache.get(id(50))).isEqualTo("s50"); // just prepared: never the one evicted
    assertThat(cache.get(id(0))).isEqualTo("hot");
    assertThat(cache.get(id(1))).isNull();
    cache.remove(id(0));
    cache.put(id(0), "back", 10); // removed and prepared again: one entry, weight exact
    assertThat(cache.get(id(0))).isEqualTo("back");
    assertThat(cache.size()).isEqualTo(3);
    assertThat(cache.weight()).isEqualTo(30);
  }
}
