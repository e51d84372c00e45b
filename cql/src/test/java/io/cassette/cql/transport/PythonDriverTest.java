package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.DriverScript;
import java.net.InetSocketAddress;
import java.nio.file.Path;
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

  private static String run(Path dir, String compression) throws Exception {
    return DriverScript.runPython(PythonDriverTest.class, "python_driver_check.py", dir, address, 60,
        compression == null ? new String[0] : new String[] {compression});
  }

  @Test
  void connectsWithDefaultsAndNegotiatesV5(@TempDir Path dir) throws Exception {
    DriverScript.assumePythonDriver();
    assertThat(run(dir, null)).contains("SEGMENTS True").contains("OK 5");
  }

  @Test
  void v5WithLz4SegmentsWhenPythonLz4IsInstalled(@TempDir Path dir) throws Exception {
    DriverScript.assumePythonDriver();
    DriverScript.assumePythonModule("lz4.block", "python3-lz4");
    assertThat(run(dir, "lz4")).contains("COMPRESSION True SEGMENTS True").contains("OK 5");
  }

  @Test
  void v4WithSnappyIsNegotiatedOnlyIfPythonSnappyExists(@TempDir Path dir) throws Exception {
    DriverScript.assumePythonDriver();
    DriverScript.assumePythonModule("snappy", "python3-snappy");
    assertThat(run(dir, "snappy")).contains("OK");
  }
}
