package io.cassette.coordinator.ring.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.coordinator.ring.Range;
import io.cassette.storage.StorageException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class MerkleTreeTest {
  static final Range WHOLE = new Range(Long.MIN_VALUE, Long.MAX_VALUE);

  @Test
  void leavesCoverTheRangeExactlyWithoutGaps() {
    for (Range r : List.of(WHOLE, new Range(-5, 7), new Range(100, 100 + (1L << 40) + 3),
        new Range(Long.MIN_VALUE, 0), new Range(-1, Long.MAX_VALUE))) {
      MerkleTree t = new MerkleTree(r, 10);
      assertThat(t.boundary(0)).isEqualTo(r.start());
      assertThat(t.boundary(t.leafCount())).isEqualTo(r.end());
      for (int i = 0; i < t.leafCount(); i++) {
        assertThat(Long.compare(t.boundary(i), t.boundary(i + 1))).as("%s leaf %d", r, i).isLessThanOrEqualTo(0);
      }
    }
  }

  @Test
  void equalPartitionsInAnyOrderGiveEqualTreesAndNoDifferences() {
    Random random = new Random(7);
    List<long[]> parts = new ArrayList<>();
    for (int i = 0; i < 5000; i++) {
      parts.add(new long[] {random.nextLong(), random.nextLong(), random.nextLong()});
    }
    parts.removeIf(p -> p[0] == Long.MIN_VALUE);
    MerkleTree a = new MerkleTree(WHOLE, 12);
    MerkleTree b = new MerkleTree(WHOLE, 12);
    parts.sort((x, y) -> Long.compare(x[0], y[0]));
    parts.forEach(p -> a.add(p[0], p[1], p[2]));
    Collections.shuffle(parts, random); // out of order still lands in the right leaves
    parts.forEach(p -> b.add(p[0], p[1], p[2]));
    assertThat(a.root()).isEqualTo(b.root());
    assertThat(a.differences(b)).isEmpty();
    assertThat(MerkleTree.decode(a.encode()).differences(b)).isEmpty();
  }

  @Test
  void aMissingOrChangedPartitionIsFoundInItsOwnLeafOnly() {
    MerkleTree a = new MerkleTree(WHOLE, 15);
    MerkleTree b = new MerkleTree(WHOLE, 15);
    long[] tokens = {-9_000_000_000_000_000_000L, -12345, 0, 1L << 55, 8_000_000_000_000_000_000L};
    for (long t : tokens) {
      a.add(t, t * 31, t * 17 + 1);
      if (t != 1L << 55) {
        b.add(t, t * 31, t * 17 + (t == 0 ? 2 : 1)); // token 0 differs, token 2^55 is missing
      }
    }
    List<Range> diff = a.differences(b);
    assertThat(diff).hasSize(2);
    assertThat(diff.get(0).contains(0)).isTrue();
    assertThat(diff.get(1).contains(1L << 55)).isTrue();
    for (long t : tokens) {
      if (t != 0 && t != 1L << 55) {
        assertThat(diff).noneMatch(r -> r.contains(t));
      }
    }
    // A leaf of the whole ring at depth 15 is 2^49 tokens wide.
    assertThat(diff.get(0).end() - diff.get(0).start()).isEqualTo(1L << 49);
  }

  @Test
  void neighbouringLeavesMergeIntoOneRange() {
    Range r = new Range(0, 1024);
    MerkleTree a = new MerkleTree(r, 10); // one token per leaf
    MerkleTree b = new MerkleTree(r, 10);
    for (long t = 100; t <= 110; t++) {
      a.add(t, t, t);
    }
    assertThat(a.differences(b)).containsExactly(new Range(99, 110));
  }

  @Test
  void narrowRangesHaveEmptyLeavesThatNeverDiffer() {
    Range r = new Range(10, 13); // three tokens, 8 leaves
    MerkleTree a = new MerkleTree(r, 3);
    MerkleTree b = new MerkleTree(r, 3);
    a.add(11, 1, 1);
    a.add(13, 2, 2);
    assertThat(a.differences(b)).containsExactly(new Range(10, 11), new Range(12, 13));
  }

  @Test
  void wireFormatKeepsOnlyNonEmptyLeavesAndRejectsGarbage() {
    MerkleTree a = new MerkleTree(WHOLE, MerkleTree.MAX_DEPTH);
    a.add(5, 1, 2);
    byte[] bytes = a.encode();
    assertThat(bytes.length).isLessThan(64);
    MerkleTree back = MerkleTree.decode(bytes);
    assertThat(back.range()).isEqualTo(WHOLE);
    assertThat(back.root()).isEqualTo(a.root());
    bytes[0] = 9;
    assertThatThrownBy(() -> MerkleTree.decode(bytes)).isInstanceOf(StorageException.class)
        .hasMessageContaining("format 9");
    assertThatThrownBy(() -> a.differences(new MerkleTree(WHOLE, 3))).isInstanceOf(IllegalArgumentException.class);
  }
}
