package io.cassette.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The embedded API used the way a project's test would use it. */
class CassetteTest {
  private static CqlSession connect(Cassette cassette) {
    return CqlSession.builder().addContactPoint(cassette.cqlAddress())
        .withLocalDatacenter(cassette.localDatacenter()).build();
  }

  @Test
  void startsConnectsAnswersAndCleansUp() {
    long startNanos = System.nanoTime();
    Cassette cassette = Cassette.embedded().start();
    long startMillis = (System.nanoTime() - startNanos) / 1_000_000;
    Path dir = cassette.dataDirectory();
    try (cassette; CqlSession session = connect(cassette)) {
      session.execute("CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      session.execute("CREATE TABLE app.users (id int PRIMARY KEY, name text)");
      session.execute("INSERT INTO app.users (id, name) VALUES (1, 'ann')");
      Row row = session.execute("SELECT name FROM app.users WHERE id = 1").one();
      assertThat(row.getString("name")).isEqualTo("ann");
      assertThat(cassette.cqlAddress().getAddress().getHostAddress()).isEqualTo("127.0.0.1");
      assertThat(cassette.redisAddress()).isEmpty();
    }
    System.out.println("embedded node started in " + startMillis + " ms");
    assertThat(dir).doesNotExist();
  }

  @Test
  void twoNodesInOneJvmDoNotCollide() {
    try (Cassette a = Cassette.embedded().start(); Cassette b = Cassette.embedded().start();
         CqlSession sa = connect(a); CqlSession sb = connect(b)) {
      assertThat(a.cqlAddress()).isNotEqualTo(b.cqlAddress());
      assertThat(a.dataDirectory()).isNotEqualTo(b.dataDirectory());
      for (CqlSession s : List.of(sa, sb)) {
        s.execute("CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE app.kv (k text PRIMARY KEY, v text)");
      }
      sa.execute("INSERT INTO app.kv (k, v) VALUES ('who', 'a')");
      sb.execute("INSERT INTO app.kv (k, v) VALUES ('who', 'b')");
      assertThat(sa.execute("SELECT v FROM app.kv WHERE k = 'who'").one().getString("v")).isEqualTo("a");
      assertThat(sb.execute("SELECT v FROM app.kv WHERE k = 'who'").one().getString("v")).isEqualTo("b");
    }
  }

  @Test
  void aGivenDirectoryIsKeptAndReopened() throws Exception {
    Path dir = Files.createTempDirectory("cassette-embedded-test-");
    try (Cassette first = Cassette.embedded().dataDirectory(dir).start(); CqlSession s = connect(first)) {
      s.execute("CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      s.execute("CREATE TABLE app.kv (k text PRIMARY KEY, v text)");
      s.execute("INSERT INTO app.kv (k, v) VALUES ('kept', 'yes')");
    }
    try (Cassette again = Cassette.embedded().dataDirectory(dir).start(); CqlSession s = connect(again)) {
      assertThat(s.execute("SELECT v FROM app.kv WHERE k = 'kept'").one().getString("v")).isEqualTo("yes");
    }
    assertThat(dir).isDirectory();
  }
}
