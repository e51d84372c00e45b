package io.cassette.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.lab.workload.RedisIncrWorkload;
import io.cassette.metadata.ClusterMetadata;
import io.cassette.metadata.Member;
import io.cassette.metadata.NodeState;
import io.cassette.metadata.TokenAllocator;
import io.cassette.metadata.Transformation;
import io.cassette.metadata.Transformations;
import io.cassette.resp.ring.HashTags;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The redis-incr workload's keys on the lab's 3-node ring. The Redis keyspace has one replica, so
 * a key is CLUSTERDOWN while its node is down; tokens are allocated deterministically (the same
 * allocator and join order every run), so where the keys live is decided here, not by chance.
 * With 2 keys both were on the third node to join (n3), which the short run kills 3 s in: under
 * load not one INCR was acknowledged (bench/results/2026-12-02-faultlabtest-redis-incr.md).
 */
class RedisIncrKeysTest {
  @Test
  void everyNodeOfTheLabRingOwnsSomeOfTheKeys() throws Exception {
    // The seed (n1) joins first; n2 and n3 start together, so either may join second.
    for (List<Integer> order : List.of(List.of(1, 2, 3), List.of(1, 3, 2))) {
      TreeMap<Long, Integer> ring = ring(order);
      Set<Integer> owners = new HashSet<>();
      List<Integer> byKey = new java.util.ArrayList<>();
      for (int k = 0; k < FaultLab.REDIS_INCR_KEYS; k++) {
        byKey.add(owner(ring, HashTags.token(RedisIncrWorkload.key(k).getBytes(StandardCharsets.UTF_8))));
      }
      owners.addAll(byKey);
      System.out.println("join order " + order + ": node of each redis-incr key " + byKey);
      assertThat(owners).as("nodes owning the %d redis-incr keys, join order %s", FaultLab.REDIS_INCR_KEYS, order)
          .containsExactlyInAnyOrder(1, 2, 3);
    }
  }

  /** The lab's tokens, as RingNode allocates them on each join (16 tokens, allocation for RF 3). */
  @Test
  void theRingIsTheOneTheLabRuns() throws Exception {
    // First tokens of n1 and n3 in the lab's runs (node-identity.properties), n2 joined second.
    TreeMap<Long, Integer> ring = ring(List.of(1, 2, 3));
    assertThat(ring).containsEntry(-8646911284551352320L, 1).containsEntry(-8839064868652493464L, 3);
  }

  private static TreeMap<Long, Integer> ring(List<Integer> order) throws Exception {
    ClusterMetadata m = ClusterMetadata.EMPTY;
    TreeMap<Long, Integer> ring = new TreeMap<>();
    for (int i : order) {
      UUID host = new UUID(0x1000 + i, i);
      InetAddress a = InetAddress.getByName("127.0.0." + i);
      Member member = new Member(host, a, a, 9042, 6379, 7000, "datacenter1", "rack1", NodeState.REGISTERED, "0.1.0");
      List<Long> tokens = TokenAllocator.allocate(m, "datacenter1", TokenAllocator.DEFAULT_NUM_TOKENS,
          TokenAllocator.DEFAULT_REPLICATION_FACTOR);
      m = Transformations.applyAll(m, List.of(Transformation.register("lab", member),
          Transformation.prepareJoin(host, tokens), Transformation.startJoin(host), Transformation.finishJoin(host)));
      tokens.forEach(t -> ring.put(t, i));
    }
    return ring;
  }

  /** With one replica: the node of the first token at or after {@code token}, wrapping around. */
  private static int owner(TreeMap<Long, Integer> ring, long token) {
    Map.Entry<Long, Integer> e = ring.ceilingEntry(token);
    return (e != null ? e : ring.firstEntry()).getValue();
  }
}
