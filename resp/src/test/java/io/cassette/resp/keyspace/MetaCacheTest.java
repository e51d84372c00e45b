package io.cassette.resp.keyspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * MetaCache against a map of what storage holds: a hit is always the latest value (never a
 * stale or another key's), through eviction, removal, replacement and clearing one database;
 * and the redis-benchmark key set fits the budget a 128 MiB node gives it.
 */
class MetaCacheTest {
  @Test
  void aHitIsAlwaysTheLatestValueThroughEvictionAndRemoval() {
    Random random = new Random(11);
    MetaCache cache = new MetaCache(64 * 1024); // ~1,000 small entries: eviction all the time
    Map<String, KeyMeta> model = new HashMap<>();
    int hits = 0;
    for (int step = 0; step < 200_000; step++) {
      int db = random.nextInt(3);
      byte[] key = ("k" + random.nextInt(3_000)).getBytes(StandardCharsets.UTF_8);
      String id = db + "/" + new String(key, StandardCharsets.UTF_8);
      int op = random.nextInt(20);
      if (op < 8) {
        KeyMeta m = random.nextBoolean()
            ? KeyMeta.string(value(random), random.nextBoolean() ? 0 : random.nextLong(1, 1L << 50))
            : collection(random);
        cache.put(db, key, m);
        model.put(id, m);
      } else if (op < 11) {
        cache.remove(db, key);
        model.remove(id);
      } else if (op == 11 && random.nextInt(200) == 0) {
        cache.clear(db);
        model.keySet().removeIf(k -> k.startsWith(db + "/"));
      } else {
        KeyMeta got = cache.get(db, key);
        if (got != null) {
          hits++;
          KeyMeta want = model.get(id);
          assertThat(want).as(id).isNotNull();
          assertThat(got.encode()).as(id).isEqualTo(want.encode());
        }
      }
    }
    assertThat(hits).isGreaterThan(5_000);
    assertThat(cache.size()).isLessThanOrEqualTo(model.size());
    for (Map.Entry<String, KeyMeta> e : model.entrySet()) { // whatever is still cached is right
      int db = Integer.parseInt(e.getKey().substring(0, 1));
      byte[] key = e.getKey().substring(2).getBytes(StandardCharsets.UTF_8);
      KeyMeta got = cache.get(db, key);
      if (got != null) {
        assertThat(got.encode()).isEqualTo(e.getValue().encode());
      }
    }
  }

  @Test
  void whatIsKnownOfAKeyIsNeverWrong() {
    Random random = new Random(12);
    MetaCache cache = new MetaCache(64 * 1024); // entries and known keys both overflow
    Map<String, KeyType> model = new HashMap<>(); // what storage holds; no entry: nothing
    int known = 0;
    for (int step = 0; step < 300_000; step++) {
      int db = random.nextInt(3);
      byte[] key = ("k" + random.nextInt(1_500)).getBytes(StandardCharsets.UTF_8);
      String id = db + "/" + new String(key, StandardCharsets.UTF_8);
      int op = random.nextInt(20);
      if (op < 6) {
        KeyMeta m = random.nextInt(3) > 0 ? KeyMeta.string(value(random), 0) : collection(random);
        cache.put(db, key, m);
        model.put(id, m.type);
      } else if (op < 8) {
        cache.deleted(db, key);
        model.remove(id);
      } else if (op < 9 && !model.containsKey(id)) {
        cache.absent(db, key); // a read found nothing
      } else if (op < 10) {
        cache.remove(db, key); // forgotten, storage unchanged
      } else if (op == 10 && random.nextInt(300) == 0) {
        cache.clear(db);
      } else {
        int state = cache.known(db, key);
        if (state != KnownKeys.UNKNOWN) {
          known++;
          assertThat(state).as(id).isEqualTo(
              model.get(id) == null ? KnownKeys.ABSENT : model.get(id) == KeyType.STRING ? KnownKeys.STRING : -2);
        }
      }
    }
    assertThat(known).isGreaterThan(20_000);
  }

  @Test
  void twoHundredThousandBenchmarkKeysAreKnownInA128MiBNodesShare() {
    MetaCache cache = new MetaCache(120L * 1024 * 1024 / Keyspace.CACHE_HEAP_DIVISOR);
    for (int i = 0; i < 200_000; i++) {
      cache.put(0, key(i), KeyMeta.string("xxx".getBytes(StandardCharsets.US_ASCII), 0));
    }
    int known = 0;
    for (int i = 0; i < 200_000; i++) {
      known += cache.known(0, key(i)) == KnownKeys.STRING ? 1 : 0;
    }
    assertThat(known).isGreaterThan(195_000);
    // Churn through the full cache (its eviction used to leave a region at load ~1 where a
    // probe looked at ~9,800 slots: 93% of an LPUSH's CPU once the benchmark keys overflowed).
    // Half of these lookups miss: at load 0.8 linear probing expects ~13 slots for a miss.
    cache.finds = 0;
    cache.probes = 0;
    for (int i = 0; i < 200_000; i++) {
      cache.put(0, key(200_000 + i), KeyMeta.string("xxx".getBytes(StandardCharsets.US_ASCII), 0));
      cache.get(0, key(i));
    }
    assertThat((double) cache.probes / cache.finds).as("slots looked at per lookup").isLessThan(30);
  }

  @Test
  void aHundredThousandBenchmarkKeysFitA128MiBNodesShare() {
    // -Xmx128m reports ~123 MiB as maxMemory: the share must hold them with less than 8 MiB
    MetaCache cache = new MetaCache(120L * 1024 * 1024 / Keyspace.CACHE_HEAP_DIVISOR);
    for (int i = 0; i < 100_000; i++) {
      cache.put(0, key(i), KeyMeta.string("xxx".getBytes(StandardCharsets.US_ASCII), 0));
    }
    assertThat(cache.size()).isEqualTo(100_000);
    for (int i = 0; i < 100_000; i++) {
      assertThat(cache.get(0, key(i)).value).isEqualTo("xxx".getBytes(StandardCharsets.US_ASCII));
    }
  }

  @Test
  void redisBenchmarksTwoHundredThousandKeysAllFitA128MiBNodesMetadataShare() {
    // set, get and incr touch key:* and counter:* (100,000 each): with a sixteenth of the heap
    // 104,857 were cached and every other GET or INCR read and decoded an SSTable chunk.
    // -Xmx128m with the serial collector (the board profile) reports 123.75 MiB as maxMemory
    MetaCache cache = new MetaCache(123L * 1024 * 1024 / Keyspace.META_CACHE_HEAP_DIVISOR);
    byte[] counter = "12345".getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < 100_000; i++) {
      cache.put(0, key(i), KeyMeta.string("xxx".getBytes(StandardCharsets.US_ASCII), 0));
      cache.put(0, String.format("counter:%012d", i).getBytes(StandardCharsets.US_ASCII),
          KeyMeta.string(counter, 0));
    }
    assertThat(cache.size()).isEqualTo(200_000);
    assertThat(cache.get(0, key(0)).value).isEqualTo("xxx".getBytes(StandardCharsets.US_ASCII));
    assertThat(cache.get(0, "counter:000000099999".getBytes(StandardCharsets.US_ASCII)).value)
        .isEqualTo(counter);
  }

  @Test
  void aValueOverAnEighthOfTheBudgetIsNotCachedAndDropsTheOldEntry() {
    MetaCache cache = new MetaCache(64 * 1024);
    byte[] key = "big".getBytes(StandardCharsets.US_ASCII);
    cache.put(0, key, KeyMeta.string(new byte[10], 0));
    assertThat(cache.get(0, key)).isNotNull();
    cache.put(0, key, KeyMeta.string(new byte[9_000], 0));
    assertThat(cache.get(0, key)).isNull();
  }

  @Test
  void noBudgetNoCache() {
    MetaCache cache = new MetaCache(0);
    cache.put(0, key(1), KeyMeta.string(new byte[1], 0));
    assertThat(cache.get(0, key(1))).isNull();
    cache.remove(0, key(1));
    cache.clear(0);
  }

  private static byte[] key(int i) {
    return String.format("key:%012d", i).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] value(Random random) {
    byte[] v = new byte[random.nextInt(40)];
    random.nextBytes(v);
    return v;
  }

  private static KeyMeta collection(Random random) {
    KeyType type = random.nextBoolean() ? KeyType.HASH : KeyType.LIST;
    KeyMeta m = KeyMeta.collection(type, random.nextLong(), random.nextLong(1, Long.MAX_VALUE));
    m.size = random.nextInt(1000);
    m.head = type == KeyType.LIST ? -m.size : 0;
    return m;
  }
}
