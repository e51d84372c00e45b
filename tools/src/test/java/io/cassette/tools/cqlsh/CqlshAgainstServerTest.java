package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.tools.cqlsh.CqlshMainTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * cqlsh against a real CQL server: a Cassette node started here on a temporary directory and
 * a free port, or any server given by {@code -Dcqlsh.test.host=H -Dcqlsh.test.port=P} (how it
 * was checked against Apache Cassandra 5.0.4).
 */
class CqlshAgainstServerTest {
  @TempDir Path dir;
  @TempDir static Path nodeDir;
  private static TestNode node;
  private static String host;
  private static String port;

  @BeforeAll
  static void startNode() throws Exception {
    host = System.getProperty("cqlsh.test.host", "127.0.0.1");
    port = System.getProperty("cqlsh.test.port");
    if (port != null) {
      return;
    }
    node = TestNode.start(nodeDir);
    port = Integer.toString(node.cqlPort);
  }

  @AfterAll
  static void stopNode() {
    if (node != null) {
      node.close();
    }
  }

  private static String[] target(String... args) {
    String[] full = new String[args.length + 2];
    full[0] = host;
    full[1] = port;
    System.arraycopy(args, 0, full, 2, args.length);
    return full;
  }

  private static Run cqlsh(String... args) {
    return CqlshMainTest.run(target(args));
  }

  @Test
  void describeOutputRecreatesAnIdenticalSchema() throws Exception {
    Run create = cqlsh("-e", """
        DROP KEYSPACE IF EXISTS cqlsh_desc;
        CREATE KEYSPACE cqlsh_desc WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
        CREATE TYPE cqlsh_desc.addr (street text, zip int);
        CREATE TABLE cqlsh_desc.events (day date, at timestamp, id uuid, a frozen<addr>,
          tags set<text>, PRIMARY KEY (day, at, id)) WITH CLUSTERING ORDER BY (at DESC, id ASC)
          AND comment = 'from cqlsh';
        """);
    assertThat(create.err()).isEmpty();
    Run described = cqlsh("-e", "DESCRIBE KEYSPACE cqlsh_desc");
    assertThat(described.out()).contains("CREATE KEYSPACE cqlsh_desc", "CREATE TYPE cqlsh_desc.addr",
        "CREATE TABLE cqlsh_desc.events", "CLUSTERING ORDER BY (at DESC, id ASC)");
    Path schema = dir.resolve("schema.cql");
    Files.writeString(schema, described.out());

    assertThat(cqlsh("-e", "DROP KEYSPACE cqlsh_desc").exit()).isZero();
    Run recreate = cqlsh("-f", schema.toString());
    assertThat(recreate.err()).isEmpty();
    assertThat(cqlsh("-e", "DESCRIBE KEYSPACE cqlsh_desc").out()).isEqualTo(described.out());
    cqlsh("-e", "DROP KEYSPACE cqlsh_desc");
  }

  @Test
  void copyToThenCopyFromRoundTripsEveryValue() throws Exception {
    Path csv = dir.resolve("people.csv");
    Run setup = cqlsh("-e", """
        DROP KEYSPACE IF EXISTS cqlsh_copy;
        CREATE KEYSPACE cqlsh_copy WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};
        CREATE TABLE cqlsh_copy.people (id int PRIMARY KEY, name text, score double, tags list<text>,
          born timestamp, photo blob, ok boolean);
        INSERT INTO cqlsh_copy.people (id, name, score, tags, born, photo, ok)
          VALUES (1, 'Ann "A", O''Neil', 1.5, ['x', 'y,z'], '2024-01-02 03:04:05.678+0000', 0x00ff, true);
        INSERT INTO cqlsh_copy.people (id, name) VALUES (2, 'two
        lines');
        INSERT INTO cqlsh_copy.people (id, name) VALUES (3, '');
        """);
    assertThat(setup.err()).isEmpty();
    Run before = cqlsh("-e", "SELECT * FROM cqlsh_copy.people");

    Run out = cqlsh("-e", "COPY cqlsh_copy.people TO '" + csv + "' WITH HEADER = true");
    assertThat(out.out()).contains("3 rows exported to 1 files");
    List<String> lines = Files.readAllLines(csv);
    assertThat(lines.get(0)).isEqualTo("id,born,name,ok,photo,score,tags");

    cqlsh("-e", "TRUNCATE cqlsh_copy.people");
    assertThat(cqlsh("-e", "SELECT * FROM cqlsh_copy.people").out()).contains("(0 rows)");
    Run in = cqlsh("-e", "COPY cqlsh_copy.people FROM '" + csv + "' WITH HEADER = true");
    assertThat(in.out()).contains("3 rows imported from 1 files", "(0 skipped)");
    assertThat(cqlsh("-e", "SELECT * FROM cqlsh_copy.people").out()).isEqualTo(before.out());
    cqlsh("-e", "DROP KEYSPACE cqlsh_copy");
  }

  @Test
  void tracingOnPrintsEachStatementsTrace() {
    Run r = cqlsh("-e", "TRACING ON; SELECT key FROM system.local; TRACING; TRACING OFF; SELECT key FROM system.local;");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("Now Tracing is enabled", "Tracing session: ", " activity ", " source_elapsed ",
        "Execute CQL3 query", "Parsing SELECT key FROM system.local", "Request complete",
        "Tracing is currently enabled. Use TRACING OFF to disable", "Disabled Tracing.");
    assertThat(r.out().split("Tracing session: ", -1)).hasSize(2); // the statement after TRACING OFF is not traced
  }

  @Test
  void errorsLookLikeCqlshsWithSourceAndLine() {
    Run r = cqlsh("-e", "SELECT * FROM system.local;\nSELECT * FROM system.nosuch;");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).contains("(1 rows)");
    assertThat(r.err()).startsWith("<stdin>:2:InvalidRequest: Error from server: code=2200 [Invalid query] message=\"");
  }
}
