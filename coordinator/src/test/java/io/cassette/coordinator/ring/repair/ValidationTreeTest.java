package io.cassette.coordinator.ring.repair;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.Range;
import io.cassette.storage.Cell;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import io.cassette.storage.TokenDigest;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.BitSet;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The trees validation builds from storage's digests: replicas with the same data in different
 * SSTable layouts build equal trees (a digest that disagreed across layouts would make repair
 * stream for nothing, or worse hide nothing but cost everything); one differing cell gives one
 * differing leaf; and the streams planned from three trees send each differing leaf to a
 * stale replica once.
 */
class ValidationTreeTest {
  private static final UUID ID = UUID.randomUUID();
  private static final Range RANGE = new Range(Long.MIN_VALUE, Long.MAX_VALUE);

  @TempDir
  Path dir;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static PartitionUpdate row(int i, String value, long ts) {
    return PartitionUpdate.builder("ks", "t", b("k" + i))
        .row(new Row(b("c"), LivenessInfo.of(ts), DeletionTime.LIVE, List.of(Cell.live("v", b(value), ts)))).build();
  }

  private static MerkleTree tree(Table t, long now) {
    MerkleTree tree = new MerkleTree(RANGE, 12);
    try (Table.CloseableIterator<TokenDigest> it = t.digests(RANGE.start(), RANGE.end(), now)) {
      while (it.hasNext()) {
        TokenDigest d = it.next();
        tree.add(d.token(), d.high(), d.low());
      }
    }
    return tree;
  }

  @Test
  void sameDataInOtherSSTablesGivesEqualTreesAndOneCellOneLeaf() {
    long now = System.currentTimeMillis() / 1000;
    try (Engine a = Engine.open(EngineOptions.defaults(dir.resolve("a")));
         Engine b = Engine.open(EngineOptions.defaults(dir.resolve("b")))) {
      Table ta = a.createTable(TableSpec.withDefaults("ks", "t", ID));
      Table tb = b.createTable(TableSpec.withDefaults("ks", "t", ID));
      for (int i = 0; i < 300; i++) {
        ta.apply(row(i, "v" + i, 10));
        if (i % 50 == 0) {
          ta.flush(); // a: seven SSTables in write order
        }
      }
      ta.apply(PartitionUpdate.builder("ks", "t", b("k7")).deletePartition(new DeletionTime(20, now)).build());
      for (int i = 299; i >= 0; i--) { // b: one SSTable, an old value overwritten in the memtable
        tb.apply(row(i, i == 42 ? "older" : "v" + i, i == 42 ? 5 : 10));
      }
      tb.flush();
      tb.apply(row(42, "v42", 10));
      tb.apply(PartitionUpdate.builder("ks", "t", b("k7")).deletePartition(new DeletionTime(20, now)).build());

      assertThat(tree(tb, now).differences(tree(ta, now))).isEmpty();
      tb.compact();
      assertThat(tree(tb, now).root()).isEqualTo(tree(ta, now).root());

      tb.apply(row(123, "newer", 11));
      BitSet differing = tree(tb, now).differingLeaves(tree(ta, now));
      assertThat(differing.cardinality()).isEqualTo(1);
      assertThat(tree(ta, now).ranges(differing).get(0).contains(io.cassette.storage.Murmur3Token.of(b("k123"))))
          .isTrue();
    }
  }

  @Test
  void eachReceiverGetsEachDifferingLeafOnceFromEachVersion() throws Exception {
    MerkleTree fresh = new MerkleTree(RANGE, 4);
    MerkleTree fresh2 = new MerkleTree(RANGE, 4);
    MerkleTree stale = new MerkleTree(RANGE, 4);
    for (MerkleTree t : List.of(fresh, fresh2, stale)) {
      t.add(-100, 1, 1);
    }
    fresh.add(5, 2, 2); // both fresh replicas hold a write the stale one lacks
    fresh2.add(5, 2, 2);
    fresh.add(Long.MAX_VALUE - 1, 3, 3); // and in another leaf the first one alone holds one
    List<Endpoint> replicas = List.of(endpoint(1), endpoint(2), endpoint(3));
    MerkleTree[] trees = {fresh, fresh2, stale};
    BitSet[][] differ = new BitSet[3][3];
    for (int x = 0; x < 3; x++) {
      for (int y = 0; y < 3; y++) {
        differ[x][y] = x == y ? new BitSet() : trees[x].differingLeaves(trees[y]);
      }
    }
    List<RepairCommand.Sync> syncs = RepairCommand.syncs(replicas, fresh, differ);
    int leafOf5 = fresh.differingLeaves(stale).nextSetBit(0);
    int lastLeaf = fresh.leafCount() - 1;
    // To the stale one: both leaves from the first replica, none from the second (it agrees there).
    assertThat(find(syncs, 1, 3)).isEqualTo(fresh.ranges(bits(leafOf5, lastLeaf)));
    assertThat(find(syncs, 2, 3)).isNull();
    // The last leaf: only the first replica has its write; the second gets it from there.
    assertThat(find(syncs, 1, 2)).isEqualTo(fresh.ranges(bits(lastLeaf)));
    // The first replica gets each leaf from one holder of each other version: the leaf of 5
    // from the stale one (the second agrees with the first there), the last leaf from the
    // second only (the stale one holds the same there: nothing).
    assertThat(find(syncs, 3, 1)).isEqualTo(fresh.ranges(bits(leafOf5)));
    assertThat(find(syncs, 2, 1)).isEqualTo(fresh.ranges(bits(lastLeaf)));
    assertThat(find(syncs, 3, 2)).isEqualTo(fresh.ranges(bits(leafOf5)));
    assertThat(syncs).hasSize(5);
  }

  private static BitSet bits(int... leaves) {
    BitSet s = new BitSet();
    for (int l : leaves) {
      s.set(l);
    }
    return s;
  }

  private static List<Range> find(List<RepairCommand.Sync> syncs, int from, int to) throws Exception {
    for (RepairCommand.Sync s : syncs) {
      if (s.a().equals(endpoint(from)) && s.b().equals(endpoint(to))) {
        return s.ranges();
      }
    }
    return null;
  }

  private static Endpoint endpoint(int i) throws Exception {
    return new Endpoint(new UUID(0, i), InetAddress.getByName("127.0.0." + i));
  }
}
