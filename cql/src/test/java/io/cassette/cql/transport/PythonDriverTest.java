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
 * The DataStax Python driver (Debian's python3-cassandra) against our transport: it proposes
 * its highest version first (DSE v2, 66), so this also checks that the downgrade to v5 works.
 * Skipped when the driver is not installed ({@code apt-get install python3-cassandra}).
 */
class PythonDriverTest {
  private static final String PYTHON = "/usr/bin/python3";
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

  static boolean driverInstalled() throws Exception {
    if (!new File(PYTHON).canExecute()) {
      return false;
    }
    Process p = new ProcessBuilder(PYTHON, "-c", "import cassandra.cluster").redirectErrorStream(true).start();
    return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
  }

  private static String run(Path dir, String compression) throws Exception {
    Path script = dir.resolve("python_driver_check.py");
    try (var in = PythonDriverTest.class.getResourceAsStream("python_driver_check.py")) {
      Files.write(script, in.readAllBytes());
    }
    ProcessBuilder pb = compression == null
        ? new ProcessBuilder(PYTHON, script.toString(), "127.0.0.1", String.valueOf(address.getPort()))
        : new ProcessBuilder(PYTHON, script.toString(), "127.0.0.1", String.valueOf(address.getPort()), compression);
    Process p = pb.redirectErrorStream(true).start();
    boolean finished = p.waitFor(60, TimeUnit.SECONDS);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!finished) {
      p.destroyForcibly();
    }
    assertThat(finished).as("python driver finished: %s", output).isTrue();
    assertThat(p.exitValue()).as("python driver output: %s", output).isZero();
    return output;
  }

  @Test
  void connectsWithDefaultsAndNegotiatesV5(@TempDir Path dir) throws Exception {
    assumeTrue(driverInstalled(), "python3-cassandra not installed");
    assertThat(run(dir, null)).contains("SEGMENTS True").contains("OK 5");
  }

  @Test
  void v5WithLz4SegmentsWhenPythonLz4IsInstalled(@TempDir Path dir) throws Exception {
    assumeTrue(driverInstalled(), "python3-cassandra not installed");
    Process probe = new ProcessBuilder(PYTHON, "-c", "import lz4.block").redirectErrorStream(true).start();
    assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0, "python3-lz4 not installed");
    assertThat(run(dir, "lz4")).contains("COMPRESSION True SEGMENTS True").contains("OK 5");
  }

  @Test
  void v4WithSnappyIsNegotiatedOnlyIfPythonSnappyExists(@TempDir Path dir) throws Exception {
    assumeTrue(driverInstalled(), "python3-cassandra not installed");
    Process probe = new ProcessBuilder(PYTHON, "-c", "import snappy").redirectErrorStream(true).start();
    assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0, "python3-snappy not installed");
    assertThat(run(dir, "snappy")).contains("OK");
  }
}
