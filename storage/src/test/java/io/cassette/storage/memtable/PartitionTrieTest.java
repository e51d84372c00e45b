package io.cassette.storage.memtable;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cassette.storage.DecoratedKey;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The memtable's partition trie answers as the sorted map it replaced: the same partitions, in
 * token then key order, from any bound; equal tokens (collisions) and tokens that share long
 * prefixes (deep splits) included; and it stays ordered while written concurrently.
 */
class PartitionTrieTest {
  private final ColumnDictionary columns = new ColumnDictionary();

  /** Tokens with shared prefixes and repeats: every split depth and many collisions occur. */
  private static long token(Random r) {
    switch (r.nextInt(4)) {
      case 0:
        return r.nextLong();
      case 1:
        return r.nextInt(8) - 4; // around zero: the sign bit, and collisions
      case 2:
        return Long.MIN_VALUE + r.nextInt(3); // the first tokens
      default:
        return (r.nextLong() & 0xFFFF_0000_0000_0000L) | r.nextInt(16); // long shared prefix
    }
  }

  private static DecoratedKey key(Random r) {
    byte[] k = new byte[1 + r.nextInt(3)];
    r.nextBytes(k);
    return new DecoratedKey(token(r), k);
  }

  private static List<DecoratedKey> keys(Iterator<MemtablePartition> it) {
    List<DecoratedKey> out = new ArrayList<>();
    it.forEachRemaining(p -> out.add(p.key()));
    return out;
  }

  @Test
  void holdsWhatASortedMapHoldsInTheSameOrderFromAnyBound() {
    Random r = new Random(7);
    PartitionTrie trie = new PartitionTrie();
    NavigableMap<DecoratedKey, MemtablePartition> expected = new TreeMap<>();
    long[] added = {0};
    for (int i = 0; i < 5_000; i++) {
      DecoratedKey k = key(r);
      MemtablePartition p = trie.getOrAdd(k, columns, added);
      MemtablePartition before = expected.putIfAbsent(k, p);
      if (before != null) {
        assertSame(before, p, "an existing partition is returned, not a new one");
      }
      assertSame(p, trie.get(new DecoratedKey(k.token(), k.key().clone())));
    }
    assertEquals(expected.size(), trie.size());
    assertEquals(new ArrayList<>(expected.keySet()), keys(trie.iterator(null, true)));
    for (int i = 0; i < 200; i++) {
      DecoratedKey bound = i % 3 == 0 ? new DecoratedKey(token(r), null) : key(r);
      boolean inclusive = r.nextBoolean();
      if (i % 5 == 0) {
        bound = expected.keySet().stream().skip(r.nextInt(expected.size())).findFirst().orElseThrow();
      }
      List<DecoratedKey> want = new ArrayList<>();
      for (DecoratedKey k : expected.keySet()) {
        int c = Long.compare(k.token(), bound.token());
        if (c == 0) {
          c = bound.key() == null ? 1 : io.cassette.storage.Bytes.compare(k.key(), bound.key());
        }
        if (c > 0 || (c == 0 && inclusive)) {
          want.add(k);
        }
      }
      DecoratedKey from = bound;
      assertEquals(want, keys(trie.iterator(bound, inclusive)),
          () -> "from token " + from.token() + " inclusive " + inclusive);
    }
    for (int i = 0; i < 2_000; i++) {
      DecoratedKey k = key(r);
      assertEquals(expected.get(k), trie.get(k));
    }
  }

  @Test
  void countsTheHeapBytesOfWhatItAllocates() {
    PartitionTrie trie = new PartitionTrie();
    long[] added = {0};
    byte[] k = {1, 2, 3};
    trie.getOrAdd(new DecoratedKey(5, k), columns, added);
    long partition = MemtablePartition.PARTITION_OVERHEAD + PackedRow.arrayBytes(3);
    assertEquals(PartitionTrie.ROOT_BYTES + partition, added[0], "the root comes with the first partition");
    added[0] = 0;
    trie.getOrAdd(new DecoratedKey(5, k.clone()), columns, added);
    assertEquals(0, added[0], "an existing partition adds nothing");
    // same top 8 bits, differ in the last 4: one node per level down to depth 14
    trie.getOrAdd(new DecoratedKey(6, k), columns, added);
    assertEquals(14 * PartitionTrie.NODE_BYTES + partition, added[0]);
    added[0] = 0;
    trie.getOrAdd(new DecoratedKey(6, new byte[] {0}), columns, added);
    assertEquals(24 + PackedRow.arrayBytes(8) + MemtablePartition.PARTITION_OVERHEAD + PackedRow.arrayBytes(1), added[0],
        "a collision record and its two-slot array");
    added[0] = 0;
    trie.getOrAdd(new DecoratedKey(6, new byte[] {9}), columns, added);
    assertEquals(PackedRow.arrayBytes(12) - PackedRow.arrayBytes(8) + MemtablePartition.PARTITION_OVERHEAD
        + PackedRow.arrayBytes(1), added[0], "a larger collision array replaces the old one");
    assertEquals(List.of(5L, 6L, 6L, 6L), keys(trie.iterator(null, true)).stream().map(DecoratedKey::token).toList());
  }

  @Test
  void concurrentWritersLoseNothingAndReadersSeeOrder() throws Exception {
    PartitionTrie trie = new PartitionTrie();
    int writers = 4;
    int each = 5_000;
    AtomicLong bytes = new AtomicLong();
    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
    Map<DecoratedKey, MemtablePartition> winners = new java.util.concurrent.ConcurrentHashMap<>();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < writers; w++) {
      // every writer writes the same keys in its own order: races on every slot
      Random r = new Random(w);
      List<DecoratedKey> mine = new ArrayList<>();
      Random shared = new Random(99);
      for (int i = 0; i < each; i++) {
        mine.add(key(shared));
      }
      java.util.Collections.shuffle(mine, r);
      threads.add(new Thread(() -> {
        long[] added = {0};
        for (DecoratedKey k : mine) {
          MemtablePartition p = trie.getOrAdd(k, columns, added);
          MemtablePartition other = winners.putIfAbsent(k, p);
          if (other != null && other != p) {
            failures.add(new AssertionError("two partitions for " + k));
          }
        }
        bytes.addAndGet(added[0]);
      }));
    }
    Thread reader = new Thread(() -> {
      while (!done.get()) {
        DecoratedKey last = null;
        for (Iterator<MemtablePartition> it = trie.iterator(null, true); it.hasNext(); ) {
          DecoratedKey k = it.next().key();
          if (last != null && last.compareTo(k) >= 0) {
            failures.add(new AssertionError(last + " before " + k));
          }
          last = k;
        }
      }
    });
    reader.start();
    threads.forEach(Thread::start);
    for (Thread t : threads) {
      t.join();
    }
    done.set(true);
    reader.join();
    assertTrue(failures.isEmpty(), () -> failures.peek().toString());
    assertEquals(winners.size(), trie.size());
    assertEquals(new ArrayList<>(new TreeMap<>(winners).keySet()), keys(trie.iterator(null, true)));
    // the bytes counted are those of a trie built by one writer with the same keys
    PartitionTrie alone = new PartitionTrie();
    long[] aloneBytes = {0};
    for (DecoratedKey k : new TreeMap<>(winners).keySet()) {
      alone.getOrAdd(k, columns, aloneBytes);
    }
    assertEquals(aloneBytes[0], bytes.get());
  }

  @Test
  void anEmptyTrieHasNothing() {
    PartitionTrie trie = new PartitionTrie();
    assertNull(trie.get(new DecoratedKey(1, new byte[] {1})));
    assertEquals(List.of(), keys(trie.iterator(null, true)));
    assertEquals(List.of(), keys(trie.iterator(new DecoratedKey(Long.MIN_VALUE, null), true)));
  }
}
