package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
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
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java driver 4.19 (and the Python driver when installed) through our transport into the
 * real language ({@link CqlLanguage}) and storage engine: default settings negotiate v5; forced
 * v4 with LZ4 and Snappy, v5 with LZ4, and v3 run the same statements.
 */
class RealLanguageDriverTest {
  @TempDir
  static Path dir;
  static Engine engine;
  static CqlServer server;
  static InetSocketAddress address;

  @BeforeAll
  static void start() throws Exception {
    engine = Engine.open(EngineOptions.defaults(dir));
    CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null), NodeInfo.singleNode("Test Cluster",
        InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(-4611686018427387904L, 0L,
            4611686018427387904L)));
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
    address = server.start();
    try (CqlSession session = session(null, null)) {
      session.execute("CREATE KEYSPACE IF NOT EXISTS tx WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
    }
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (engine != null) {
      engine.close();
    }
  }

  static CqlSession session(String protocolVersion, String compression) {
    ProgrammaticDriverConfigLoaderBuilder config = DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(15));
    if (protocolVersion != null) {
      config.withString(DefaultDriverOption.PROTOCOL_VERSION, protocolVersion);
    }
    if (compression != null) {
      config.withString(DefaultDriverOption.PROTOCOL_COMPRESSION, compression);
    }
    return CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
        .withConfigLoader(config.build()).build();
  }

  @Test
  void defaultSettingsNegotiateV5PageTenThousandRowsAndRunThousandConcurrentRequests() throws Exception {
    try (CqlSession session = session(null, null)) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V5);
      exercise(session, "t_default");
      session.execute("CREATE TABLE IF NOT EXISTS tx.wide (p int, c int, v text, PRIMARY KEY (p, c))");
      PreparedStatement insert = session.prepare("INSERT INTO tx.wide (p, c, v) VALUES (?, ?, ?)");
      List<CompletableFuture<AsyncResultSet>> writes = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        writes.add(session.executeAsync(insert.bind(i % 7, i, "v" + i)).toCompletableFuture());
        if (writes.size() == 1000) {
          CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
          writes.clear();
        }
      }
      CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);
      ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT p, c, v FROM tx.wide").setPageSize(100));
      int count = 0;
      int pages = 0;
      for (Row row : rs) {
        assertThat(row.getString("v")).isEqualTo("v" + row.getInt("c"));
        count++;
        if (rs.getAvailableWithoutFetching() == 0) {
          pages++;
        }
      }
      assertThat(count).isEqualTo(10_000);
      assertThat(pages).isGreaterThanOrEqualTo(100);
      PreparedStatement select = session.prepare("SELECT v FROM tx.wide WHERE p = ? AND c = ?");
      List<CompletableFuture<AsyncResultSet>> reads = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        reads.add(session.executeAsync(select.bind(i % 7, i)).toCompletableFuture());
      }
      for (int i = 0; i < 1000; i++) {
        assertThat(reads.get(i).get(30, TimeUnit.SECONDS).one().getString(0)).isEqualTo("v" + i);
      }
    }
  }

  @Test
  void languageWarningsReachTheDriver() {
    try (CqlSession session = session(null, null)) {
      ResultSet rs = session.execute("CREATE KEYSPACE IF NOT EXISTS tx_rf3 WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}");
      assertThat(rs.getExecutionInfo().getWarnings()).anySatisfy(w -> assertThat(w).contains("replication factor 3"));
    }
  }

  @Test
  void forcedV4WithLz4() {
    try (CqlSession session = session("V4", "lz4")) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V4);
      exercise(session, "t_v4_lz4");
    }
  }

  @Test
  void forcedV4WithSnappy() {
    try (CqlSession session = session("V4", "snappy")) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V4);
      exercise(session, "t_v4_snappy");
    }
  }

  @Test
  void v5WithLz4Segments() {
    try (CqlSession session = session("V5", "lz4")) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V5);
      exercise(session, "t_v5_lz4");
    }
  }

  @Test
  void forcedV3() {
    try (CqlSession session = session("V3", null)) {
      assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V3);
      exercise(session, "t_v3");
    }
  }

  @Test
  void preparedSelectStarFollowsAnAlteredTable() {
    try (CqlSession session = session(null, null)) {
      session.execute("CREATE TABLE IF NOT EXISTS tx.evolving (k int PRIMARY KEY, a text)");
      session.execute("INSERT INTO tx.evolving (k, a) VALUES (1, 'x')");
      PreparedStatement select = session.prepare("SELECT * FROM tx.evolving WHERE k = ?");
      assertThat(session.execute(select.bind(1)).getColumnDefinitions().size()).isEqualTo(2);
      session.execute("ALTER TABLE tx.evolving ADD b int");
      session.execute("UPDATE tx.evolving SET b = 5 WHERE k = 1");
      Row row = session.execute(select.bind(1)).one();
      assertThat(row.getColumnDefinitions().contains("b")).isTrue();
      assertThat(row.getInt("b")).isEqualTo(5);
    }
  }

  @Test
  void schemaChangeEventsReachTheDriversMetadata() throws Exception {
    try (CqlSession session = session(null, null)) {
      try (CqlSession other = session(null, null)) {
        other.execute("CREATE TABLE IF NOT EXISTS tx.announced (k int PRIMARY KEY)");
      }
      // No refreshSchema(): the SCHEMA_CHANGE event pushed to this session's control connection does it.
      long deadline = System.currentTimeMillis() + 10_000;
      while (session.getMetadata().getKeyspace("tx").flatMap(k -> k.getTable("announced")).isEmpty()
          && System.currentTimeMillis() < deadline) {
        Thread.sleep(50);
      }
      assertThat(session.getMetadata().getKeyspace("tx").flatMap(k -> k.getTable("announced"))).isPresent();
    }
  }

  @Test
  void pythonDriverCreatesWritesAndReadsBack(@TempDir Path scriptDir) throws Exception {
    io.cassette.cql.DriverScript.assumePythonDriver();
    Path script = scriptDir.resolve("check.py");
    Files.writeString(script, String.join("\n",
        "import sys",
        "from cassandra.cluster import Cluster",
        "from cassandra.policies import RoundRobinPolicy",
        "c = Cluster(['127.0.0.1'], port=int(sys.argv[1]), load_balancing_policy=RoundRobinPolicy())",
        "s = c.connect()",
        "s.execute(\"CREATE TABLE IF NOT EXISTS tx.py (k int PRIMARY KEY, v text)\")",
        "s.execute(\"INSERT INTO tx.py (k, v) VALUES (%s, %s)\", (1, 'simple'))",
        "p = s.prepare(\"INSERT INTO tx.py (k, v) VALUES (?, ?)\")",
        "s.execute(p, (2, 'prepared'))",
        "rows = sorted((r.k, r.v) for r in s.execute(\"SELECT k, v FROM tx.py\"))",
        "assert rows == [(1, 'simple'), (2, 'prepared')], rows",
        "print('OK', c.protocol_version)",
        "c.shutdown()", ""), StandardCharsets.UTF_8);
    var run = io.cassette.cql.DriverScript.run(60,
        List.of(io.cassette.cql.DriverScript.PYTHON, script.toString(), String.valueOf(address.getPort())));
    assertThat(run.exitCode()).as(run.output()).isZero();
    assertThat(run.output()).contains("OK 5");
  }

  /** DDL, simple and prepared statements, a batch and a read back, in table {@code tx.<table>}. */
  private static void exercise(CqlSession session, String table) {
    assertThat(session.execute("SELECT release_version FROM system.local").one().getString(0)).isEqualTo("5.0.4");
    session.execute("CREATE TABLE IF NOT EXISTS tx." + table + " (k int PRIMARY KEY, v text, n bigint)");
    session.execute(SimpleStatement.newInstance("INSERT INTO tx." + table + " (k, v, n) VALUES (?, ?, ?)",
        1, "simple", 10L));
    PreparedStatement insert = session.prepare("INSERT INTO tx." + table + " (k, v, n) VALUES (?, ?, ?)");
    session.execute(insert.bind(2, "prepared", 20L));
    session.execute(BatchStatement.newInstance(BatchType.LOGGED, insert.bind(3, "batch-a", 30L),
        insert.bind(4, "batch-b", 40L)));
    session.execute(insert.bind(5, "x".repeat(200_000), 50L)); // > one v5 segment
    PreparedStatement select = session.prepare("SELECT v, n FROM tx." + table + " WHERE k = ?");
    assertThat(session.execute(select.bind(1)).one().getString("v")).isEqualTo("simple");
    assertThat(session.execute(select.bind(2)).one().getLong("n")).isEqualTo(20L);
    assertThat(session.execute(select.bind(4)).one().getString("v")).isEqualTo("batch-b");
    assertThat(session.execute(select.bind(5)).one().getString("v")).hasSize(200_000);
    assertThat(session.execute(select.bind(99)).one()).isNull();
    assertThat(session.execute("SELECT count(*) FROM tx." + table).one().getLong(0)).isEqualTo(5L);
  }
}
