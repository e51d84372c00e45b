package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, looking for the class: one request within the 2 MiB message limit of a 64 MiB node
 * whose parse takes fifty times its size (a text BATCH of fifty thousand inserts, a list literal
 * or IN list of a million elements, a BATCH message of forty thousand statements, a bound list
 * value of 200,000 elements) ended the node with OutOfMemoryError. Each now gets Invalid, and the node goes on serving.
 */
class SmallHeapAmplificationTest {
  @TempDir
  Path dir;

  private static String repeat(String s, String separator, int n) {
    StringBuilder b = new StringBuilder(n * (s.length() + separator.length()));
    for (int i = 0; i < n; i++) {
      if (i > 0) {
        b.append(separator);
      }
      b.append(s);
    }
    return b.toString();
  }

  @Test
  void oneRequestThatParsesIntoTheWholeHeapIsRefused() throws Exception {
    try (SmallHeapProcess node = SmallHeapProcess.start(dir)) {
      try (CqlSession s = node.session()) {
        s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v int, l list<int>)");
        int limit = (2 << 20) - 4096; // below the 2 MiB message limit of a 64 MiB node
        String insert = "INSERT INTO ks.t (k, v) VALUES (1, 2);";
        String[] requests = {
            "BEGIN UNLOGGED BATCH " + repeat(insert, " ", limit / (insert.length() + 1)) + " APPLY BATCH",
            "INSERT INTO ks.t (k, l) VALUES (1, [" + repeat("1", ",", limit / 2) + "])",
            "SELECT * FROM ks.t WHERE k IN (" + repeat("1", ",", limit / 2) + ")",
        };
        for (String q : requests) {
          assertThatThrownBy(() -> s.execute(q)).isInstanceOf(InvalidQueryException.class)
              .hasMessageStartingWith("Statement too large");
          assertThat(node.isAlive()).isTrue();
        }
        BatchStatementBuilder batch = new BatchStatementBuilder(DefaultBatchType.UNLOGGED);
        for (int i = 0; i < 40_000; i++) {
          batch.addStatement(SimpleStatement.newInstance("INSERT INTO ks.t (k, v) VALUES (1, 2)"));
        }
        assertThatThrownBy(() -> s.execute(batch.build())).isInstanceOf(InvalidQueryException.class)
            .hasMessageStartingWith("Batch too large");
        // the same as a bound value: each element would become a cell
        com.datastax.oss.driver.api.core.cql.PreparedStatement withList =
            s.prepare("INSERT INTO ks.t (k, l) VALUES (?, ?)");
        java.util.List<Integer> big = java.util.Collections.nCopies(200_000, 1);
        assertThatThrownBy(() -> s.execute(withList.bind(3, big))).isInstanceOf(InvalidQueryException.class)
            .hasMessageStartingWith("Collection too large");
        assertThat(node.isAlive()).isTrue();
        s.execute(withList.bind(4, java.util.Collections.nCopies(10_000, 1)));
        // what fits is served
        s.execute("BEGIN UNLOGGED BATCH " + repeat(insert, " ", 500) + " APPLY BATCH");
        s.execute("INSERT INTO ks.t (k, l) VALUES (2, [" + repeat("7", ",", 1000) + "])");
        assertThat(s.execute("SELECT l FROM ks.t WHERE k = 2").one().getList(0, Integer.class)).hasSize(1000);
        assertThat(s.execute("SELECT release_version FROM system.local").one()).isNotNull();
      }
      assertThat(node.isAlive()).as("node alive").isTrue();
    }
  }
}
