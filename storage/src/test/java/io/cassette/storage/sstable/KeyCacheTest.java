package io.cassette.storage.sstable;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class KeyCacheTest {
  /** The position the tests store for a (sstable, token): any hit must return exactly this. */
  private static long positionOf(long sstable, long token) {
    return ((sstable * 31 + token) & 0xFFFFFFFFFFFL);
  }

  @Test
  void returnsWhatWasPutAndForgetsBeyondItsSize() {
    KeyCache cache = new KeyCache(64 * 1024); // 2,048 entries
    assertThat(cache.sizeBytes()).isEqualTo(64 * 1024);
    assertThat(cache.get(1, 42)).isEqualTo(-1);
    cache.put(1, 42, 7);
    assertThat(cache.get(1, 42)).isEqualTo(7);
    assertThat(cache.get(2, 42)).as("another SSTable").isEqualTo(-1);
    assertThat(cache.get(1, 43)).isEqualTo(-1);
    int hits = 0;
    for (long t = 0; t < 100_000; t++) {
      cache.put(3, t, positionOf(3, t));
    }
    for (long t = 0; t < 100_000; t++) {
      long p = cache.get(3, t);
      if (p >= 0) {
        assertThat(p).isEqualTo(positionOf(3, t));
        hits++;
      }
    }
    assertThat(hits).isBetween(1_000, 2_048);
  }

  @Test
  void keepsKeysThatAreHitWhileOthersPassThrough() {
    KeyCache cache = new KeyCache(64 * 1024);
    for (long t = 0; t < 200; t++) {
      cache.put(1, t, t);
    }
    SplittableRandom r = new SplittableRandom(1);
    for (int i = 0; i < 20_000; i++) {
      for (long t = 0; t < 200; t++) {
        if (cache.get(1, t) < 0) {
          cache.put(1, t, t);
        }
      }
      cache.put(2, r.nextLong(), 1); // a scan of keys read once
    }
    int hits = 0;
    for (long t = 0; t < 200; t++) {
      hits += cache.get(1, t) == t ? 1 : 0;
    }
    assertThat(hits).isGreaterThan(190);
  }

  /** Readers and writers at once: a hit is never another entry's position nor a torn one. */
  @Test
  void aHitIsAlwaysTheEntryAskedFor() throws Exception {
    KeyCache cache = new KeyCache(16 * 1024); // 512 entries: sets are rewritten all the time
    AtomicLong hits = new AtomicLong();
    AtomicLong wrong = new AtomicLong();
    Thread[] threads = new Thread[4];
    for (int n = 0; n < threads.length; n++) {
      long seed = n;
      threads[n] = new Thread(() -> {
        SplittableRandom r = new SplittableRandom(seed);
        for (int i = 0; i < 400_000; i++) {
          long sstable = 1 + r.nextInt(3);
          long token = r.nextInt(5_000) * 0x9E3779B97F4A7C15L;
          long p = cache.get(sstable, token);
          if (p < 0) {
            cache.put(sstable, token, positionOf(sstable, token));
          } else if (p == positionOf(sstable, token)) {
            hits.incrementAndGet();
          } else {
            wrong.incrementAndGet();
          }
        }
      });
      threads[n].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertThat(wrong.get()).isZero();
    assertThat(hits.get()).isGreaterThan(1_000);
  }
}
