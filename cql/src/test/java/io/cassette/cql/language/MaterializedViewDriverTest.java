package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.schema.ViewMetadata;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Materialized views as an application uses them through the Java driver 4.x: refused while
 * {@code materialized_views_enabled} is false; created over a table that already holds rows (the
 * view build) with Cassandra's warning; kept in step with prepared inserts, updates that move a
 * row to another view key and back, deletes and TTLs; read by prepared SELECTs; seen by the
 * driver's schema metadata (a view of its base table); refused as a write target; and kept
 * across a restart (the definition replayed from the metadata log, the rows from storage).
 */
class MaterializedViewDriverTest {
  @TempDir
  Path dir;

  private static CqlLanguage language(Engine engine, boolean enabled) throws Exception {
    CqlLanguage l = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
        NodeInfo.singleNode("test", InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(0L)));
    l.materializedViews(enabled);
    return l;
  }

  private static List<String> users(CqlSession s, PreparedStatement byStatus, String status) {
    List<String> out = new ArrayList<>();
    for (Row r : s.execute(byStatus.bind(status))) {
      out.add(r.getString("user") + "@" + r.getString("email"));
    }
    return out;
  }

  @Test
  void viewsThroughTheDriver() throws Exception {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage language = language(engine, false);
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
           CqlSession s = DifferentialCorpusTest.session(server.start())) {
        s.execute("CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE app.users (user text PRIMARY KEY, status text, email text)");
        PreparedStatement insert = s.prepare("INSERT INTO app.users (user, status, email) VALUES (?, ?, ?)");
        for (int i = 0; i < 50; i++) {
          s.execute(insert.bind("u" + i, i % 2 == 0 ? "active" : "idle", "u" + i + "@x"));
        }
        String create = "CREATE MATERIALIZED VIEW app.users_by_status AS SELECT * FROM app.users"
            + " WHERE status IS NOT NULL AND user IS NOT NULL PRIMARY KEY (status, user)";
        assertThatThrownBy(() -> s.execute(create)).isInstanceOf(InvalidQueryException.class)
            .hasMessage("Materialized views are disabled. Enable in cassandra.yaml to use.");
        language.materializedViews(true);
        ResultSet created = s.execute(create);
        assertThat(created.getExecutionInfo().getWarnings())
            .containsExactly("Materialized views are experimental and are not recommended for production use.");

        // built from the 50 rows already there
        PreparedStatement byStatus = s.prepare("SELECT user, email FROM app.users_by_status WHERE status = ?");
        assertThat(users(s, byStatus, "active")).hasSize(25).contains("u0@u0@x", "u48@u48@x");
        assertThat(users(s, byStatus, "idle")).hasSize(25);

        // kept in step: a row moves to another view key, back again, is deleted, expires
        PreparedStatement setStatus = s.prepare("UPDATE app.users SET status = ? WHERE user = ?");
        s.execute(setStatus.bind("banned", "u0"));
        assertThat(users(s, byStatus, "banned")).containsExactly("u0@u0@x");
        assertThat(users(s, byStatus, "active")).hasSize(24).doesNotContain("u0@u0@x");
        s.execute(setStatus.bind("active", "u0"));
        assertThat(users(s, byStatus, "banned")).isEmpty();
        // back under its old view key, with the email written before the move still there
        assertThat(users(s, byStatus, "active")).hasSize(25).contains("u0@u0@x");
        s.execute("DELETE FROM app.users WHERE user = 'u2'");
        s.execute("UPDATE app.users SET status = null WHERE user = 'u4'");
        assertThat(users(s, byStatus, "active")).hasSize(23).doesNotContain("u2@u2@x", "u4@u4@x");
        s.execute("INSERT INTO app.users (user, status, email) VALUES ('t', 'trial', 't@x') USING TTL 2");
        Row trial = s.execute("SELECT user, ttl(email) FROM app.users_by_status WHERE status = 'trial'").one();
        assertThat(trial.getString("user")).isEqualTo("t");
        assertThat(trial.getInt(1)).isBetween(1, 2);

        // the driver's schema metadata sees the view of its base table
        ViewMetadata view = s.getMetadata().getKeyspace("app").orElseThrow()
            .getView("users_by_status").orElseThrow();
        assertThat(view.getBaseTable()).isEqualTo(CqlIdentifier.fromCql("users"));
        assertThat(view.includesAllColumns()).isTrue();
        assertThat(view.getWhereClause()).contains("status IS NOT NULL AND user IS NOT NULL");
        assertThat(view.getPartitionKey()).extracting(c -> c.getName().asInternal()).containsExactly("status");
        assertThat(s.getMetadata().getKeyspace("app").orElseThrow().getTable("users_by_status")).isEmpty();
        assertThat(s.getMetadata().getKeyspace("app").orElseThrow().getTable("users").orElseThrow()
            .describe(false)).doesNotContain("MATERIALIZED");

        assertThatThrownBy(() -> s.execute("INSERT INTO app.users_by_status (status, user) VALUES ('x', 'y')"))
            .isInstanceOf(InvalidQueryException.class).hasMessage("Cannot directly modify a materialized view");
        Thread.sleep(2100);
        assertThat(users(s, byStatus, "trial")).isEmpty();
      }
    }
    // a restart keeps the definition (metadata log) and the rows, and the view stays in step
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage language = language(engine, false);
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
           CqlSession s = DifferentialCorpusTest.session(server.start())) {
        PreparedStatement byStatus = s.prepare("SELECT user, email FROM app.users_by_status WHERE status = ?");
        assertThat(users(s, byStatus, "active")).hasSize(23);
        s.execute("UPDATE app.users SET status = 'gone' WHERE user = 'u6'");
        assertThat(users(s, byStatus, "gone")).containsExactly("u6@u6@x");
        assertThat(users(s, byStatus, "active")).hasSize(22);
      }
    }
  }

  /**
   * What a tool reads to know a view is built (Cassandra 5.0.4 fills these once its background
   * build ends: checked against the anchor): system.built_views, one SUCCESS per host in
   * system_distributed.view_build_status, nothing left in system.view_builds_in_progress.
   */
  @Test
  void aCreatedViewIsListedAsBuilt() throws Exception {
    UUID host = UUID.randomUUID();
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
          NodeInfo.singleNode("test", InetAddress.getByName("127.0.0.1"), 9042, host, List.of(0L)));
      language.materializedViews(true);
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
           CqlSession s = DifferentialCorpusTest.session(server.start())) {
        s.execute("CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE app.t (k int PRIMARY KEY, v int)");
        assertThat(s.execute("SELECT * FROM system.built_views").all()).isEmpty();
        s.execute("CREATE MATERIALIZED VIEW app.by_v AS SELECT k, v FROM app.t"
            + " WHERE v IS NOT NULL AND k IS NOT NULL PRIMARY KEY (v, k)");

        Row built = s.execute("SELECT * FROM system.built_views WHERE keyspace_name = 'app' AND view_name = 'by_v'").one();
        assertThat(built).isNotNull();
        assertThat(built.getBoolean("status_replicated")).isTrue();
        List<Row> status = s.execute("SELECT host_id, status FROM system_distributed.view_build_status"
            + " WHERE keyspace_name = 'app' AND view_name = 'by_v'").all();
        assertThat(status).extracting(r -> r.getUuid("host_id") + " " + r.getString("status"))
            .containsExactly(host + " SUCCESS");
        assertThat(s.execute("SELECT * FROM system.view_builds_in_progress").all()).isEmpty();

        s.execute("DROP MATERIALIZED VIEW app.by_v");
        assertThat(s.execute("SELECT * FROM system.built_views").all()).isEmpty();
        assertThat(s.execute("SELECT * FROM system_distributed.view_build_status").all()).isEmpty();
      }
    }
  }

  /** The same as an application using the Python driver sees it (skipped where it is not installed). */
  @Test
  void thePythonDriverUsesAView(@TempDir Path tmp) throws Exception {
    io.cassette.cql.DriverScript.assumePythonDriver();
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language(engine, true))) {
        String output = io.cassette.cql.DriverScript.runPython(MaterializedViewDriverTest.class, "python_view_check.py", tmp,
            server.start(), 120);
        assertThat(output)
            .contains("WARNINGS ['Materialized views are experimental and are not recommended for production use.']")
            .contains("BUILT 15 active").contains("IN STEP banned=['u0'] active=13")
            .contains("METADATA view of users, partition key ['status']")
            .contains("REFUSED").contains("Cannot directly modify a materialized view").contains("DONE");
      }
    }
  }
}
