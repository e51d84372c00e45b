package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.Consistency;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.Result;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/** Every page size gives the same rows, in order, as one unpaged read. */
class PagingTest {
  @TempDir
  Path dir;
  LanguageFixture f;

  @BeforeEach
  void open() {
    f = new LanguageFixture(dir);
    f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    f.run("USE ks");
    f.run("CREATE TABLE t (k int, c int, v text, s int static, PRIMARY KEY (k, c)) WITH CLUSTERING ORDER BY (c DESC)");
    for (int k = 0; k < 12; k++) {
      for (int c = 0; c < k % 5; c++) {
        f.run("INSERT INTO t (k, c, v) VALUES (" + k + ", " + c + ", 'v" + k + "_" + c + "')");
      }
      if (k % 3 == 0) {
        f.run("UPDATE t SET s = " + k + " WHERE k = " + k);
      }
    }
  }

  @AfterEach
  void close() {
    f.close();
  }

  List<String> paged(String query, int pageSize) {
    List<String> out = new ArrayList<>();
    ByteBuffer state = null;
    int pages = 0;
    do {
      QueryOptions o = new QueryOptions(Consistency.ONE, List.of(), null, false, pageSize, state,
          Consistency.SERIAL, Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
      Result.Rows r = (Result.Rows) f.cql.query(query, o, f.state);
      assertThat(r.rows().size()).isLessThanOrEqualTo(pageSize);
      out.addAll(LanguageFixture.render(r));
      state = r.pagingState();
      assertThat(++pages).isLessThan(1000);
    } while (state != null);
    return out;
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 7, 100})
  void pagesConcatenateToTheWholeResult(int pageSize) {
    for (String q : List.of(
        "SELECT * FROM t",
        "SELECT k, c, v FROM t WHERE k = 4",
        "SELECT k, c FROM t WHERE k = 4 ORDER BY c ASC",
        "SELECT k, c FROM t WHERE k IN (9, 4, 3, 11)",
        "SELECT k, c FROM t PER PARTITION LIMIT 2",
        "SELECT k, c FROM t LIMIT 9",
        "SELECT k, c FROM t PER PARTITION LIMIT 1 LIMIT 5",
        "SELECT DISTINCT k, s FROM t",
        "SELECT k, c, v FROM t WHERE c = 1 ALLOW FILTERING",
        "SELECT k, c FROM t WHERE token(k) > 0",
        "SELECT k, c FROM t WHERE k = 4 AND c < 3",
        "SELECT k, c FROM t WHERE k = 4 AND c IN (0, 2, 3)",
        "SELECT k, c FROM t WHERE k = 4 AND c IN (0, 2, 3) ORDER BY c ASC",
        "SELECT k, c FROM t WHERE k IN (4, 9) AND c > 0 AND c <= 3",
        "SELECT k, c, s FROM t WHERE s = 9 ALLOW FILTERING")) {
      List<String> all = f.rows(q);
      assertThat(paged(q, pageSize)).as(q + " page " + pageSize).containsExactlyElementsOf(all);
    }
  }

  /** A table without clustering columns: each partition is one row, and no page repeats one. */
  @ParameterizedTest
  @ValueSource(ints = {1, 2, 3, 100})
  void pagesOfSingleRowPartitionsNeitherRepeatNorSkip(int pageSize) {
    f.run("CREATE TABLE p (k int PRIMARY KEY, v int)");
    for (int k = 0; k < 7; k++) {
      f.run("INSERT INTO p (k, v) VALUES (" + k + ", " + k + ")");
    }
    for (String q : List.of("SELECT * FROM p", "SELECT k FROM p LIMIT 5", "SELECT v FROM p WHERE v > 2 ALLOW FILTERING")) {
      List<String> all = f.rows(q);
      assertThat(paged(q, pageSize)).as(q + " page " + pageSize).containsExactlyElementsOf(all).doesNotHaveDuplicates();
    }
    assertThat(f.rows("SELECT * FROM p")).hasSize(7);
  }
}
