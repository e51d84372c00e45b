package io.cassette.coordinator.ring.batchlog;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.storage.Cell;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import java.io.RandomAccessFile;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The batch log on disk, and the choice of batch log nodes. */
class BatchlogStoreTest {
  @TempDir
  Path dir;
  final AtomicLong clock = new AtomicLong(1_000_000);

  @Test
  void liveBatchesSurviveARestartRemovedOnesDoNot() throws Exception {
    BatchlogStore s = new BatchlogStore(dir, clock::get);
    UUID a = UUID.randomUUID();
    UUID b = UUID.randomUUID();
    UUID c = UUID.randomUUID();
    s.store(a, new byte[] {1});
    s.store(b, new byte[] {2});
    clock.addAndGet(5000);
    s.store(c, new byte[] {3});
    s.remove(b);
    assertThat(s.olderThan(4000)).extracting(BatchlogStore.Entry::id).containsExactly(a);
    s.close();

    BatchlogStore again = new BatchlogStore(dir, clock::get);
    assertThat(again.olderThan(0)).extracting(BatchlogStore.Entry::id).containsExactly(a, c);
    again.remove(a);
    again.remove(c);
    assertThat(again.size()).isZero();
    assertThat(again.segmentCount()).as("old segments deleted once nothing in them is live").isLessThanOrEqualTo(1);
    again.close();
  }

  @Test
  void aTornLastRecordLosesOnlyThatRecord() throws Exception {
    BatchlogStore s = new BatchlogStore(dir, clock::get);
    UUID a = UUID.randomUUID();
    s.store(a, new byte[] {1});
    s.store(UUID.randomUUID(), new byte[100]);
    s.close();
    Path seg;
    try (var files = Files.list(dir)) {
      seg = files.findFirst().orElseThrow();
    }
    try (RandomAccessFile raf = new RandomAccessFile(seg.toFile(), "rw")) {
      raf.setLength(raf.length() - 3);
    }
    BatchlogStore again = new BatchlogStore(dir, clock::get);
    assertThat(again.olderThan(0)).extracting(BatchlogStore.Entry::id).containsExactly(a);
    again.close();
  }

  static List<PartitionUpdate> viewUpdate(String key) {
    return List.of(PartitionUpdate.builder("ks", "v", key.getBytes(StandardCharsets.UTF_8))
        .row(Row.of(new byte[0], List.of(Cell.live("c", new byte[] {1}, 1)))).build());
  }

  @Test
  void aLocalBatchIsOnDiskBeforeStoreLocalReturnsWithCommitlogSyncBatch() {
    try (Batchlog log = new Batchlog(new BatchlogStore(dir, clock::get, 0), null, null, Duration.ofSeconds(1), 0,
        u -> {})) {
      log.storeLocal(viewUpdate("k"));
      assertThat(log.store().unsynced()).as("fsynced before storeLocal returned").isZero();
    }
  }

  @Test
  void aLocalBatchIsFsyncedInTheBackgroundWithinThePeriodWithCommitlogSyncPeriodic() throws Exception {
    try (Batchlog log = new Batchlog(new BatchlogStore(dir, clock::get, 200), null, null, Duration.ofSeconds(1), 0,
        u -> {})) {
      log.storeLocal(viewUpdate("k"));
      assertThat(log.store().unsynced()).as("no fsync on the request's path").isEqualTo(1);
      log.start(Duration.ofHours(1)); // replay never runs in this test; the periodic fsync does
      long end = System.currentTimeMillis() + 10_000;
      while (log.store().unsynced() > 0 && System.currentTimeMillis() < end) {
        Thread.sleep(20);
      }
      assertThat(log.store().unsynced()).as("fsynced by the periodic sync").isZero();
    }
  }

  @Test
  void concurrentStoresWithCommitlogSyncBatchAllReturnFsyncedAndSurviveAReopen() throws Exception {
    BatchlogStore s = new BatchlogStore(dir, clock::get, 0);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(4);
    try {
      List<java.util.concurrent.Future<?>> done = new java.util.ArrayList<>();
      for (int t = 0; t < 4; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < 50; i++) {
            s.store(UUID.randomUUID(), new byte[64]);
          }
        }));
      }
      for (java.util.concurrent.Future<?> f : done) {
        f.get(60, java.util.concurrent.TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdown();
    }
    assertThat(s.unsynced()).isZero();
    s.close();
    BatchlogStore again = new BatchlogStore(dir, clock::get, 0);
    assertThat(again.size()).isEqualTo(200);
    again.close();
  }

  static Endpoint node(int i) throws Exception {
    return new Endpoint(new UUID(0, i), InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) i}));
  }

  @Test
  void twoLiveNodesOfOtherRacksElseThisNodeOnlyWhenAlone() throws Exception {
    TokenRing.Builder b = TokenRing.builder(1, node(1)).add(node(1), "dc1", "r1", List.of(1L));
    for (int i = 2; i <= 5; i++) {
      b.add(node(i), i == 5 ? "dc2" : "dc1", i == 2 ? "r1" : "r" + i, List.of((long) i));
    }
    Set<Endpoint> seen = new HashSet<>();
    for (int i = 0; i < 50; i++) {
      List<Endpoint> chosen = Batchlog.endpoints(b.build(), false);
      assertThat(chosen).hasSize(2).doesNotContain(node(1), node(5), node(2)); // other racks r3, r4 first
      seen.addAll(chosen);
    }
    assertThat(seen).containsExactlyInAnyOrder(node(3), node(4));
    TokenRing alone = TokenRing.builder(1, node(1)).add(node(1), "dc1", "r1", List.of(1L)).build();
    assertThat(Batchlog.endpoints(alone, false)).containsExactly(node(1));
    TokenRing othersDown = TokenRing.builder(1, node(1)).add(node(1), "dc1", "r1", List.of(1L))
        .add(node(2), "dc1", "r1", List.of(2L)).alive(node(2), false).build();
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> Batchlog.endpoints(othersDown, false))
        .isInstanceOf(CoordinatorException.Unavailable.class);
    assertThat(Batchlog.endpoints(othersDown, true)).containsExactly(node(1));
  }
}
