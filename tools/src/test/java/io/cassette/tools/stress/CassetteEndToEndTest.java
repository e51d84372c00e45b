package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.embedded.Cassette;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * write then read against a Cassette node started by the test (in this JVM, through the
 * embedded module, as a project's own tests would): every written key is read back and
 * validated. The stress tool itself talks to it only over CQL.
 */
class CassetteEndToEndTest {
  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void everyWrittenKeyIsReadBack(@TempDir Path data) throws Exception {
    try (Cassette cassette = Cassette.embedded().dataDirectory(data).start()) {
      String node = " -node 127.0.0.1 -port native=" + cassette.cqlAddress().getPort() + " -log no-settings";
      String write = StressRunAssertions.runClean("write n=2000 no-warmup -rate threads=8" + node);
      assertThat(write).contains("Total partitions          :      2,000 [WRITE: 2,000]");
      String read = StressRunAssertions.runClean("read n=2000 no-warmup -pop seq=1..2000 -rate threads=8" + node);
      assertThat(read).contains("Total partitions          :      2,000 [READ: 2,000]");
    }
  }
}
