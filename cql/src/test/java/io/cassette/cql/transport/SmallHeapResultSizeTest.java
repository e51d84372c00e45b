package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: a SELECT on a 64 MiB node holds a bounded number of bytes (the node's defaults:
 * pages end at 1 MiB, an unpaged answer fails past 2 MiB, the frame limit). Before, an unpaged
 * SELECT or a page of 5,000 large rows collected every row in the heap: an unpaged read of a few MB was
 * answered whole in one frame, and a page of 1 MiB rows read them all at once.
 * The Java driver pages on through early pages; an unpaged read gets Cassandra's READ_FAILURE.
 */
class SmallHeapResultSizeTest {
  @TempDir
  Path dir;

  /**
   * Ends with a partition of twelve 1 MiB rows: the node's first read of a page asked storage for
   * eight rows, all decoded at once (8 MiB, 16 MiB of G1 regions beside a full memtable), and the
   * node ran out of heap in about one run in seven. Storage reads now stop at a byte limit.
   */
  @Test
  void aSixtyFourMegabyteNodeAnswersLargeReadsPageByPage() throws Exception {
    answersLargeReadsPageByPage(12);
  }

  private void answersLargeReadsPageByPage(int megabyteRows) throws Exception {
    try (SmallHeapProcess node = SmallHeapProcess.start(dir)) {
      try (CqlSession s = node.session()) {
        s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE ks.rows (k int, c int, v blob, PRIMARY KEY (k, c))");
        PreparedStatement insert = s.prepare("INSERT INTO ks.rows (k, c, v) VALUES (?, ?, ?)");
        long start = System.nanoTime();
        // 3.2 MB in 200 rows of 16 KB, 4 partitions.
        ByteBuffer small = ByteBuffer.wrap(new byte[16 << 10]);
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (int k = 0; k < 4; k++) {
          for (int c = 0; c < 50; c++) {
            writes.add(s.executeAsync(insert.bind(k, c, small.duplicate())).toCompletableFuture());
            if (writes.size() == 32) {
              CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
              writes.clear();
            }
          }
        }
        CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);

        System.out.println("writes: " + (System.nanoTime() - start) / 1_000_000 + " ms");
        // Unpaged (no page size in the request): Cassandra's guardrail answer.
        // (a page size of 0 in the profile: the driver then sends none)
        SimpleStatement unpaged = SimpleStatement.newInstance("SELECT * FROM ks.rows").setExecutionProfile(
            s.getContext().getConfig().getDefaultProfile().withInt(DefaultDriverOption.REQUEST_PAGE_SIZE, 0));
        // (Java driver 4 does not show the message; the reason code is READ_SIZE, 4.)
        assertThatThrownBy(() -> s.execute(unpaged))
            .isInstanceOfSatisfying(ReadFailureException.class,
                e -> assertThat(e.getReasonMap()).containsValue(4));
        long t0 = System.nanoTime();
        // Paged by 5,000 rows: the pages end at 1 MiB, the driver fetches on, every row comes once.
        ResultSet rs = s.execute(SimpleStatement.newInstance("SELECT * FROM ks.rows").setPageSize(5000));
        assertThat(rs.getAvailableWithoutFetching()).as("first page").isBetween(1, 70);
        int rows = 0;
        for (Row r : rs) {
          assertThat(r.getByteBuffer("v").remaining()).isEqualTo(16 << 10);
          rows++;
        }
        assertThat(rows).isEqualTo(200);
        assertThat(rs.getExecutionInfos().size()).as("pages").isGreaterThanOrEqualTo(3);

        System.out.println("paged read of 3.2 MB: " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        // A partition of rows of 1 MiB, read in pages of 5,000 rows.
        ByteBuffer big = ByteBuffer.wrap(new byte[1 << 20]);
        for (int c = 0; c < megabyteRows; c++) {
          s.execute(insert.bind(100, c, big.duplicate()));
        }
        ResultSet huge = s.execute(SimpleStatement.newInstance("SELECT * FROM ks.rows WHERE k = 100").setPageSize(5000));
        int hugeRows = 0;
        for (Row r : huge) {
          assertThat(r.getInt("c")).isEqualTo(hugeRows);
          hugeRows++;
        }
        assertThat(hugeRows).isEqualTo(megabyteRows);
        System.out.println("total: " + (System.nanoTime() - start) / 1_000_000 + " ms");
        assertThat(s.execute("SELECT release_version FROM system.local").one()).isNotNull();
      }
      assertThat(node.isAlive()).as("node alive").isTrue();
    }
  }
}
