package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.servererrors.FunctionFailureException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.cassette.cql.language.functions.UserFunctions;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Java user-defined functions and aggregates as an application uses them through the Java
 * driver 4.x: refused while {@code user_defined_functions_enabled} is false, then created, seen
 * in the driver's schema metadata, called from prepared SELECTs (scalar and aggregate), kept
 * across a restart (replayed from the metadata log and compiled again), sandboxed (System and
 * threads do not compile) and bounded in time (a runaway loop fails with FUNCTION_FAILURE).
 */
class UserFunctionsDriverTest {
  @TempDir
  Path dir;

  private static CqlLanguage language(Engine engine, boolean enabled, long timeoutMillis) throws Exception {
    CqlLanguage l = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
        NodeInfo.singleNode("test", InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(0L)));
    l.userDefinedFunctions(new UserFunctions.Settings(enabled, timeoutMillis));
    return l;
  }

  @Test
  void functionsAndAggregatesThroughTheDriver() throws Exception {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage off = language(engine, false, 300);
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), off);
           CqlSession s = DifferentialCorpusTest.session(server.start())) {
        s.execute("CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE app.readings (sensor text, at int, celsius double, PRIMARY KEY (sensor, at))");
        PreparedStatement insert = s.prepare("INSERT INTO app.readings (sensor, at, celsius) VALUES (?, ?, ?)");
        for (int i = 0; i < 10; i++) {
          s.execute(insert.bind("s1", i, 20.0 + i));
        }
        assertThatThrownBy(() -> s.execute("CREATE FUNCTION app.f(x int) RETURNS NULL ON NULL INPUT RETURNS int"
            + " LANGUAGE java AS 'return x;'"))
            .isInstanceOf(InvalidQueryException.class)
            .hasMessage("User-defined functions are disabled in cassandra.yaml - set user_defined_functions_enabled=true"
                + " to enable");
        off.userDefinedFunctions(new UserFunctions.Settings(true, 300));
        assertThatThrownBy(() -> s.execute("CREATE FUNCTION app.acc(state tuple<int, double>, c double) CALLED ON"
            + " NULL INPUT RETURNS tuple<int, double> LANGUAGE java AS 'return state;'"))
            .isInstanceOf(InvalidQueryException.class).hasMessageContaining("do not take or return type").hasMessageContaining("tuple<int, double>");
        s.execute("CREATE FUNCTION IF NOT EXISTS app.fahrenheit(c double) RETURNS NULL ON NULL INPUT RETURNS double"
            + " LANGUAGE java AS 'return c * 9 / 5 + 32;'");
        s.execute("CREATE FUNCTION app.acc(state list<double>, c double) CALLED ON NULL INPUT RETURNS list<double>"
            + " LANGUAGE java AS 'if (c != null) { state.set(0, state.get(0) + 1); state.set(1, state.get(1) + c); }"
            + " return state;'");
        s.execute("CREATE FUNCTION app.mean(state list<double>) RETURNS NULL ON NULL INPUT RETURNS double"
            + " LANGUAGE java AS 'return state.get(0) == 0 ? null : state.get(1) / state.get(0);'");
        s.execute("CREATE AGGREGATE app.average(double) SFUNC acc STYPE list<double> FINALFUNC mean INITCOND [0, 0]");

        PreparedStatement f = s.prepare("SELECT at, app.fahrenheit(celsius) FROM app.readings WHERE sensor = ? AND at < ?");
        List<Row> rows = s.execute(f.bind("s1", 3)).all();
        assertThat(rows).hasSize(3);
        assertThat(rows.get(2).getDouble(1)).isEqualTo(22.0 * 9 / 5 + 32);
        Row avg = s.execute(s.prepare("SELECT average(celsius) AS a FROM app.readings WHERE sensor = ?").bind("s1")).one();
        assertThat(avg.getDouble("a")).isEqualTo(24.5);

        // the driver's schema metadata reads system_schema.functions/aggregates (refreshed on the events)
        KeyspaceMetadata ks = awaitFunctions(s);
        assertThat(ks.getFunction("fahrenheit", DataTypes.DOUBLE)).isPresent();
        assertThat(ks.getAggregate("average", DataTypes.DOUBLE).orElseThrow().getStateFuncSignature().getName()
            .asInternal()).isEqualTo("acc");

        // sandbox: System, threads and reflection do not compile
        for (String body : List.of("System.exit(0); return x;", "new Thread().start(); return x;",
            "return (Integer) x.getClass().getMethod(\"intValue\").invoke(x);")) {
          assertThatThrownBy(() -> s.execute("CREATE FUNCTION app.evil(x int) CALLED ON NULL INPUT RETURNS int"
              + " LANGUAGE java AS '" + body.replace("'", "''") + "'"))
              .isInstanceOf(InvalidQueryException.class).hasMessageStartingWith("Java source compilation failed:");
        }
        // a runaway call fails after user_defined_functions_fail_timeout (300 ms here) and the node answers on
        s.execute("CREATE FUNCTION app.spin(c double) RETURNS NULL ON NULL INPUT RETURNS double"
            + " LANGUAGE java AS 'double x = c; while (x > -1) { x = x + 1; if (x > 1e15) x = 0; } return x;'");
        long start = System.nanoTime();
        assertThatThrownBy(() -> s.execute("SELECT app.spin(celsius) FROM app.readings WHERE sensor = 's1' AND at = 1"))
            .isInstanceOf(FunctionFailureException.class)
            .hasMessageContaining("User defined function app.spin : (double) -> double ran longer than 300ms");
        assertThat((System.nanoTime() - start) / 1_000_000).isLessThan(15_000);
        s.execute("DROP FUNCTION app.spin");
      }
    }
    // after a restart the functions come back from the metadata log and are compiled on first use
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage on = language(engine, true, 1500);
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), on);
           CqlSession s = DifferentialCorpusTest.session(server.start())) {
        Row r = s.execute("SELECT app.fahrenheit(celsius), app.average(celsius) FROM app.readings WHERE sensor = 's1'").one();
        assertThat(r.getDouble(0)).isEqualTo(68.0);
        assertThat(r.getDouble(1)).isEqualTo(24.5);
        assertThat(s.execute("SELECT function_name FROM system_schema.functions WHERE keyspace_name = 'app'").all())
            .extracting(x -> x.getString(0)).containsExactly("acc", "fahrenheit", "mean");
      }
    }
  }

  /** The keyspace's metadata once the driver has seen the functions (bounded wait: schema refreshes are debounced). */
  private static KeyspaceMetadata awaitFunctions(CqlSession s) throws InterruptedException {
    long deadline = System.nanoTime() + 20_000_000_000L;
    while (true) {
      KeyspaceMetadata ks = s.getMetadata().getKeyspace("app").orElseThrow();
      if (ks.getAggregate("average", DataTypes.DOUBLE).isPresent() || System.nanoTime() > deadline) {
        return ks;
      }
      Thread.sleep(100);
      s.refreshSchema();
    }
  }
}
