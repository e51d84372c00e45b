package io.cassette.cql;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * A driver check script (Python or Node.js) run against a node as an application would run it:
 * the real drivers, in their own process. Python is Debian's /usr/bin/python3 with
 * python3-cassandra (the pyenv python3 on PATH lacks it). The driver tests of every package call
 * this instead of starting, waiting for and reading the process each their own way.
 */
public final class DriverScript {
  public static final String PYTHON = "/usr/bin/python3";

  private DriverScript() {}

  /** What a script printed (stdout and stderr together) and its exit code. */
  public record Run(String output, int exitCode) {}

  /** Skips the calling test where python3 or its Cassandra driver is not installed. */
  public static void assumePythonDriver() throws Exception {
    assumePythonModule("cassandra.cluster", "python3-cassandra");
  }

  /** Skips the calling test where python3 cannot import {@code module} (Debian package {@code pkg}). */
  public static void assumePythonModule(String module, String pkg) throws Exception {
    Assumptions.assumeTrue(new File(PYTHON).canExecute(), "no " + PYTHON);
    Process probe = new ProcessBuilder(PYTHON, "-c", "import " + module).redirectErrorStream(true).start();
    Assumptions.assumeTrue(probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0, pkg + " not installed");
  }

  /** Copies resource {@code name} of {@code owner} into {@code dir}; returns the copy. */
  public static Path copy(Class<?> owner, String name, Path dir) throws Exception {
    Path script = dir.resolve(name);
    try (var in = owner.getResourceAsStream(name)) {
      Files.write(script, in.readAllBytes());
    }
    return script;
  }

  /** Runs {@code command}; asserts it finished within {@code seconds} (else kills it). */
  public static Run run(int seconds, List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    boolean finished = p.waitFor(seconds, TimeUnit.SECONDS);
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!finished) {
      p.destroyForcibly();
    }
    assertThat(finished).as("%s finished: %s", command.get(0), output).isTrue();
    return new Run(output, p.exitValue());
  }

  /**
   * Runs Python resource {@code name} of {@code owner}, copied into {@code dir}, with the node's
   * host and port and then {@code extra} as arguments; asserts it finished within {@code seconds}
   * and exited 0, and returns what it printed.
   */
  public static String runPython(Class<?> owner, String name, Path dir, InetSocketAddress node, int seconds,
                                 String... extra) throws Exception {
    List<String> command = new ArrayList<>(List.of(PYTHON, copy(owner, name, dir).toString(), "127.0.0.1",
        String.valueOf(node.getPort())));
    command.addAll(List.of(extra));
    Run r = run(seconds, command);
    assertThat(r.exitCode()).as("python driver output: %s", r.output()).isZero();
    return r.output();
  }
}
