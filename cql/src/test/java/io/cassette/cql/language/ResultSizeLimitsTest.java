package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cql.Consistency;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.ReplicaException;
import io.cassette.cql.Result;
import io.cassette.cql.language.statements.ResultSizeLimits;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: a SELECT holds a bounded number of bytes. A page ends early at the page budget with a
 * paging state (its pages still concatenate to the whole answer, every query shape); reads are cut
 * into pieces the budget fits and resumed after their last row; an unpaged answer past the fail
 * threshold gets Cassandra 5.0.4's READ_FAILURE (READ_SIZE) text.
 */
class ResultSizeLimitsTest {
  static final List<String> QUERIES = List.of(
      "SELECT * FROM t",
      "SELECT k, c, v FROM t WHERE k = 4",
      "SELECT k, c FROM t WHERE k = 4 ORDER BY c ASC",
      "SELECT k, c FROM t WHERE k IN (9, 4, 3, 11)",
      "SELECT k, c FROM t PER PARTITION LIMIT 12",
      "SELECT k, c FROM t LIMIT 50",
      "SELECT k, c FROM t PER PARTITION LIMIT 20 LIMIT 70",
      "SELECT DISTINCT k, s FROM t",
      "SELECT k, c, v FROM t WHERE c = 1 ALLOW FILTERING",
      "SELECT k, c, v FROM t WHERE v = 'v7_30' ALLOW FILTERING",
      "SELECT k, c FROM t WHERE token(k) > 0",
      "SELECT k, c FROM t WHERE k = 4 AND c < 30",
      "SELECT k, c FROM t WHERE k = 4 AND c IN (0, 2, 3, 25)",
      "SELECT k, c FROM t WHERE k IN (4, 9) AND c > 0 AND c <= 33",
      "SELECT k, c, s FROM t WHERE s = 9 ALLOW FILTERING",
      "SELECT k, count(*) FROM t GROUP BY k",
      "SELECT count(*) FROM t WHERE k = 7");

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
      // 0 to 40 rows: partitions smaller and larger than a first (probe) read.
      for (int c = 0; c < (k * 7) % 41; c++) {
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

  List<String> paged(String query, int pageSize, int[] pages) {
    List<String> out = new ArrayList<>();
    ByteBuffer state = null;
    do {
      QueryOptions o = new QueryOptions(Consistency.ONE, List.of(), null, false, pageSize, state,
          Consistency.SERIAL, Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
      Result.Rows r = (Result.Rows) f.cql.query(query, o, f.state);
      if (!query.contains("count")) {
        // (Aggregates are answered whole, as before: GROUP BY is not paged by rows here.)
        assertThat(r.rows().size()).isLessThanOrEqualTo(pageSize);
      }
      out.addAll(LanguageFixture.render(r));
      state = r.pagingState();
      assertThat(++pages[0]).isLessThan(2000);
    } while (state != null);
    return out;
  }

  @Test
  void pagesEndAtTheByteBudgetAndStillConcatenateToTheWholeAnswer() {
    List<List<String>> whole = new ArrayList<>();
    for (String q : QUERIES) {
      whole.add(f.rows(q));
    }
    // About five rows of ~150 estimated bytes a page, whatever the page size asked.
    f.cql.resultSizeLimits(new ResultSizeLimits(700, 1L << 30));
    for (int pageSize : new int[] {3, 100, 5000}) {
      for (int i = 0; i < QUERIES.size(); i++) {
        String q = QUERIES.get(i);
        int[] pages = {0};
        assertThat(paged(q, pageSize, pages)).as(q + " page " + pageSize).containsExactlyElementsOf(whole.get(i));
        if (pageSize == 5000 && whole.get(i).size() > 20 && !q.contains("count")) {
          assertThat(pages[0]).as(q + ": pages of at most ~6 rows").isGreaterThanOrEqualTo(whole.get(i).size() / 6);
        }
      }
    }
  }

  @Test
  void unpagedReadsCutIntoPiecesGiveTheWholeAnswer() {
    List<List<String>> whole = new ArrayList<>();
    for (String q : QUERIES) {
      whole.add(f.rows(q));
    }
    // Each storage read fetches a handful of rows; the answers stay under the threshold.
    f.cql.resultSizeLimits(new ResultSizeLimits(1, 200_000));
    for (int i = 0; i < QUERIES.size(); i++) {
      assertThat(f.rows(QUERIES.get(i))).as(QUERIES.get(i)).containsExactlyElementsOf(whole.get(i));
    }
  }

  @Test
  void anUnpagedAnswerPastTheThresholdFailsAsCassandraSays() {
    f.cql.resultSizeLimits(new ResultSizeLimits(1000, 2000));
    assertThatThrownBy(() -> f.rows("SELECT * FROM t"))
        .isInstanceOf(ReplicaException.ReadFailure.class)
        .hasMessage("Operation failed - Read on table ks.t has exceeded the size failure threshold of 2,000 bytes"
            + " with token range: (-9223372036854775808, -9223372036854775808): READ_SIZE from /127.0.0.1:7000");
    long token = io.cassette.storage.DecoratedKey.of(LanguageFixture.encode(7)).token();
    assertThatThrownBy(() -> f.rows("SELECT * FROM t WHERE k = 7"))
        .hasMessageContaining("2,000 bytes with token: " + token + ": READ_SIZE from /127.0.0.1:");
    assertThatThrownBy(() -> f.rows("SELECT * FROM t WHERE k IN (7, 8)"))
        .hasMessageContaining("with tokens: [" + token + ", ");
    ReplicaException.ReadFailure e = (ReplicaException.ReadFailure) org.assertj.core.api.Assertions.catchThrowable(
        () -> f.rows("SELECT * FROM t"));
    assertThat(e.failures).containsValue(4);
    // A paged read of the same table is answered page by page.
    int[] pages = {0};
    assertThat(paged("SELECT * FROM t", 5000, pages)).hasSize(f.cql.query("SELECT count(*) FROM t",
        QueryOptions.defaults(5), f.state) instanceof Result.Rows r ? (int) r.rows().get(0).get(0).getLong() : -1);
    // One row larger than the threshold alone still reads back, paged and unpaged.
    f.run("INSERT INTO t (k, c, v) VALUES (99, 1, '" + "x".repeat(5000) + "')");
    assertThat(f.rows("SELECT v FROM t WHERE k = 99 AND c = 1")).hasSize(1);
    assertThat(paged("SELECT v FROM t WHERE k = 99 AND c = 1", 5000, new int[] {0})).hasSize(1);
    // The node's own unpaged reads (auth, schema) stay small and unaffected.
    assertThat(f.rows("SELECT count(*) FROM system_schema.columns")).hasSize(1);
  }

  /**
   * A SELECT through a secondary index read the whole index partition of the value at once: one
   * value shared by every row of a table put all its entries in the heap, whatever the page. Now
   * it is read 1,000 entries at a time, after the last: 1,100 rows of one value (two pieces)
   * answer whole unpaged, join up page by page, and past the fail threshold fail as any SELECT.
   */
  @Test
  void anIndexPartitionIsReadInPiecesAndBounded() {
    f.run("CREATE TABLE ix (k int, c int, g int, v text, PRIMARY KEY (k, c))");
    f.run("CREATE INDEX ON ix (g)");
    for (int k = 0; k < 20; k++) {
      for (int c = 0; c < 55; c++) {
        f.run("INSERT INTO ix (k, c, g, v) VALUES (" + k + ", " + c + ", 1, 'v" + k + "_" + c + "')");
      }
    }
    f.run("INSERT INTO ix (k, c, g, v) VALUES (99, 0, 2, 'other')");
    List<String> whole = f.rows("SELECT k, c, v FROM ix WHERE g = 1");
    assertThat(whole).hasSize(1100).doesNotContain("99, 0, 'other'");
    f.cql.resultSizeLimits(new ResultSizeLimits(7000, 1L << 30));
    int[] pages = {0};
    assertThat(paged("SELECT k, c, v FROM ix WHERE g = 1", 5000, pages)).containsExactlyElementsOf(whole);
    assertThat(pages[0]).as("pages end at the byte budget").isGreaterThan(10);
    f.cql.resultSizeLimits(new ResultSizeLimits(1000, 20_000));
    assertThatThrownBy(() -> f.rows("SELECT k, c, v FROM ix WHERE g = 1"))
        .isInstanceOf(ReplicaException.ReadFailure.class).hasMessageContaining("READ_SIZE");
  }
}
