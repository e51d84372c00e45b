package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Node.js {@code cassandra-driver} against our transport. Runs when {@code node} is on the
 * PATH and the driver is installed in the directory named by {@code NODE_PATH} (for example
 * after {@code npm install cassandra-driver} in DIR: {@code NODE_PATH=DIR/node_modules}); skipped
 * otherwise.
 */
class NodeDriverTest {
  static CqlServer server;
  static InetSocketAddress address;

  @BeforeAll
  static void start() {
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), new StubQueryHandler());
    address = server.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void connectsWithDefaultsWritesAndReadsBack(@TempDir Path dir) throws Exception {
    String nodePath = System.getenv("NODE_PATH");
    assumeTrue(nodePath != null && new File(nodePath, "cassandra-driver").isDirectory(),
        "NODE_PATH does not hold cassandra-driver");
    Path script = dir.resolve("node_driver_check.js");
    try (var in = NodeDriverTest.class.getResourceAsStream("node_driver_check.js")) {
      Files.write(script, in.readAllBytes());
    }
    Process p = new ProcessBuilder("node", script.toString(), "127.0.0.1", String.valueOf(address.getPort()))
        .redirectErrorStream(true).start();
    boolean finished = p.waitFor(60, TimeUnit.SECONDS);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!finished) {
      p.destroyForcibly();
    }
    assertThat(finished).as("node driver finished: %s", output).isTrue();
    assertThat(p.exitValue()).as("node driver output: %s", output).isZero();
    assertThat(output).contains("OK");
  }
}
