package io.cassette.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ResourceSizingTest {
  private static final long MIB = 1L << 20;

  @Test
  void sixtyFourMegabyteHeapOnOneCoreGetsSmallPoolsAndFewThreads() {
    ResourceSizing s = ResourceSizing.derive(64 * MIB, 1, null, null);
    assertThat(s.memtableBytes()).isEqualTo(16 * MIB);
    assertThat(s.cacheBytes()).isEqualTo(64 * MIB / 20);
    assertThat(s.commitLogBacklogBytes()).isEqualTo(4 * MIB);
    assertThat(s.ioThreads()).isEqualTo(1);
    assertThat(s.requestThreads()).isEqualTo(2);
    assertThat(s.compactionThreads()).isEqualTo(1);
    assertThat(s.summary()).isEqualTo("Resources: heap 64 MiB, 1 core(s) -> memtables 16 MiB,"
        + " caches 3 MiB, commit-log backlog 4 MiB, threads: io 1, requests 2, compaction 1");
  }

  @Test
  void biggerMachineGrowsPoolsWithCapsOnThreadsAndBacklog() {
    ResourceSizing s = ResourceSizing.derive(2048 * MIB, 8, null, null);
    assertThat(s.memtableBytes()).isEqualTo(512 * MIB);
    assertThat(s.commitLogBacklogBytes()).isEqualTo(16 * MIB);
    assertThat(s.ioThreads()).isEqualTo(4);
    assertThat(s.requestThreads()).isEqualTo(16);
    assertThat(s.compactionThreads()).isEqualTo(2);
  }

  @Test
  void explicitSettingsOverrideDerivedValues() {
    ResourceSizing s = ResourceSizing.derive(256 * MIB, 2, 32 * MIB, 2);
    assertThat(s.memtableBytes()).isEqualTo(32 * MIB);
    assertThat(s.compactionThreads()).isEqualTo(2);
  }

  @Test
  void tooSmallHeapIsRefusedSayingWhatFits() {
    assertThatThrownBy(() -> ResourceSizing.derive(16 * MIB, 1, null, null))
        .hasMessage("A heap of 16 MiB is too small: Cassette needs at least 32 MiB"
            + " (start with --heap 64m or more)");
  }

  @Test
  void memtableLargerThanHalfTheHeapIsRefused() {
    assertThatThrownBy(() -> ResourceSizing.derive(64 * MIB, 1, 48 * MIB, null))
        .hasMessage("memtable_heap_space of 48 MiB does not fit a heap of 64 MiB:"
            + " at most half the heap (32 MiB)");
  }

  @Test
  void thisJvmIsSizedFromWhatItReports() {
    ResourceSizing s = ResourceSizing.forThisJvm(null, null);
    assertThat(s.heapBytes()).isEqualTo(Runtime.getRuntime().maxMemory());
    assertThat(s.processors()).isEqualTo(Runtime.getRuntime().availableProcessors());
  }
}
