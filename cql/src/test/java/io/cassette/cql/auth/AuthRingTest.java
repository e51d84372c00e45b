package io.cassette.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import io.cassette.coordinator.ring.RingHarness;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Roles and permissions written through one node of a three-node ring (RingHarness: one JVM,
 * 127.0.0.1-3) are read through the others: system_auth goes through the ring's coordinator
 * like any keyspace, so its rows live on their replicas, not on the node that wrote them.
 */
class AuthRingTest {
  static final long VALIDITY_MILLIS = 500;

  @TempDir
  static Path dir;
  static RingHarness ring;
  static final List<CqlServer> servers = new ArrayList<>();
  static final List<InetSocketAddress> addresses = new ArrayList<>();
  static final List<AccessControl> controls = new ArrayList<>();

  @BeforeAll
  static void start() throws Exception {
    ring = new RingHarness(dir, 3, 16, b -> b);
    for (int i = 0; i < 3; i++) {
      CqlLanguage language = new CqlLanguage(ring.node(i).coordinator(), NodeInfo.singleNode("Test Cluster",
          RingHarness.address(i), 9042, UUID.randomUUID(), ring.ring(i).member(ring.node(i).endpoint()).tokens()));
      // The harness has no metadata service: each node adds system_auth's tables (same ids) itself.
      AccessControl access = language.configureAuth(AuthSettings.passwords(VALIDITY_MILLIS));
      CqlServer server = new CqlServer(CqlServerOptions.defaults(RingHarness.address(i).getHostAddress(), 0)
          .withAuthenticator(access.authenticator()), language);
      addresses.add(server.start());
      servers.add(server);
      controls.add(access);
    }
    // Each node sets system_auth up once the ring answers; role statements are refused before.
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
    while (!controls.stream().allMatch(AccessControl::isReady)) {
      assertThat(System.nanoTime()).as("system_auth set up on every node within 60 s").isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  @AfterAll
  static void stop() {
    servers.forEach(CqlServer::close);
    if (ring != null) {
      ring.close();
    }
  }

  static CqlSession session(int node, String user, String password) {
    return CqlSession.builder().addContactPoint(addresses.get(node)).withLocalDatacenter("datacenter1")
        .withAuthCredentials(user, password)
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(20)).build())
        .build();
  }

  @Test
  void aRoleAndAGrantMadeOnOneNodeHoldOnTheOthers() throws Exception {
    for (int i = 0; i < 3; i++) {
      try (CqlSession s = session(i, "cassandra", "cassandra")) {
        s.execute("CREATE KEYSPACE IF NOT EXISTS r WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE IF NOT EXISTS r.kv (k int PRIMARY KEY, v int)");
      }
    }
    try (CqlSession admin = session(0, "cassandra", "cassandra")) {
      admin.execute("CREATE ROLE erin WITH PASSWORD = 'e' AND LOGIN = true");
      admin.execute("INSERT INTO r.kv (k, v) VALUES (1, 1)");
    }
    for (int node : new int[] {1, 2}) {
      try (CqlSession erin = session(node, "erin", "e")) {
        assertThatThrownBy(() -> erin.execute("SELECT * FROM r.kv"))
            .isInstanceOf(UnauthorizedException.class)
            .hasMessageContaining("User erin has no SELECT permission on <table r.kv> or any of its parents");
      }
    }
    Throwable wrong = org.assertj.core.api.Assertions.catchThrowable(() -> session(2, "erin", "x").close());
    assertThat(wrong).isInstanceOf(AllNodesFailedException.class);
    assertThat(wrong.getMessage()).contains("Provided username erin and/or password are incorrect");

    try (CqlSession admin = session(1, "cassandra", "cassandra")) {
      admin.execute("GRANT SELECT ON KEYSPACE r TO erin");
    }
    try (CqlSession erin = session(2, "erin", "e")) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      Integer v = null;
      while (v == null && System.nanoTime() < deadline) {
        try {
          v = erin.execute("SELECT v FROM r.kv WHERE k = 1").one().getInt(0);
        } catch (UnauthorizedException e) {
          Thread.sleep(100);
        }
      }
      assertThat(v).isEqualTo(1);
    }
  }
}
