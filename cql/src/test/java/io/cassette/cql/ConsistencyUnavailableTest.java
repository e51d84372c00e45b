package io.cassette.cql;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Consistency levels on a one-node ring as Cassandra 5.0.4 honours them: every statement of
 * {@code anchors/cassandra-5.0.4-consistency.txt} (recorded against the real Cassandra
 * anchor) is run against our node with the Java driver at the same levels, and must give the
 * same answer: success, or the same error with the same consistency, required, alive and
 * message (Unavailable, 0x1000) or message (Invalid, 0x2200). The driver replaces the
 * server's Unavailable message by its own text, so that message is checked on the language's
 * answer to the same query.
 */
class ConsistencyUnavailableTest {
  @TempDir
  static Path dir;
  static Engine engine;
  static CqlServer server;
  static CqlSession session;
  static CqlLanguage language;

  private static final Pattern LINE = Pattern.compile(
      "([A-Z_]+)\\|([A-Z_]*)\\|(.*) => (?:RESULT kind=\\d+|ERROR 0x(\\w{4})(?: cl=(\\w+) required=(\\d+) alive=(\\d+))? '(.*)')");

  @BeforeAll
  static void start() throws Exception {
    engine = Engine.open(EngineOptions.defaults(dir));
    language = new CqlLanguage(LocalCoordinator.open(engine, null), NodeInfo.singleNode("Test Cluster",
        InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(0L)));
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
    InetSocketAddress address = server.start();
    session = CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10)).build())
        .build();
    for (String ddl : List.of(
        "CREATE KEYSPACE rf3s WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}",
        "CREATE KEYSPACE rf3n WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 3}",
        "CREATE KEYSPACE rf1 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
        "CREATE KEYSPACE n1 WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 1}",
        "CREATE KEYSPACE n2 WITH replication = {'class': 'NetworkTopologyStrategy', 'datacenter1': 2}")) {
      session.execute(ddl);
    }
    for (String ks : List.of("rf3s", "rf3n", "rf1", "n1", "n2")) {
      session.execute("CREATE TABLE " + ks + ".t (k int PRIMARY KEY, v int)");
      session.execute("CREATE TABLE " + ks + ".c (k int PRIMARY KEY, n counter)");
    }
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
    server.close();
    engine.close();
  }

  /** One recorded answer. */
  record Expected(String consistency, String serial, String statement, String code, String cl,
                  Integer required, Integer alive, String message) {
    String describe() {
      return code == null ? "success" : "0x" + code + " cl=" + cl + " required=" + required + " alive=" + alive
          + " '" + message + "'";
    }
  }

  static List<Expected> recorded() throws Exception {
    List<Expected> out = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(Objects.requireNonNull(
        ConsistencyUnavailableTest.class.getResourceAsStream("/anchors/cassandra-5.0.4-consistency.txt")),
        StandardCharsets.UTF_8))) {
      for (String line; (line = r.readLine()) != null; ) {
        if (line.isBlank() || line.startsWith("#")) {
          continue;
        }
        Matcher m = LINE.matcher(line);
        if (!m.matches()) {
          throw new IllegalStateException("unreadable anchor line: " + line);
        }
        out.add(new Expected(m.group(1), m.group(2), m.group(3), m.group(4), m.group(5),
            m.group(6) == null ? null : Integer.valueOf(m.group(6)),
            m.group(7) == null ? null : Integer.valueOf(m.group(7)),
            m.group(8) == null ? null : m.group(8).replace("\\'", "'")));
      }
    }
    return out;
  }

  @Test
  void everyRecordedAnswerOfCassandraIsOurs() throws Exception {
    List<Expected> expected = recorded();
    assertThat(expected).hasSizeGreaterThan(250);
    List<String> differences = new ArrayList<>();
    int unavailable = 0;
    for (Expected e : expected) {
      SimpleStatement s = SimpleStatement.newInstance(e.statement())
          .setConsistencyLevel(DefaultConsistencyLevel.valueOf(e.consistency()));
      if (!e.serial().isEmpty()) {
        s = s.setSerialConsistencyLevel(DefaultConsistencyLevel.valueOf(e.serial()));
      }
      String actual;
      try {
        session.execute(s);
        actual = "success";
      } catch (RuntimeException ex) {
        actual = describe(unwrap(ex));
      }
      if (e.code() != null && e.code().equals("1000")) {
        unavailable++;
        String message = serverMessage(e);
        if (!message.equals(e.message())) {
          differences.add(e.statement() + "\n   Cassandra's message: " + e.message() + "\n   ours: " + message);
        }
        actual = actual.replaceFirst("'.*'$", "'" + e.message() + "'");
      }
      if (!actual.equals(e.describe())) {
        differences.add(e.consistency() + "|" + e.serial() + "|" + e.statement() + "\n   Cassandra: " + e.describe()
            + "\n   Cassette:  " + actual);
      }
    }
    assertThat(unavailable).isGreaterThan(150);
    assertThat(differences).as(String.join("\n", differences)).isEmpty();
  }

  /** The message our language sends on the wire for the statement at its levels. */
  private static String serverMessage(Expected e) {
    QueryOptions options = new QueryOptions(Consistency.valueOf(e.consistency()), List.of(), null, false, -1, null,
        e.serial().isEmpty() ? Consistency.SERIAL : Consistency.valueOf(e.serial()), Long.MIN_VALUE, null,
        Integer.MIN_VALUE, 5);
    try {
      language.query(e.statement(), options, new ClientState(new InetSocketAddress("127.0.0.1", 1)));
      return "(success)";
    } catch (CqlException ex) {
      return ex.getMessage();
    }
  }

  private static Throwable unwrap(RuntimeException ex) {
    // The default retry policy tries the next node on Unavailable; with one node the driver
    // then reports every node's error.
    if (ex instanceof AllNodesFailedException all && !all.getAllErrors().isEmpty()) {
      return all.getAllErrors().values().iterator().next().get(0);
    }
    return ex;
  }

  private static String describe(Throwable t) {
    if (t instanceof UnavailableException u) {
      return "0x1000 cl=" + u.getConsistencyLevel().name() + " required=" + u.getRequired() + " alive="
          + u.getAlive() + " '" + u.getMessage() + "'";
    }
    if (t instanceof InvalidQueryException i) {
      return "0x2200 cl=null required=null alive=null '" + i.getMessage() + "'";
    }
    return t.toString();
  }
}
