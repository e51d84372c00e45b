package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.QueryTrace;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.TraceEvent;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import io.cassette.cql.Tracing;
import io.cassette.cql.language.statements.TombstoneThresholds;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cassandra 5.0 features as an application sees them through the Java driver 4.19 (and the
 * Python driver when installed), against the real language and engine: query traces, client
 * warnings and the tombstone failure, prepared statements' result metadata on v5, column
 * order, math functions. Texts are those Cassandra 5.0.4 sends (checked against the anchor).
 * Tombstone thresholds are lowered to 10 / 20, as the anchor was started for the comparison.
 */
class ParityDriverTest {
  @TempDir
  static Path dir;
  static Engine engine;
  static CqlServer server;
  static InetSocketAddress address;
  static CqlSession session;

  @BeforeAll
  static void start() throws Exception {
    engine = Engine.open(EngineOptions.defaults(dir));
    CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
        NodeInfo.singleNode("Test Cluster", InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(),
            List.of(0L)), new TombstoneThresholds(10, 20));
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
    address = server.start();
    session = session();
    session.execute("CREATE KEYSPACE IF NOT EXISTS p WITH replication = "
        + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
    session.execute("CREATE TABLE IF NOT EXISTS p.t (k int, c int, v text, PRIMARY KEY (k, c))");
  }

  @AfterAll
  static void stop() {
    Tracing.setProbability(0);
    if (session != null) {
      session.close();
    }
    if (server != null) {
      server.close();
    }
    if (engine != null) {
      engine.close();
    }
  }

  static CqlSession session() {
    return CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(15)).build())
        .build();
  }

  private static List<String> activities(QueryTrace trace) {
    List<String> out = new ArrayList<>();
    for (TraceEvent e : trace.getEvents()) {
      out.add(e.getActivity());
    }
    return out;
  }

  @Test
  void aTracedQueryHasItsTraceInSystemTracesAndTheDriverReadsIt() {
    session.execute("INSERT INTO p.t (k, c, v) VALUES (1, 1, 'a')");
    ResultSet untraced = session.execute("SELECT * FROM p.t WHERE k = 1");
    assertThat(untraced.getExecutionInfo().getTracingId()).isNull();

    ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT * FROM p.t WHERE k = 1").setTracing(true));
    ExecutionInfo info = rs.getExecutionInfo();
    UUID id = info.getTracingId();
    assertThat(id).isNotNull();
    assertThat(id.version()).isEqualTo(1);
    QueryTrace trace = info.getQueryTrace();
    assertThat(trace.getTracingId()).isEqualTo(id);
    assertThat(trace.getRequestType()).isEqualTo("Execute CQL3 query");
    assertThat(trace.getDurationMicros()).isPositive();
    assertThat(trace.getCoordinatorAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
    assertThat(trace.getParameters()).containsEntry("query", "SELECT * FROM p.t WHERE k = 1")
        .containsEntry("consistency_level", "LOCAL_ONE").containsEntry("serial_consistency_level", "SERIAL")
        .containsEntry("page_size", "5000");
    assertThat(activities(trace)).containsSubsequence("Parsing SELECT * FROM p.t WHERE k = 1",
        "Preparing statement", "Executing single-partition query on t", "Acquiring sstable references",
        "Merged data from memtables and 0 sstables", "Read 1 live rows and 0 tombstone cells");
    int previous = -1;
    for (TraceEvent e : trace.getEvents()) {
      assertThat(e.getSourceElapsedMicros()).isGreaterThanOrEqualTo(previous);
      previous = e.getSourceElapsedMicros();
      assertThat(e.getSourceAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
      assertThat(e.getThreadName()).isNotEmpty();
    }

    Row s = session.execute(SimpleStatement.newInstance(
        "SELECT command, coordinator_port, request, duration FROM system_traces.sessions WHERE session_id = ?", id)).one();
    assertThat(s.getString("command")).isEqualTo("QUERY");
    assertThat(s.getInt("coordinator_port")).isEqualTo(7000);
    assertThat(session.execute(SimpleStatement.newInstance(
        "SELECT activity FROM system_traces.events WHERE session_id = ?", id)).all())
        .hasSize(trace.getEvents().size());
  }

  @Test
  void tracedWritesPreparedStatementsAndBatchesHaveCassandrasSteps() {
    ResultSet w = session.execute(SimpleStatement.newInstance("INSERT INTO p.t (k, c, v) VALUES (2, 1, 'b')")
        .setTracing(true));
    assertThat(activities(w.getExecutionInfo().getQueryTrace())).containsSubsequence(
        "Parsing INSERT INTO p.t (k, c, v) VALUES (2, 1, 'b')", "Preparing statement",
        "Determining replicas for mutation", "Appending to commitlog", "Adding to t memtable");

    PreparedStatement ps = session.prepare("SELECT v FROM p.t WHERE k = ?");
    ResultSet r = session.execute(ps.bind(2).setTracing(true));
    QueryTrace t = r.getExecutionInfo().getQueryTrace();
    assertThat(t.getRequestType()).isEqualTo("Execute CQL3 prepared query");
    assertThat(t.getParameters()).containsEntry("query", "SELECT v FROM p.t WHERE k = ?")
        .containsEntry("bound_var_0_k", "2");
    assertThat(activities(t)).contains("Read 1 live rows and 0 tombstone cells").doesNotContain("Preparing statement");

    var batch = com.datastax.oss.driver.api.core.cql.BatchStatement.newInstance(
        com.datastax.oss.driver.api.core.cql.BatchType.LOGGED,
        SimpleStatement.newInstance("INSERT INTO p.t (k, c, v) VALUES (3, 1, 'c')")).setTracing(true);
    assertThat(session.execute(batch).getExecutionInfo().getQueryTrace().getRequestType())
        .isEqualTo("Execute batch of CQL3 queries");
  }

  @Test
  void traceProbabilityTracesRequestsNobodyAskedFor() {
    long before = session.execute("SELECT session_id FROM system_traces.sessions").all().size();
    Tracing.setProbability(1.0);
    try {
      for (int i = 0; i < 5; i++) {
        assertThat(session.execute("SELECT * FROM p.t WHERE k = 1").getExecutionInfo().getTracingId()).isNull();
      }
    } finally {
      Tracing.setProbability(0);
    }
    long after = session.execute("SELECT session_id FROM system_traces.sessions").all().size();
    assertThat(after - before).isGreaterThanOrEqualTo(5);
    assertThatThrownBy(() -> Tracing.setProbability(1.5)).hasMessage("Trace probability must be between 0 and 1");
  }

  @Test
  void tombstonesPastTheThresholdsWarnThenFailTheRead() {
    session.execute("CREATE TABLE IF NOT EXISTS p.tomb (k int, c int, v int, w int, PRIMARY KEY (k, c))");
    for (int i = 0; i < 15; i++) {
      session.execute("DELETE FROM p.tomb WHERE k = 1 AND c = " + i);
    }
    for (int i = 0; i < 12; i++) {
      session.execute("INSERT INTO p.tomb (k, c, v, w) VALUES (2, " + i + ", null, null)");
    }
    ResultSet rs = session.execute("SELECT * FROM p.tomb WHERE k = 1");
    assertThat(rs.all()).isEmpty();
    assertThat(rs.getExecutionInfo().getWarnings()).containsExactly("Read 0 live rows and 15 tombstone cells for"
        + " query SELECT * FROM p.tomb WHERE k = 1 LIMIT 5000 ALLOW FILTERING; token -4069959284402364209"
        + " (see tombstone_warn_threshold)");
    // 12 rows of two null cells: 24 cell tombstones, past 20. The reason is READ_TOO_MANY_TOMBSTONES (1).
    assertThatThrownBy(() -> session.execute("SELECT * FROM p.tomb WHERE k = 2"))
        .isInstanceOfSatisfying(ReadFailureException.class, e -> {
          assertThat(e.getReasonMap()).hasSize(1).containsValue(1);
          assertThat(e.getNumFailures()).isEqualTo(1);
          assertThat(e.getReceived()).isZero();
        });
    assertThatThrownBy(() -> session.execute("SELECT * FROM p.tomb")).isInstanceOf(ReadFailureException.class);
  }

  @Test
  void aConditionalStatementPreparesWithoutResultMetadataAndStillAnswersApplied() {
    session.execute("CREATE TABLE IF NOT EXISTS p.lwt (k int PRIMARY KEY, v int)");
    PreparedStatement ps = session.prepare("INSERT INTO p.lwt (k, v) VALUES (?, ?) IF NOT EXISTS");
    assertThat(ps.getResultSetDefinitions()).isEmpty();
    assertThat(session.execute(ps.bind(1, 1)).wasApplied()).isTrue();
    Row again = session.execute(ps.bind(1, 2)).one();
    assertThat(again.getBoolean("[applied]")).isFalse();
    assertThat(again.getInt("v")).isEqualTo(1);
    assertThat(session.prepare("UPDATE p.lwt SET v = ? WHERE k = ? IF v = ?").getResultSetDefinitions()).isEmpty();
  }

  @Test
  void aPreparedSelectSeesNewColumnsInPagesAndInOtherSessions() {
    session.execute("CREATE TABLE IF NOT EXISTS p.meta (k int, c int, v int, PRIMARY KEY (k, c))");
    for (int c = 0; c < 10; c++) {
      session.execute("INSERT INTO p.meta (k, c, v) VALUES (1, " + c + ", " + c + ")");
    }
    try (CqlSession other = session()) {
      PreparedStatement mine = session.prepare("SELECT * FROM p.meta WHERE k = ?");
      PreparedStatement theirs = other.prepare("SELECT * FROM p.meta WHERE k = ?");
      ResultSet first = session.execute(mine.bind(1).setPageSize(4));
      assertThat(first.getColumnDefinitions().size()).isEqualTo(3);
      session.execute("ALTER TABLE p.meta ADD extra text");
      session.execute("UPDATE p.meta SET extra = 'x' WHERE k = 1 AND c = 9");
      List<Row> all = new ArrayList<>();
      first.forEach(all::add); // the later pages come after the ALTER
      assertThat(all).hasSize(10);
      assertThat(all.get(9).getColumnDefinitions().contains("extra")).isTrue();
      assertThat(all.get(9).getString("extra")).isEqualTo("x");
      ResultSet again = session.execute(mine.bind(1));
      assertThat(names(again)).containsExactly("k", "c", "extra", "v");
      assertThat(names(other.execute(theirs.bind(1)))).containsExactly("k", "c", "extra", "v");
      assertThat(theirs.getResultSetDefinitions().contains("extra")).isTrue();
    }
  }

  @Test
  void aV4DriverSeesNewColumnsOfAPreparedSelectAfterAlter() {
    session.execute("CREATE TABLE IF NOT EXISTS p.meta4 (k int PRIMARY KEY, v int)");
    session.execute("INSERT INTO p.meta4 (k, v) VALUES (1, 1)");
    try (CqlSession v4 = CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withString(DefaultDriverOption.PROTOCOL_VERSION, "V4")
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(15)).build())
        .build()) {
      PreparedStatement ps = v4.prepare("SELECT * FROM p.meta4 WHERE k = ?");
      assertThat(names(v4.execute(ps.bind(1)))).containsExactly("k", "v");
      session.execute("ALTER TABLE p.meta4 ADD w text");
      session.execute("UPDATE p.meta4 SET w = 'new' WHERE k = 1");
      Row r = v4.execute(ps.bind(1)).one();
      assertThat(r.getColumnDefinitions().size()).isEqualTo(3);
      assertThat(r.getString("w")).isEqualTo("new");
      assertThat(v4.execute(ps.bind(1)).one().getString("w")).isEqualTo("new");
    }
  }

  private static List<String> names(ResultSet rs) {
    List<String> out = new ArrayList<>();
    for (ColumnDefinition d : rs.getColumnDefinitions()) {
      out.add(d.getName().asInternal());
    }
    return out;
  }

  @Test
  void selectStarListsColumnsByNameAndDescribeListsSimpleBeforeComplex() {
    session.execute("CREATE TABLE IF NOT EXISTS p.o (k int, c int, zs int static, al list<int> static,"
        + " b map<int, int>, a set<int>, z int, y frozen<list<int>>, \"B\" int, PRIMARY KEY (k, c))");
    assertThat(names(session.execute("SELECT * FROM p.o"))).containsExactly("k", "c", "al", "zs", "B", "a", "b",
        "y", "z");
    String ddl = session.execute("DESCRIBE TABLE p.o").one().getString("create_statement");
    assertThat(ddl).startsWith("CREATE TABLE p.o (\n    k int,\n    c int,\n    zs int static,\n"
        + "    al list<int> static,\n    \"B\" int,\n    y frozen<list<int>>,\n    z int,\n    a set<int>,\n"
        + "    b map<int, int>,\n    PRIMARY KEY (k, c)\n)");
  }

  @Test
  void mathFunctionsGiveCassandrasValues() {
    session.execute("CREATE TABLE IF NOT EXISTS p.n (k int PRIMARY KEY, i int, ti tinyint, f float, d double,"
        + " de decimal, vi varint)");
    session.execute("INSERT INTO p.n (k, i, ti, f, d, de, vi) VALUES (1, -7, 5, -2.5, 1e308, 0.5, 7)");
    Row r = session.execute("SELECT abs(i), exp(ti), round(f), round(d), exp(de), log10(de), exp(vi), log(i),"
        + " abs(-3), round(2.5) FROM p.n WHERE k = 1").one();
    assertThat(r.getInt(0)).isEqualTo(7);
    assertThat(r.getByte(1)).isEqualTo((byte) -108);
    assertThat(r.getFloat(2)).isEqualTo(-2.0f);
    assertThat(r.getDouble(3)).isEqualTo(9.223372036854776e18);
    assertThat(r.getBigDecimal(4)).isEqualByComparingTo("1.6487212707001281468486507878142");
    assertThat(r.getBigDecimal(5).toString()).isEqualTo("-0.30102999566398119521373889472449");
    assertThat(r.getBigInteger(6)).isEqualTo(java.math.BigInteger.valueOf(1096));
    assertThat(r.getInt(7)).isEqualTo(0); // (int) NaN
    assertThat(r.getInt(8)).isEqualTo(3);
    assertThat(r.getDouble(9)).isEqualTo(3.0);
  }

  @Test
  void theJavaDriverSpeaksV6BetaWhenAskedTo() {
    try (CqlSession v6 = CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withString(DefaultDriverOption.PROTOCOL_VERSION, "V6")
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(15)).build())
        .build()) {
      assertThat(v6.getContext().getProtocolVersion())
          .isEqualTo(com.datastax.oss.driver.api.core.DefaultProtocolVersion.V6);
      v6.execute("INSERT INTO p.t (k, c, v) VALUES (6, 6, 'six')");
      PreparedStatement ps = v6.prepare("SELECT v FROM p.t WHERE k = ?");
      assertThat(v6.execute(ps.bind(6)).one().getString("v")).isEqualTo("six");
      ResultSet traced = v6.execute(ps.bind(6).setTracing(true));
      assertThat(traced.getExecutionInfo().getQueryTrace().getRequestType()).isEqualTo("Execute CQL3 prepared query");
    }
  }

  @Test
  void thePythonDriverReadsTracesWarningsAndSpeaksV6Beta(@TempDir Path tmp) throws Exception {
    io.cassette.cql.DriverScript.assumePythonDriver();
    String output = io.cassette.cql.DriverScript.runPython(ParityDriverTest.class, "python_parity_check.py", tmp, address, 90);
    assertThat(output).contains("TRACE Execute CQL3 query").contains("EVENT Parsing SELECT * FROM p.t WHERE k = 1")
        .contains("WARN Read 0 live rows and 15 tombstone cells")
        .contains("FAIL ReadFailure").contains("message=\"Operation failed - received 0 responses and 1 failures:"
            + " READ_TOO_MANY_TOMBSTONES from /127.0.0.1:7000\"").contains("V6 6 [1]").contains("DONE");
  }
}
