package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Apache Cassandra Java driver 4.19 against our transport (with a test QueryHandler):
 * default settings negotiate v5; forced v4/v3, LZ4 and Snappy compression; prepared
 * statements, paging, batches, many concurrent requests, authentication.
 */
class JavaDriverTest {
  static StubQueryHandler handler;
  static CqlServer server;
  static InetSocketAddress address;

  @BeforeAll
  static void start() {
    handler = new StubQueryHandler();
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), handler);
    address = server.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static CqlSession session(String protocolVersion, String compression) {
    ProgrammaticDriverConfigLoaderBuilder config = DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10));
    if (protocolVersion != null) {
      config.withString(DefaultDriverOption.PROTOCOL_VERSION, protocolVersion);
    }
    if (compression != null) {
      config.withString(DefaultDriverOption.PROTOCOL_COMPRESSION, compression);
    }
    return builder().withConfigLoader(config.build()).build();
  }

  static CqlSessionBuilder builder() {
    return CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1");
  }

  @Test
  void defaultSettingsNegotiateV5AndRunStatements() {
    try (CqlSession session = builder().build()) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V5);
      exercise(session, 1000);
      assertThat(session.getMetadata().getNodes()).hasSize(1);
      assertThat(session.getMetadata().getNodes().values().iterator().next().getCassandraVersion().toString())
          .isEqualTo("5.0.4");
    }
  }

  @Test
  void v5WithLz4Segments() {
    try (CqlSession session = session("V5", "lz4")) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V5);
      exercise(session, 2000);
      // A value bigger than a segment: compressed, multi-segment both ways.
      String big = "z".repeat(400_000);
      Row row = session.execute(SimpleStatement.newInstance("ECHO " + big)).one();
      assertThat(row.getString(0)).isEqualTo(big);
    }
  }

  @Test
  void forcedV4WithLz4() {
    try (CqlSession session = session("V4", "lz4")) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V4);
      exercise(session, 3000);
      String big = "q".repeat(300_000);
      assertThat(session.execute(SimpleStatement.newInstance("ECHO " + big)).one().getString(0)).isEqualTo(big);
    }
  }

  @Test
  void forcedV4WithSnappy() {
    try (CqlSession session = session("V4", "snappy")) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V4);
      exercise(session, 4000);
      String big = "abcdefgh".repeat(40_000);
      assertThat(session.execute(SimpleStatement.newInstance("ECHO " + big)).one().getString(0)).isEqualTo(big);
    }
  }

  @Test
  void forcedV3() {
    try (CqlSession session = session("V3", null)) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V3);
      exercise(session, 5000);
    }
  }

  @Test
  void pagingThroughTenThousandRowsWithPageSize100() {
    try (CqlSession session = builder().build()) {
      PreparedStatement insert = session.prepare("INSERT INTO ks.kv (k, v) VALUES (?, ?)");
      List<CompletionStage<AsyncResultSet>> writes = new ArrayList<>();
      for (int i = 100_000; i < 110_000; i++) {
        writes.add(session.executeAsync(insert.bind(i, "row" + i)));
        if (writes.size() == 500) {
          CompletableFuture.allOf(writes.stream().map(CompletionStage::toCompletableFuture)
              .toArray(CompletableFuture[]::new)).join();
          writes.clear();
        }
      }
      CompletableFuture.allOf(writes.stream().map(CompletionStage::toCompletableFuture)
          .toArray(CompletableFuture[]::new)).join();
      ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT k, v FROM ks.kv").setPageSize(100));
      int count = 0;
      int pages = 0;
      for (Row row : rs) {
        if (rs.getAvailableWithoutFetching() == 0) {
          pages++;
        }
        int k = row.getInt("k");
        if (k >= 100_000 && k < 110_000) {
          assertThat(row.getString("v")).isEqualTo("row" + k);
          count++;
        }
      }
      assertThat(count).isEqualTo(10_000);
      assertThat(pages).isGreaterThanOrEqualTo(100);
    }
  }

  @Test
  void thousandConcurrentAsyncRequests() throws Exception {
    try (CqlSession session = builder().build()) {
      PreparedStatement select = session.prepare("SELECT v FROM ks.kv WHERE k = ?");
      session.execute(SimpleStatement.newInstance("INSERT INTO ks.kv (k, v) VALUES (?, ?)", 42, "forty-two"));
      List<CompletableFuture<AsyncResultSet>> futures = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        futures.add(session.executeAsync(select.bind(42)).toCompletableFuture());
      }
      for (CompletableFuture<AsyncResultSet> f : futures) {
        assertThat(f.get(20, TimeUnit.SECONDS).one().getString(0)).isEqualTo("forty-two");
      }
    }
  }

  @Test
  void authenticationWithPlainText() {
    try (CqlServer secured = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0)
        .withAuthenticator(new PlainTextTestAuthenticator("cassette", "secret")), new StubQueryHandler())) {
      InetSocketAddress a = secured.start();
      try (CqlSession session = CqlSession.builder().addContactPoint(a).withLocalDatacenter("datacenter1")
          .withAuthCredentials("cassette", "secret").build()) {
        assertThat(session.execute("SELECT release_version FROM system.local").one().getString("release_version"))
            .isEqualTo("5.0.4");
      }
      assertThatThrownBy(() -> CqlSession.builder().addContactPoint(a).withLocalDatacenter("datacenter1")
          .withAuthCredentials("cassette", "wrong").build())
          .isInstanceOf(AllNodesFailedException.class)
          .satisfies(e -> assertThat(((AllNodesFailedException) e).getAllErrors().values().iterator().next().get(0))
              .isInstanceOf(AuthenticationException.class)
              .hasMessageContaining("Provided username cassette and/or password are incorrect"));
    }
  }

  /** Simple, prepared, batch and error round trips; keys from {@code base} so tests do not collide. */
  private static void exercise(CqlSession session, int base) {
    assertThat(session.execute("SELECT release_version FROM system.local").one().getString("release_version"))
        .isEqualTo("5.0.4");
    session.execute(SimpleStatement.newInstance("INSERT INTO ks.kv (k, v) VALUES (?, ?)", base, "simple"));
    PreparedStatement insert = session.prepare("INSERT INTO ks.kv (k, v) VALUES (?, ?)");
    session.execute(insert.bind(base + 1, "prepared"));
    session.execute(BatchStatement.newInstance(BatchType.LOGGED,
        insert.bind(base + 2, "batch-a"), insert.bind(base + 3, "batch-b"),
        SimpleStatement.newInstance("INSERT INTO ks.kv (k, v) VALUES (?, ?)", base + 4, "batch-c")));
    PreparedStatement select = session.prepare("SELECT v FROM ks.kv WHERE k = ?");
    assertThat(select.getResultSetDefinitions().size()).isEqualTo(1);
    String[] expected = {"simple", "prepared", "batch-a", "batch-b", "batch-c"};
    for (int i = 0; i < expected.length; i++) {
      assertThat(session.execute(select.bind(base + i)).one().getString("v")).isEqualTo(expected[i]);
    }
    assertThat(session.execute(select.bind(-1)).one()).isNull();
    assertThatThrownBy(() -> session.execute("FAIL SYNTAX"))
        .isInstanceOf(SyntaxError.class)
        .hasMessageContaining("no viable alternative");
    if (session.getContext().getProtocolVersion().getCode() >= 4) {
      assertThat(session.execute("WARN").getExecutionInfo().getWarnings()).containsExactly("careful");
    }
  }
}
