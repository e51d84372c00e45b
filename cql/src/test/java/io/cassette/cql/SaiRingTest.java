package io.cassette.cql;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.data.CqlVector;
import io.cassette.cluster.net.MessageFilters;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ring.RingHarness;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.KeyRange;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import io.cassette.storage.index.VectorSimilarity;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage-attached indexes on a ring of three (RingHarness, one JVM): the index query goes to
 * each range's replicas, which answer from their own indexes, and the coordinator merges at the
 * level (ANN: each replica's top k, merged and re-ranked). Answers are compared with the same
 * queries with ALLOW FILTERING on an unindexed copy, through every node, with RF=1 (every node
 * holds a part) and RF=3 (at ONE, QUORUM and ALL), across a flush, deletes and paging; a
 * replica that missed an overwrite does not make an ALL read return the old value.
 */
class SaiRingTest {
  @TempDir
  static Path dir;
  static RingHarness ring;
  static final List<CqlServer> servers = new ArrayList<>();
  static final List<CqlSession> sessions = new ArrayList<>();

  private static final String[] QUERIES = {
      "SELECT * FROM %s WHERE n = 7",
      "SELECT * FROM %s WHERE n >= 10 AND n < 30",
      "SELECT * FROM %s WHERE t = 'w3'",
      "SELECT * FROM %s WHERE ts < '2020-01-01 00:00:40+0000'",
      "SELECT * FROM %s WHERE n < 60 AND t = 'w1'",
      "SELECT * FROM %s WHERE tags CONTAINS 'x2'",
      "SELECT * FROM %s WHERE attrs CONTAINS KEY 'k1'",
      "SELECT * FROM %s WHERE token(p) > 0 AND n < 50",
      "SELECT * FROM %s WHERE p = 3 AND n < 50",
  };

  @BeforeAll
  static void start() throws Exception {
    ring = new RingHarness(dir, 3, 8, b -> b);
    for (int i = 0; i < 3; i++) {
      CqlLanguage language = new CqlLanguage(ring.node(i).coordinator(), NodeInfo.singleNode("Test Cluster",
          RingHarness.address(i), 9042, UUID.randomUUID(), ring.ring(i).member(ring.node(i).endpoint()).tokens()));
      CqlServer server = new CqlServer(CqlServerOptions.defaults(RingHarness.address(i).getHostAddress(), 0), language);
      InetSocketAddress address = server.start();
      servers.add(server);
      sessions.add(CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
          .withConfigLoader(DriverConfigLoader.programmaticBuilder()
              .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30)).build())
          .build());
    }
    for (int rf : new int[] {1, 3}) {
      String ks = "s" + rf;
      everywhere("CREATE KEYSPACE IF NOT EXISTS " + ks + " WITH replication = {'class': 'SimpleStrategy',"
          + " 'replication_factor': " + rf + "}");
      for (String t : List.of("t", "u")) {
        everywhere("CREATE TABLE IF NOT EXISTS " + ks + "." + t + " (p int, c int, n int, t text, ts timestamp,"
            + " tags set<text>, attrs map<text, int>, PRIMARY KEY (p, c))");
      }
      everywhere("CREATE INDEX IF NOT EXISTS n_idx ON " + ks + ".t (n) USING 'sai'");
      everywhere("CREATE INDEX IF NOT EXISTS t_idx ON " + ks + ".t (t) USING 'sai'");
      everywhere("CREATE CUSTOM INDEX IF NOT EXISTS ts_idx ON " + ks + ".t (ts) USING 'StorageAttachedIndex'");
      everywhere("CREATE INDEX IF NOT EXISTS tags_idx ON " + ks + ".t (tags) USING 'sai'");
      everywhere("CREATE INDEX IF NOT EXISTS keys_idx ON " + ks + ".t (keys(attrs)) USING 'sai'");
      everywhere("CREATE TABLE IF NOT EXISTS " + ks + ".v (id int PRIMARY KEY, e vector<float, 8>)");
      everywhere("CREATE CUSTOM INDEX IF NOT EXISTS e_idx ON " + ks + ".v (e) USING 'StorageAttachedIndex'"
          + " WITH OPTIONS = {'similarity_function': 'euclidean'}");
    }
  }

  static void everywhere(String ddl) {
    for (CqlSession s : sessions) {
      s.execute(ddl);
    }
  }

  @AfterAll
  static void stop() {
    sessions.forEach(CqlSession::close);
    servers.forEach(CqlServer::close);
    if (ring != null) {
      ring.close();
    }
  }

  @Test
  void indexQueriesOnTheRingEqualFilteredScans() {
    Random random = new Random(22);
    for (int rf : new int[] {1, 3}) {
      String ks = "s" + rf;
      for (int n = 0; n < 3; n++) {
        assertThat(ring.node(n).engine().table(ks, "t").orElseThrow().indexes().definitions())
            .as("indexes kept by node %d", n).hasSize(5);
      }
      write(ks, random, 0, 120);
      for (int n = 0; n < 3; n++) {
        ring.node(n).engine().table(ks, "t").orElseThrow().flush();
      }
      write(ks, random, 60, 160);
      for (int i = 0; i < 15; i++) {
        int p = random.nextInt(12);
        int c = random.nextInt(30);
        for (String t : List.of("t", "u")) {
          sessions.get(i % 3).execute(SimpleStatement.newInstance("DELETE FROM " + ks + "." + t + " WHERE p = " + p
              + " AND c = " + c).setConsistencyLevel(DefaultConsistencyLevel.ALL));
        }
      }
      if (rf == 1) {
        int stored = 0;
        for (int n = 0; n < 3; n++) {
          int here = partitions(n, ks, "t");
          assertThat(here).as("partitions on node %d", n).isBetween(1, 11);
          stored += here;
        }
        assertThat(stored).isEqualTo(12);
      }
      List<DefaultConsistencyLevel> levels = rf == 1 ? List.of(DefaultConsistencyLevel.ONE)
          : List.of(DefaultConsistencyLevel.ONE, DefaultConsistencyLevel.QUORUM, DefaultConsistencyLevel.ALL);
      for (DefaultConsistencyLevel cl : levels) {
        for (int s = 0; s < 3; s++) {
          for (String q : QUERIES) {
            List<String> expected = rows(s, String.format(q, ks + ".u") + " ALLOW FILTERING", cl, 0);
            assertThat(rows(s, String.format(q, ks + ".t"), cl, 0)).as(q + " through node " + s + " at " + cl)
                .containsExactlyElementsOf(expected);
          }
        }
      }
      // pages concatenate to the whole answer
      for (String q : new String[] {QUERIES[1], QUERIES[4], QUERIES[5]}) {
        List<String> all = rows(1, String.format(q, ks + ".t"), DefaultConsistencyLevel.ONE, 0);
        assertThat(all).isNotEmpty();
        assertThat(rows(2, String.format(q, ks + ".t"), DefaultConsistencyLevel.ONE, 3)).containsExactlyElementsOf(all);
      }
    }
  }

  @Test
  void aReplicaThatMissedAnOverwriteDoesNotBringBackTheOldValue() {
    sessions.get(0).execute(SimpleStatement.newInstance("INSERT INTO s3.t (p, c, n, t) VALUES (500, 1, 7001, 'stale')")
        .setConsistencyLevel(DefaultConsistencyLevel.ALL));
    // the overwrite reaches node 0 only
    MessageFilters.Rule cut = ring.filters().verbs(Verb.MUTATION_REQ).from(RingHarness.address(0)).drop();
    try {
      sessions.get(0).execute(SimpleStatement.newInstance("UPDATE s3.t SET n = 7002 WHERE p = 500 AND c = 1")
          .setConsistencyLevel(DefaultConsistencyLevel.ONE));
    } finally {
      cut.off();
    }
    for (int s = 0; s < 3; s++) {
      assertThat(rows(s, "SELECT p, c, n FROM s3.t WHERE n = 7001", DefaultConsistencyLevel.ALL, 0))
          .as("old value through node %d", s).isEmpty();
      assertThat(rows(s, "SELECT p, c, n FROM s3.t WHERE n = 7002", DefaultConsistencyLevel.ALL, 0))
          .as("new value through node %d", s).containsExactly("500,1,7002");
    }
  }

  /** ANN through every node: the k nearest of the whole table, in order, from every node's part. */
  @Test
  void annMergesEachReplicasTopK() {
    Random random = new Random(5);
    for (int rf : new int[] {1, 3}) {
      String ks = "s" + rf;
      Map<Integer, float[]> live = new HashMap<>();
      List<PreparedStatement> inserts = new ArrayList<>();
      for (CqlSession session : sessions) {
        inserts.add(session.prepare("INSERT INTO " + ks + ".v (id, e) VALUES (?, ?)"));
      }
      for (int id = 0; id < 300; id++) {
        float[] v = new float[8];
        for (int d = 0; d < 8; d++) {
          v[d] = (float) random.nextGaussian();
        }
        live.put(id, v);
        sessions.get(id % 3).execute(inserts.get(id % 3).bind(id, CqlVector.newInstance(box(v)))
            .setConsistencyLevel(DefaultConsistencyLevel.ALL));
        if (id == 200) {
          for (int n = 0; n < 3; n++) {
            ring.node(n).engine().table(ks, "v").orElseThrow().flush();
          }
        }
      }
      if (rf == 1) {
        for (int n = 0; n < 3; n++) {
          assertThat(partitions(n, ks, "v")).as("vectors on node %d", n).isBetween(1, 299);
        }
      }
      double recall = 0;
      int queries = 0;
      for (int q = 0; q < 6; q++) {
        float[] query = new float[8];
        for (int d = 0; d < 8; d++) {
          query[d] = (float) random.nextGaussian();
        }
        List<Integer> exact = new ArrayList<>(live.keySet());
        exact.sort((x, y) -> Float.compare(VectorSimilarity.EUCLIDEAN.score(query, live.get(y)),
            VectorSimilarity.EUCLIDEAN.score(query, live.get(x))));
        int s = q % 3;
        ConsistencyLevel cl = rf == 3 && q % 2 == 1 ? DefaultConsistencyLevel.QUORUM : DefaultConsistencyLevel.ONE;
        List<Row> got = sessions.get(s).execute(SimpleStatement.newInstance("SELECT id FROM " + ks
            + ".v ORDER BY e ANN OF " + literal(query) + " LIMIT 10").setConsistencyLevel(cl)).all();
        assertThat(got).hasSize(10);
        float previous = Float.MAX_VALUE;
        for (Row r : got) {
          float score = VectorSimilarity.EUCLIDEAN.score(query, live.get(r.getInt(0)));
          assertThat(score).as("answers in score order").isLessThanOrEqualTo(previous);
          previous = score;
          recall += exact.subList(0, 10).contains(r.getInt(0)) ? 0.1 : 0;
        }
        queries++;
      }
      assertThat(recall / queries).as("recall@10 with RF=" + rf).isGreaterThanOrEqualTo(0.9);
    }
  }

  private static void write(String ks, Random random, int from, int to) {
    PreparedStatement[][] inserts = new PreparedStatement[3][2];
    for (int s = 0; s < 3; s++) {
      for (int i = 0; i < 2; i++) {
        inserts[s][i] = sessions.get(s).prepare("INSERT INTO " + ks + "." + (i == 0 ? "t" : "u")
            + " (p, c, n, t, ts, tags, attrs) VALUES (?, ?, ?, ?, ?, ?, ?)");
      }
    }
    for (int i = from; i < to; i++) {
      int p = i % 12;
      int c = i % 30;
      int n = random.nextInt(100);
      String t = "w" + random.nextInt(5);
      java.time.Instant ts = java.time.Instant.parse("2020-01-01T00:00:00Z").plusSeconds(random.nextInt(100));
      java.util.Set<String> tags = java.util.Set.of("x" + random.nextInt(4), "y" + random.nextInt(4));
      Map<String, Integer> attrs = Map.of("k" + random.nextInt(3), random.nextInt(6));
      for (PreparedStatement ps : inserts[i % 3]) {
        sessions.get(i % 3).execute(ps.bind(p, c, n, t, ts, tags, attrs)
            .setConsistencyLevel(DefaultConsistencyLevel.ALL));
      }
    }
  }

  private static int partitions(int node, String ks, String table) {
    int here = 0;
    try (Table.CloseableIterator<io.cassette.storage.PartitionView> it = ring.node(node).engine().table(ks, table)
        .orElseThrow().scan(KeyRange.ALL, ReadQuery.all(Long.MAX_VALUE / 2))) {
      while (it.hasNext()) {
        it.next();
        here++;
      }
    }
    return here;
  }

  /** The rows as text in the order returned; pageSize 0: the driver's default. */
  private static List<String> rows(int session, String cql, ConsistencyLevel cl, int pageSize) {
    SimpleStatement st = SimpleStatement.newInstance(cql).setConsistencyLevel(cl);
    if (pageSize > 0) {
      st = st.setPageSize(pageSize);
    }
    List<String> out = new ArrayList<>();
    for (Row r : sessions.get(session).execute(st)) {
      StringBuilder b = new StringBuilder();
      for (int i = 0; i < r.getColumnDefinitions().size(); i++) {
        b.append(i == 0 ? "" : ",").append(r.getObject(i));
      }
      out.add(b.toString());
    }
    return out;
  }

  private static Float[] box(float[] v) {
    Float[] out = new Float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i];
    }
    return out;
  }

  private static String literal(float[] v) {
    StringBuilder b = new StringBuilder("[");
    for (int i = 0; i < v.length; i++) {
      b.append(i == 0 ? "" : ", ").append(v[i]);
    }
    return b.append(']').toString();
  }
}
