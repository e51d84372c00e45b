package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.ErrorCode;
import io.cassette.cql.Result;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CqlLanguageBasicsTest {
  @TempDir
  Path dir;
  LanguageFixture f;

  @BeforeEach
  void open() {
    f = new LanguageFixture(dir);
    f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    f.run("USE ks");
  }

  @AfterEach
  void close() {
    f.close();
  }

  @Test
  void insertSelectRoundTrip() {
    f.run("CREATE TABLE t (k int, c text, v bigint, s int static, PRIMARY KEY (k, c))");
    f.run("INSERT INTO t (k, c, v) VALUES (1, 'a', 10)");
    f.run("INSERT INTO t (k, c, v) VALUES (1, 'b', 20)");
    f.run("INSERT INTO t (k, c, v, s) VALUES (2, 'a', 30, 7)");
    assertThat(f.rows("SELECT k, c, v FROM t WHERE k = 1")).containsExactly("1, 'a', 10", "1, 'b', 20");
    assertThat(f.rows("SELECT * FROM t WHERE k = 2")).containsExactly("2, 'a', 7, 30");
    assertThat(f.rows("SELECT v FROM t WHERE k = 1 AND c > 'a'")).containsExactly("20");
    assertThat(f.rows("SELECT v FROM t WHERE k = 1 ORDER BY c DESC")).containsExactly("20", "10");
    assertThat(f.rows("SELECT count(*) FROM t")).containsExactly("3");
  }

  @Test
  void schemaSurvivesRestart() {
    f.run("CREATE TABLE t (k int PRIMARY KEY, v text)");
    f.run("INSERT INTO t (k, v) VALUES (1, 'x')");
    f.restart();
    f.run("USE ks");
    assertThat(f.rows("SELECT * FROM t")).containsExactly("1, 'x'");
  }

  @Test
  void systemLocalHasDriverColumns() {
    Result.Rows r = (Result.Rows) f.run("SELECT * FROM system.local");
    assertThat(LanguageFixture.names(r)).contains("key", "partitioner", "release_version", "tokens", "schema_version");
    assertThat(f.rows("SELECT release_version, partitioner FROM system.local WHERE key = 'local'"))
        .containsExactly("'5.0.4', 'org.apache.cassandra.dht.Murmur3Partitioner'");
  }

  @Test
  void syntaxErrorsPointAtTheToken() {
    var e = f.error("SELECT * FRM t");
    assertThat(e.code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
    assertThat(e.getMessage()).startsWith("line 1:9 mismatched input 'FRM' expecting K_FROM");
  }
}
