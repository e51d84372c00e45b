package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * system_views.caches as nodetool-like tools read it through the Java driver: the "keys" row
 * shows the key cache filling and hitting as point reads of flushed partitions repeat, as
 * Cassandra 5.0's does; the counter and row caches, which Cassette does not keep, stay zero.
 */
class SystemViewsCachesTest {
  static final int PARTITIONS = 64;

  @TempDir
  Path dir;

  @Test
  void theKeyCacheRowCountsPointReadsOfFlushedPartitions() throws Exception {
    try (LocalCqlNode node = new LocalCqlNode(dir);
         CqlSession s = DifferentialCorpusTest.session(node.address)) {
        s.execute("CREATE KEYSPACE kc WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE kc.t (k int PRIMARY KEY, v text)");
        PreparedStatement insert = s.prepare("INSERT INTO kc.t (k, v) VALUES (?, ?)");
        for (int k = 0; k < PARTITIONS; k++) {
          s.execute(insert.bind(k, "value " + k));
        }
        node.engine.flush(); // the key cache remembers positions in SSTables, not in memtables

        Row before = keys(s);
        PreparedStatement read = s.prepare("SELECT v FROM kc.t WHERE k = ?");
        for (int round = 0; round < 2; round++) {
          for (int k = 0; k < PARTITIONS; k++) {
            assertThat(s.execute(read.bind(k)).one().getString("v")).isEqualTo("value " + k);
          }
        }
        Row after = keys(s);

        // The cache is the JVM's: other engines in this test JVM may add to it, never take away.
        long hits = after.getLong("hit_count") - before.getLong("hit_count");
        long requests = after.getLong("request_count") - before.getLong("request_count");
        assertThat(requests).as("every point read of the SSTable asks the key cache").isGreaterThanOrEqualTo(2 * PARTITIONS);
        assertThat(hits).as("the second round finds every partition").isGreaterThanOrEqualTo(PARTITIONS);
        assertThat(after.getInt("entry_count")).isGreaterThanOrEqualTo(PARTITIONS);
        assertThat(after.getLong("size_bytes")).isEqualTo(32L * after.getInt("entry_count"));
        assertThat(after.getLong("capacity_bytes")).isGreaterThanOrEqualTo(after.getLong("size_bytes")).isPositive();
        assertThat(after.getDouble("hit_ratio"))
            .isEqualTo((double) after.getLong("hit_count") / after.getLong("request_count"));

        for (Row r : s.execute("SELECT * FROM system_views.caches WHERE name IN ('counters', 'rows')")) {
          assertThat(r.getLong("request_count")).as(r.getString("name")).isZero();
          assertThat(r.getDouble("hit_ratio")).as(r.getString("name")).isNaN();
        }
    }
  }

  private static Row keys(CqlSession s) {
    return s.execute("SELECT * FROM system_views.caches WHERE name = 'keys'").one();
  }
}
