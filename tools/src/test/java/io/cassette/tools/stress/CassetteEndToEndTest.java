package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * write then read against a Cassette node started from the built distribution
 * ({@code ../bin/cassette start}): every written key is read back and validated. Skipped when
 * the distribution is not built or the node does not serve CQL yet (tools may not depend on
 * the server module, so the node runs as a process).
 */
class CassetteEndToEndTest {
  private static final Path HOME = Path.of("..").toAbsolutePath().normalize();
  private static final Pattern READY_CQL = Pattern.compile(".* ready in .*CQL 127\\.0\\.0\\.1:(\\d+).*");
  /** How long the node may take to print its ready line. */
  private static final long START_TIMEOUT_SECONDS = 60;

  private Process node;

  @AfterEach
  void stopNode() throws InterruptedException {
    if (node != null) {
      node.destroy();
      if (!node.waitFor(20, TimeUnit.SECONDS)) {
        node.destroyForcibly();
      }
    }
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void everyWrittenKeyIsReadBack(@TempDir Path data) throws Exception {
    assumeTrue(Files.isDirectory(HOME.resolve("dist/target/cassette/lib")), "distribution not built");
    assumeTrue(Files.isRegularFile(HOME.resolve("bin/cassette")), "no bin/cassette");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    node = new ProcessBuilder("sh", HOME.resolve("bin/cassette").toString(), "start", "--data-dir",
        data.toString(), "--cql-port", Integer.toString(port), "--resp-port", "0", "--http-port", "0")
        .redirectErrorStream(true).start();
    int cqlPort = awaitCqlPort(node);
    assumeTrue(cqlPort > 0, "the node did not report serving CQL");

    String node = " -node 127.0.0.1 -port native=" + cqlPort + " -log no-settings";
    String write = StressRunAssertions.runClean("write n=2000 no-warmup -rate threads=8" + node);
    assertThat(write).contains("Total partitions          :      2,000 [WRITE: 2,000]");
    String read = StressRunAssertions.runClean("read n=2000 no-warmup -pop seq=1..2000 -rate threads=8" + node);
    assertThat(read).contains("Total partitions          :      2,000 [READ: 2,000]");
  }

  /** Reads the node's output until its ready line; the CQL port, or -1 if none came. */
  private static int awaitCqlPort(Process p) throws Exception {
    BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_TIMEOUT_SECONDS);
    String line;
    while (System.nanoTime() < deadline && (line = in.readLine()) != null) {
      if (line.contains(" ready in ")) {
        Matcher m = READY_CQL.matcher(line);
        Thread drain = new Thread(() -> {
          try {
            while (in.readLine() != null) {
              // keep the pipe empty so the node never blocks on its output
            }
          } catch (java.io.IOException ignored) {
            // node gone
          }
        });
        drain.setDaemon(true);
        drain.start();
        return m.matches() ? Integer.parseInt(m.group(1)) : -1;
      }
    }
    return -1;
  }
}
