package io.cassette.dist;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The .deb built by this module: its control data and file list (dpkg-deb -I/-c), then a real
 * dpkg install into a throwaway root (dpkg --root with chroot-less maintainer scripts, which
 * honour DPKG_ROOT), a node started from the installed layout answering nodetool and a CQL query
 * from the installed cqlsh, and a purge that leaves only the data. Skipped where dpkg is missing;
 * the install part needs root, as dpkg does.
 */
class DebPackageIT {
  private static final Path TARGET = Path.of(System.getProperty("cassette.source", ".."))
      .toAbsolutePath().normalize().resolve("dist/target");
  /** Seconds any one step may take; a node starts in about one. */
  private static final int STEP_SECONDS = 60;

  @TempDir Path dir;

  private static Path deb() throws IOException {
    try (Stream<Path> files = Files.list(TARGET)) {
      return files.filter(p -> p.getFileName().toString().matches("cassette_.+_all\\.deb"))
          .findFirst().orElseThrow(() -> new AssertionError("no cassette_*_all.deb in " + TARGET));
    }
  }

  /** Runs a command to completion; returns its exit status and output. */
  private static Result exec(List<String> command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    byte[] out = p.getInputStream().readAllBytes();
    assertThat(p.waitFor(STEP_SECONDS, TimeUnit.SECONDS)).as(String.join(" ", command)).isTrue();
    return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
  }

  record Result(int exit, String out) {}

  @Test
  void controlDataAndFileListDescribeTheInstalledLayout() throws Exception {
    assumeTrue(new File("/usr/bin/dpkg-deb").canExecute(), "dpkg-deb not installed");
    Path deb = deb();
    Result info = exec(List.of("dpkg-deb", "-I", deb.toString()));
    assertThat(info.exit()).isZero();
    assertThat(info.out()).contains(" Package: cassette\n", " Architecture: all\n",
        " Depends: openjdk-17-jre-headless | java17-runtime-headless\n", " Section: database\n",
        "conffiles", "postinst", "prerm", "postrm");
    Result conffiles = exec(List.of("dpkg-deb", "-f", deb.toString(), "Version"));
    assertThat(deb.getFileName().toString()).isEqualTo("cassette_" + conffiles.out().strip() + "_all.deb");

    // Both configuration files are conffiles: an upgrade keeps the operator's edits.
    assertThat(exec(List.of("dpkg-deb", "-I", deb.toString(), "conffiles")).out())
        .contains("/etc/cassette/cassette.yaml\n", "/etc/cassette/cassandra-rackdc.properties\n");
    Result list = exec(List.of("dpkg-deb", "-c", deb.toString()));
    assertThat(list.out()).containsPattern("-rwxr-xr-x root/root .* \\./opt/cassette/bin/cassette\n")
        .containsPattern("\\./opt/cassette/lib/cassette-server-.+\\.jar\n")
        .containsPattern("\\./opt/cassette/lib/cassette-tools-.+\\.jar\n")
        .contains("./etc/cassette/cassette.yaml\n", "./etc/cassette/cassandra-rackdc.properties\n",
            "./lib/systemd/system/cassette.service\n",
            "./usr/bin/cassette -> ../../opt/cassette/bin/cassette\n",
            "./opt/cassette/conf -> ../../etc/cassette\n");
  }

  @Test
  void installsIntoAThrowawayRootStartsAndPurgesAllButTheData() throws Exception {
    assumeTrue(new File("/usr/bin/dpkg").canExecute(), "dpkg not installed");
    assumeTrue("root".equals(System.getProperty("user.name")), "dpkg --root needs root");
    Path root = dir.resolve("root");
    for (String d : new String[] {"info", "updates", "triggers"}) {
      Files.createDirectories(root.resolve("var/lib/dpkg").resolve(d));
    }
    Files.createFile(root.resolve("var/lib/dpkg/status"));
    Files.createFile(root.resolve("var/lib/dpkg/available"));
    List<String> dpkg = List.of("dpkg", "--root=" + root, "--force-script-chrootless");

    Result install = exec(concat(dpkg, "--force-depends", "-i", deb().toString()));
    assertThat(install.exit()).as(install.out()).isZero();
    assertThat(install.out()).contains("Setting up cassette");
    assertThat(root.resolve("usr/bin/cassette")).isExecutable();
    assertThat(root.resolve("lib/systemd/system/cassette.service")).content()
        .contains("User=cassette", "ExecStart=/opt/cassette/bin/cassette start --data-dir /var/lib/cassette");
    assertThat(root.resolve("opt/cassette/conf/cassandra-rackdc.properties")).content().contains("# dc=datacenter1");
    assertThat(Files.readSymbolicLink(root.resolve("var/lib/cassette/logs"))).isEqualTo(Path.of("../../log/cassette"));

    String cassette = root.resolve("usr/bin/cassette").toString();
    assertThat(exec(List.of(cassette, "version")).out()).startsWith("Cassette ");
    int httpPort = freePort();
    int cqlPort = freePort();
    Process node = new ProcessBuilder(cassette, "start", "--heap", "64m",
        "--data-dir", root.resolve("var/lib/cassette").toString(),
        "--config", root.resolve("etc/cassette/cassette.yaml").toString(),
        "--http-port", Integer.toString(httpPort), "--resp-port", "0",
        "--cql-port", Integer.toString(cqlPort)).redirectErrorStream(true).start();
    try {
      String ready = awaitLine(node, "ready in");
      assertThat(ready).contains("HTTP 127.0.0.1:" + httpPort);
      Result status = exec(List.of(cassette, "nodetool", "-p", Integer.toString(httpPort), "status"));
      assertThat(status.out()).containsPattern("UN  127\\.0\\.0\\.1  ");
      assertThat(ready).contains("CQL 127.0.0.1:" + cqlPort);
      Result query = exec(List.of(cassette, "cqlsh", "127.0.0.1", Integer.toString(cqlPort), "-e",
          "SELECT cluster_name FROM system.local"));
      assertThat(query.out()).as(query.out()).contains("Test Cluster", "(1 rows)");
      assertThat(root.resolve("var/log/cassette")).isDirectoryContaining("glob:**/cassette.0.log");
    } finally {
      node.destroy(); // SIGTERM: the node flushes and exits
      assertThat(node.waitFor(STEP_SECONDS, TimeUnit.SECONDS)).isTrue();
    }

    Result purge = exec(concat(dpkg, "--purge", "cassette"));
    assertThat(purge.exit()).as(purge.out()).isZero();
    assertThat(purge.out()).contains("kept the data in /var/lib/cassette");
    assertThat(root.resolve("opt/cassette")).doesNotExist();
    assertThat(root.resolve("etc/cassette")).doesNotExist();
    assertThat(root.resolve("usr/bin/cassette")).doesNotExist();
    assertThat(root.resolve("var/log/cassette")).doesNotExist();
    assertThat(root.resolve("var/lib/cassette/commitlog")).isDirectory();
  }

  private static int freePort() throws IOException {
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static List<String> concat(List<String> head, String... tail) {
    List<String> all = new ArrayList<>(head);
    all.addAll(List.of(tail));
    return all;
  }

  /** The first line of the process's output containing {@code fragment}. */
  private static String awaitLine(Process p, String fragment) throws Exception {
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        String line;
        while ((line = r.readLine()) != null) {
          lines.add(line);
          seen.add(line);
        }
      } catch (IOException ignored) {
        // the process ended
      }
    });
    reader.setDaemon(true);
    reader.start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_SECONDS);
    while (System.nanoTime() < deadline) {
      String line = lines.poll(100, TimeUnit.MILLISECONDS);
      if (line != null && line.contains(fragment)) {
        return line;
      }
      if (line == null && !reader.isAlive()) {
        break;
      }
    }
    throw new AssertionError("no line with '" + fragment + "' in:\n" + String.join("\n", seen));
  }
}
