package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.ReplicaException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A write the storage engine refuses (StorageException: disk full, I/O error, here a closed
 * engine) is answered WRITE_FAILURE as Cassandra does, not SERVER_ERROR, and the storage
 * message (which names files) stays in the node's log.
 */
class StorageFailureAnswerTest {
  @TempDir
  Path dir;

  @Test
  void storageFailureIsAWriteFailureWithoutTheStorageMessage() {
    LanguageFixture f = new LanguageFixture(dir);
    f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    f.run("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
    f.engine.close();
    ReplicaException.WriteFailure e = catchThrowableOfType(
        () -> f.run("INSERT INTO ks.t (k, v) VALUES (1, 'a')"), ReplicaException.WriteFailure.class);
    assertThat(e).as("WRITE_FAILURE").isNotNull();
    assertThat(e.code()).isEqualTo(ErrorCode.WRITE_FAILURE);
    assertThat(e.writeType).isEqualTo("SIMPLE");
    assertThat(e.received).isZero();
    assertThat(e.blockFor).isEqualTo(1);
    assertThat(e.failures).hasSize(1);
    assertThat(e.getMessage()).isEqualTo("Operation failed - received 0 responses and 1 failures: UNKNOWN from /127.0.0.1")
        .doesNotContain(dir.toString()).doesNotContain("closed");
    CqlException batch = catchThrowableOfType(() -> f.run("BEGIN BATCH INSERT INTO ks.t (k, v) VALUES (2, 'b'); "
        + "APPLY BATCH"), CqlException.class);
    assertThat(batch.code()).isIn(ErrorCode.WRITE_FAILURE);
  }
}
