package io.cassette.storage.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cassette.storage.Bytes;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A partition's row tree answers as the sorted map it replaced: the same rows by clustering,
 * ascending from any bound (inclusive or not) and descending from below any bound, through
 * many leaf and inner splits (random and ascending inserts); its counted heap bytes are those
 * of its nodes; and readers that never lock see ordered rows, including every row added before
 * they began, while one writer adds and rewrites rows.
 */
class RowTreeTest {
  private static byte[] key(Random r) {
    byte[] k = new byte[r.nextInt(4)];
    r.nextBytes(k);
    return k;
  }

  private static byte[] big(int i) {
    return new byte[] {(byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
  }

  /** Puts as MemtablePartition does; returns the node bytes it added. */
  private static long put(RowTree t, byte[] k, byte[] v) {
    int found = t.find(k);
    if (found >= 0) {
      t.replace(found, v);
      return 0;
    }
    return t.insert(found, k, v);
  }

  private static List<byte[]> keys(RowTree.Cursor c) {
    List<byte[]> out = new ArrayList<>();
    while (c.advance()) {
      out.add(c.clustering());
    }
    return out;
  }

  private static void assertSameKeys(Iterable<byte[]> expected, List<byte[]> actual) {
    List<byte[]> e = new ArrayList<>();
    expected.forEach(e::add);
    assertEquals(e.size(), actual.size());
    for (int i = 0; i < e.size(); i++) {
      assertArrayEquals(e.get(i), actual.get(i), "at " + i);
    }
  }

  @Test
  @Timeout(120) // a cursor that fails to move on loops forever
  void holdsWhatASortedMapHoldsFromAnyBoundBothWays() {
    for (int round = 0; round < 2; round++) {
      Random r = new Random(11 + round);
      NavigableMap<byte[], byte[]> expected = new TreeMap<>(Bytes::compare);
      byte[] a = big(0);
      byte[] b = big(1);
      expected.put(a, a);
      expected.put(b, b);
      RowTree t = new RowTree(a, a, b, b);
      long bytes = RowTree.twoRowBytes();
      for (int i = 0; i < 20_000; i++) {
        // round 0: random keys (many repeats among the short ones); round 1: ascending
        byte[] k = round == 0 ? (r.nextBoolean() ? key(r) : big(r.nextInt())) : big(i + 2);
        byte[] v = big(i);
        expected.put(k, v);
        bytes += put(t, k, v);
        if (i % 2_999 == 0 || i == 19_999) {
          assertEquals(expected.size(), t.size());
          assertEquals(t.walkedBytes(), bytes, "counted bytes are the nodes' bytes");
          for (int q = 0; q < 25; q++) {
            byte[] from = q % 2 == 0 ? key(r) : big(r.nextInt());
            boolean incl = r.nextBoolean();
            assertSameKeys(expected.tailMap(from, incl).keySet(), keys(t.ascending(from, incl)));
            assertSameKeys(expected.headMap(from, false).descendingKeySet(), keys(t.descending(from)));
            byte[] got = t.get(from);
            if (expected.containsKey(from)) {
              assertArrayEquals(expected.get(from), got);
            } else {
              assertNull(got);
            }
          }
          byte[] staticRow = expected.get(Bytes.EMPTY);
          if (staticRow == null) {
            assertNull(t.staticRow());
          } else {
            assertArrayEquals(staticRow, t.staticRow());
          }
          assertSameKeys(expected.keySet(), keys(t.ascending(null, true)));
          assertSameKeys(expected.descendingKeySet(), keys(t.descending(null)));
        }
      }
      for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
        assertArrayEquals(e.getValue(), t.get(e.getKey()));
      }
      if (round == 1) {
        // ascending inserts split leaves unevenly: nodes stay nearly full
        assertTrue(t.walkedBytes() < 20_002 * 9L, "bytes " + t.walkedBytes());
      }
    }
  }

  @Test
  @Timeout(120)
  void readersSeeOrderedRowsAndEveryEarlierRowWhileOneWriterAdds() throws Exception {
    byte[] a = big(0);
    byte[] b = big(1 << 30);
    RowTree t = new RowTree(a, a, b, b);
    AtomicBoolean done = new AtomicBoolean();
    ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
    // keys written so far, in order of writing: readers check everything written before they began
    int n = 20_000;
    byte[][] written = new byte[n][];
    java.util.concurrent.atomic.AtomicInteger count = new java.util.concurrent.atomic.AtomicInteger();
    List<Thread> readers = new ArrayList<>();
    for (int id = 0; id < 2; id++) {
      boolean reverse = id == 1;
      Thread reader = new Thread(() -> {
        while (!done.get() && failures.isEmpty()) {
          int before = count.get();
          List<byte[]> seen = keys(reverse ? t.descending(null) : t.ascending(null, true));
          for (int i = 1; i < seen.size(); i++) {
            int c = Bytes.compare(seen.get(i - 1), seen.get(i));
            if (reverse ? c <= 0 : c >= 0) {
              failures.add("out of order at " + i);
              return;
            }
          }
          if (reverse) {
            java.util.Collections.reverse(seen);
          }
          for (int i = 0; i < before; i++) {
            if (java.util.Collections.binarySearch(seen, written[i], Bytes::compare) < 0) {
              failures.add("missed a row written before the read began: " + i);
              return;
            }
          }
        }
      });
      reader.start();
      readers.add(reader);
    }
    Random r = new Random(3);
    synchronized (t) {
      for (int i = 0; i < n && failures.isEmpty(); i++) {
        byte[] k = big(r.nextInt(1 << 30) + 1);
        put(t, k, k);
        written[i] = k;
        count.set(i + 1);
        if (i % 5 == 0) {
          put(t, written[r.nextInt(i + 1)], big(i)); // a rewrite, in place
        }
      }
    }
    done.set(true);
    for (Thread reader : readers) {
      reader.join();
    }
    assertTrue(failures.isEmpty(), failures.toString());
  }
}
