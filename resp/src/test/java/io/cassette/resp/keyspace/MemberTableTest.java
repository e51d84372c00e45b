package io.cassette.resp.keyspace;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** MemberTable against a HashMap through random puts, replacements and removals (rehash and compaction included). */
class MemberTableTest {
  @Test
  void agreesWithAMapThroughGrowthReplacementAndCompaction() {
    Random random = new Random(7);
    MemberTable t = new MemberTable(RedisLayout.HASH_FIELD);
    Map<ByteBuffer, byte[]> model = new HashMap<>();
    for (int step = 0; step < 60_000; step++) {
      byte[] m = member(random.nextInt(step < 30_000 ? 8_000 : 1_000), random);
      int op = random.nextInt(10);
      if (op < 6) {
        byte[] v = new byte[random.nextInt(24)];
        random.nextBytes(v);
        t.put(m, v);
        model.put(ByteBuffer.wrap(m), v);
      } else if (op < 9) {
        t.remove(m);
        model.remove(ByteBuffer.wrap(m));
      } else {
        check(t, model, m);
      }
    }
    assertThat(t.size()).isEqualTo(model.size());
    for (int i = 0; i < 8_000; i++) {
      check(t, model, member(i, random));
    }
  }

  @Test
  void heapStaysNearTheMembersBytes() {
    MemberTable t = new MemberTable(RedisLayout.HASH_FIELD);
    for (int i = 0; i < 100_000; i++) {
      t.put(RedisLayout.tagged(RedisLayout.HASH_FIELD, ("element:" + (100_000_000_000L + i)).getBytes()), new byte[0]);
    }
    // 21-byte members: 23 arena bytes each plus 4-byte slots at a load of 0.38-0.75
    assertThat(t.heapBytes()).isBetween(2_300_000L, 5_000_000L);
    assertThat(MemberSets.estimatedBytes(100_000, 21)).isGreaterThanOrEqualTo(t.heapBytes() * 3 / 4);
  }

  private static byte[] member(int i, Random random) {
    // some members of the longest kept length, most short
    String s = i % 97 == 0 ? "x".repeat(MemberTable.MAX_MEMBER_BYTES - 12) + i : "m" + i;
    return RedisLayout.tagged(RedisLayout.HASH_FIELD, s.getBytes());
  }

  private static void check(MemberTable t, Map<ByteBuffer, byte[]> model, byte[] m) {
    byte[] want = model.get(ByteBuffer.wrap(m));
    assertThat(t.contains(m)).isEqualTo(want != null);
    byte[] got = t.value(m);
    if (want == null) {
      assertThat(got).isNull();
    } else if (want.length > MemberTable.MAX_VALUE_BYTES) {
      assertThat(got).isSameAs(MemberTable.PRESENT_VALUE_UNKNOWN);
    } else {
      assertThat(got).isEqualTo(want);
    }
  }
}
