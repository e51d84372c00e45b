package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13, defect 4: a node with a 64 MiB heap, the Java driver, values of 10 MB (ten in a row,
 * then eight at once; before the limits this killed a 128 MiB node with OutOfMemoryError) and
 * then values at the derived max_value_size, ten in a row and eight at once. Oversized ones get
 * Cassandra's Invalid answer, the rest are stored, and the node is alive and serving after.
 */
class SmallHeapLargeValuesTest {
  @TempDir
  Path dir;

  @Test
  void aSixtyFourMegabyteNodeSurvivesLargeValues() throws Exception {
    try (SmallHeapProcess node = SmallHeapProcess.start(dir)) {
      // The child derives its limits from its own heap, like this.
      CqlLimits limits = CqlLimits.forHeap(SmallHeapProcess.HEAP);
      try (CqlSession s = node.session()) {
        s.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE ks.blobs (k int PRIMARY KEY, v blob)");
        PreparedStatement insert = s.prepare("INSERT INTO ks.blobs (k, v) VALUES (?, ?)");
        ByteBuffer tenMegabytes = ByteBuffer.wrap(new byte[10 << 20]);
        for (int i = 0; i < 10; i++) {
          int k = i;
          assertThatThrownBy(() -> s.execute(insert.bind(k, tenMegabytes.duplicate())))
              .isInstanceOf(InvalidQueryException.class)
              .hasMessageStartingWith("CQL Message of size");
        }
        List<CompletableFuture<?>> concurrent = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          concurrent.add(s.executeAsync(insert.bind(100 + i, tenMegabytes.duplicate())).toCompletableFuture());
        }
        for (CompletableFuture<?> f : concurrent) {
          assertThat(f).failsWithin(Duration.ofSeconds(60));
        }
        // At the limit: the message holds the value plus ~70 bytes of request.
        byte[] atLimit = new byte[Math.min(limits.maxValueBytes(), limits.maxMessageBytes() - 200)];
        new java.util.Random(1).nextBytes(atLimit);
        for (int i = 0; i < 10; i++) {
          s.execute(insert.bind(200 + i, ByteBuffer.wrap(atLimit)));
        }
        concurrent.clear();
        for (int i = 0; i < 8; i++) {
          concurrent.add(s.executeAsync(insert.bind(300 + i, ByteBuffer.wrap(atLimit))).toCompletableFuture());
        }
        for (CompletableFuture<?> f : concurrent) {
          f.get(60, TimeUnit.SECONDS);
        }
        ByteBuffer read = s.execute("SELECT v FROM ks.blobs WHERE k = 307").one().getByteBuffer(0);
        assertThat(read.remaining()).isEqualTo(atLimit.length);
        assertThat(s.execute("SELECT release_version FROM system.local").one()).isNotNull();
      }
      assertThat(node.isAlive()).as("node alive").isTrue();
    }
  }
}
