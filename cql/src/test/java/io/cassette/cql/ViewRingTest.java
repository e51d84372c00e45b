package io.cassette.cql;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.cassette.coordinator.ring.RingHarness;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.KeyRange;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Table;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Materialized views on a ring of three (RingHarness, one JVM), RF=2: each base replica sends a
 * view update to its paired view replica (Cassandra's rule), so the view's rows live on the view
 * token's replicas, not the base token's. Writes through every node (inserts, rows moving to
 * another view key, deletes) are read back from the view at ONE through every node and at ALL,
 * and every view partition is stored on exactly its two replicas with the same rows. (The build
 * of a view over existing rows is not covered here: the harness has no metadata service, so a
 * view created on one node is unknown to the others until each creates it.)
 */
class ViewRingTest {
  @TempDir
  static Path dir;
  static RingHarness ring;
  static final List<CqlServer> servers = new ArrayList<>();
  static final List<CqlSession> sessions = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    ring = new RingHarness(dir, 3, 8, b -> b);
    for (int i = 0; i < 3; i++) {
      CqlLanguage language = new CqlLanguage(ring.node(i).coordinator(), NodeInfo.singleNode("Test Cluster",
          RingHarness.address(i), 9042, UUID.randomUUID(), ring.ring(i).member(ring.node(i).endpoint()).tokens()));
      language.materializedViews(true);
      CqlServer server = new CqlServer(CqlServerOptions.defaults(RingHarness.address(i).getHostAddress(), 0), language);
      InetSocketAddress address = server.start();
      servers.add(server);
      sessions.add(CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
          .withConfigLoader(DriverConfigLoader.programmaticBuilder()
              .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30)).build())
          .build());
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
  void viewRowsLiveOnTheViewTokensReplicas() throws Exception {
    CqlSession first = sessions.get(0);
    for (CqlSession s : sessions) { // as SaiRingTest: each node has applied the DDL when it answers
      s.execute("CREATE KEYSPACE IF NOT EXISTS app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 2}");
      s.execute("CREATE TABLE IF NOT EXISTS app.users (user int PRIMARY KEY, status int, email text)");
    }
    awaitSchema("users");
    // The harness has no metadata service: every node applies each DDL itself (as SaiRingTest).
    for (CqlSession s : sessions) {
      s.execute("CREATE MATERIALIZED VIEW IF NOT EXISTS app.by_status AS SELECT * FROM app.users"
          + " WHERE status IS NOT NULL AND user IS NOT NULL PRIMARY KEY (status, user)");
    }
    Map<Integer, Integer> status = new TreeMap<>();
    for (int u = 0; u < 60; u++) {
      status.put(u, u % 10);
      first.execute(SimpleStatement.newInstance("INSERT INTO app.users (user, status, email) VALUES (" + u + ", "
          + (u % 10) + ", 'e" + u + "')").setConsistencyLevel(DefaultConsistencyLevel.ALL));
    }
    for (int u = 60; u < 150; u++) {
      status.put(u, u % 10);
      CqlSession s = sessions.get(u % 3);
      s.execute(s.prepare("INSERT INTO app.users (user, status, email) VALUES (?, ?, ?)").bind(u, u % 10, "e" + u)
          .setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
    }
    for (int u = 0; u < 150; u += 7) { // moves to another view key
      status.put(u, 10 + u % 3);
      sessions.get(u % 3).execute(SimpleStatement.newInstance("UPDATE app.users SET status = " + (10 + u % 3)
          + " WHERE user = " + u).setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
    }
    for (int u = 1; u < 150; u += 11) {
      status.remove(u);
      sessions.get(u % 3).execute(SimpleStatement.newInstance("DELETE FROM app.users WHERE user = " + u)
          .setConsistencyLevel(DefaultConsistencyLevel.QUORUM));
    }
    Thread.sleep(500); // the paired replicas' updates are sent after the base write is acknowledged
    Map<Integer, List<Integer>> expected = new TreeMap<>();
    status.forEach((u, st) -> expected.computeIfAbsent(st, x -> new ArrayList<>()).add(u));
    for (int st = 0; st < 13; st++) {
      for (int n = 0; n < 3; n++) {
        for (DefaultConsistencyLevel cl : List.of(DefaultConsistencyLevel.ONE, DefaultConsistencyLevel.ALL)) {
          List<Integer> users = new ArrayList<>();
          for (Row r : sessions.get(n).execute(SimpleStatement.newInstance(
              "SELECT user, email FROM app.by_status WHERE status = " + st).setConsistencyLevel(cl))) {
            users.add(r.getInt("user"));
            assertThat(r.getString("email")).isEqualTo("e" + r.getInt("user"));
          }
          assertThat(users).as("status %d through node %d at %s", st, n, cl)
              .isEqualTo(expected.getOrDefault(st, List.of()));
        }
      }
    }
    // every view partition on exactly two nodes (its replicas), with the same rows on both
    Map<String, List<String>> copies = new HashMap<>();
    for (int n = 0; n < 3; n++) {
      try (Table.CloseableIterator<PartitionView> it = ring.node(n).engine().table("app", "by_status").orElseThrow()
          .scan(KeyRange.ALL, ReadQuery.all(System.currentTimeMillis() / 1000))) {
        while (it.hasNext()) {
          PartitionView p = it.next();
          copies.computeIfAbsent(java.util.HexFormat.of().formatHex(p.key().key()), k -> new ArrayList<>())
              .add(p.rows().size() + " rows");
        }
      }
    }
    assertThat(copies).hasSize(expected.size());
    copies.forEach((key, c) -> assertThat(c).as("copies of view partition %s", key).hasSize(2).containsOnly(c.get(0)));
  }

  /** Until every node has the table (schema changes reach the others through the metadata log). */
  private static void awaitSchema(String view) throws InterruptedException {
    for (int i = 0; i < 100; i++) {
      boolean all = true;
      for (int n = 0; n < 3; n++) {
        all &= ring.node(n).engine().table("app", view).isPresent();
      }
      if (all) {
        return;
      }
      Thread.sleep(50);
    }
  }
}
