package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A check script for the Python driver (Debian's python3-cassandra under /usr/bin/python3: the
 * pyenv python3 on PATH lacks it), kept as a test resource beside its test class and run
 * against a node as an application would run it.
 */
final class PythonDriverScript {
  static final String PYTHON = "/usr/bin/python3";

  private PythonDriverScript() {}

  /** Skips the calling test where python3 or its Cassandra driver is not installed. */
  static void assumeInstalled() throws Exception {
    Assumptions.assumeTrue(new File(PYTHON).canExecute(), "no python3");
    Process probe = new ProcessBuilder(PYTHON, "-c", "import cassandra.cluster").redirectErrorStream(true).start();
    Assumptions.assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0,
        "python3-cassandra not installed");
  }

  /**
   * Runs resource {@code name} of {@code owner}, copied into {@code tmp}, with the node's host
   * and port as arguments; asserts it finished within {@code seconds} and exited 0, and returns
   * what it printed.
   */
  static String run(Class<?> owner, String name, Path tmp, InetSocketAddress node, int seconds) throws Exception {
    Path script = tmp.resolve(name);
    try (var in = owner.getResourceAsStream(name)) {
      Files.write(script, in.readAllBytes());
    }
    Process p = new ProcessBuilder(PYTHON, script.toString(), "127.0.0.1", String.valueOf(node.getPort()))
        .redirectErrorStream(true).start();
    boolean finished = p.waitFor(seconds, TimeUnit.SECONDS);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!finished) {
      p.destroyForcibly();
    }
    assertThat(finished).as("python driver finished: %s", output).isTrue();
    assertThat(p.exitValue()).as("python output: %s", output).isZero();
    return output;
  }
}
