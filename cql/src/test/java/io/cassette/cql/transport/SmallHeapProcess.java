package io.cassette.cql.transport;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A {@link SmallHeapNode} in a JVM of its own with a 64 MiB heap (exiting on OutOfMemoryError,
 * so a test sees the node die), its CQL port, and a Java driver session against it. The tests
 * that a small node survives hostile requests share it. Closing kills the process.
 */
final class SmallHeapProcess implements AutoCloseable {
  static final long HEAP = 64L << 20;

  private final Process process;
  private final int port;

  private SmallHeapProcess(Process process, int port) {
    this.process = process;
    this.port = port;
  }

  /** Starts the node on {@code dir} and waits for its port line. */
  static SmallHeapProcess start(Path dir) throws IOException {
    Process p = new ProcessBuilder(new File(System.getProperty("java.home"), "bin/java").getPath(),
        "-Xmx" + (HEAP >> 20) + "m", "-XX:+ExitOnOutOfMemoryError", "-cp", System.getProperty("java.class.path"),
        SmallHeapNode.class.getName(), dir.toString())
        .redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream()));
      int port = -1;
      for (String line; port < 0 && (line = out.readLine()) != null; ) {
        if (line.startsWith("PORT=")) {
          port = Integer.parseInt(line.substring(5));
        }
      }
      if (port < 0) {
        throw new IOException("the 64 MiB node did not start (exit " + (p.isAlive() ? "none" : p.exitValue()) + ")");
      }
      Thread drain = new Thread(() -> {
        try {
          while (out.readLine() != null) {
            // keep the pipe empty
          }
        } catch (IOException ignored) {
          // node gone
        }
      }, "small-heap-node-output");
      drain.setDaemon(true);
      drain.start();
      return new SmallHeapProcess(p, port);
    } catch (IOException | RuntimeException e) {
      p.destroyForcibly();
      throw e;
    }
  }

  /** A Java driver session with a long request timeout (large requests on a loaded machine). */
  CqlSession session() {
    DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(60))
        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(20))
        .build();
    return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", port))
        .withLocalDatacenter("datacenter1").withConfigLoader(config).build();
  }

  boolean isAlive() {
    return process.isAlive();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroyForcibly();
    process.waitFor(10, TimeUnit.SECONDS);
  }
}
