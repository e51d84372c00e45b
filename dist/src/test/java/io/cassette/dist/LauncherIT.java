package io.cassette.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Drives bin/cassette under dash exactly as a user types it. */
class LauncherIT {
  private static final Path SOURCE = Path.of(System.getProperty("cassette.source", "..")).toAbsolutePath().normalize();
  private static final Path LAUNCHER = SOURCE.resolve("bin/cassette");

  @TempDir Path dir;

  /**
   * A started launcher whose output lines are collected as they come. Closing kills it if it
   * still runs, so a failed assertion does not leave a node behind.
   */
  private static final class Run implements AutoCloseable {
    final Process process;
    final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    final List<String> all = java.util.Collections.synchronizedList(new ArrayList<>());
    final Thread reader;

    Run(Process process) {
      this.process = process;
      Thread t = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
          String line;
          while ((line = r.readLine()) != null) {
            lines.add(line);
            all.add(line);
          }
        } catch (IOException ignored) {
          // the process ended
        }
      });
      t.setDaemon(true);
      t.start();
      reader = t;
    }

    String await(String fragment, long seconds) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
      while (System.nanoTime() < deadline) {
        String line = lines.poll(100, TimeUnit.MILLISECONDS);
        if (line != null && line.contains(fragment)) {
          return line;
        }
        if (line == null && !reader.isAlive() && lines.isEmpty()) {
          break; // the process ended and all it printed has been read
        }
      }
      throw new AssertionError("no line with '" + fragment + "' in:\n" + String.join("\n", all));
    }

    String output() {
      return String.join("\n", all);
    }

    @Override
    public void close() throws InterruptedException {
      if (process.isAlive()) {
        process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
      }
    }
  }

  private Run launch(Map<String, String> env, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("dash", LAUNCHER.toString()));
    cmd.addAll(List.of(args));
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().keySet().removeIf(k -> k.startsWith("CASSETTE_"));
    // Each test's class-data archive in its own directory, not beside the shared jars.
    pb.environment().put("CASSETTE_CDS_DIR", dir.resolve("cds").toString());
    pb.environment().putAll(env);
    return new Run(pb.start());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void versionRunsUnderDash() throws Exception {
    Run run = launch(Map.of(), "version");
    assertThat(run.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(run.process.exitValue()).isZero();
    assertThat(run.await("Cassette ", 5)).matches("Cassette \\d+\\.\\d+\\.\\d+.* \\(Java 17.*");
  }

  @Test
  void unknownCommandAndBadHeapAreRefused() throws Exception {
    Run bogus = launch(Map.of(), "frobnicate");
    assertThat(bogus.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(bogus.process.exitValue()).isNotZero();
    assertThat(bogus.await("unknown command 'frobnicate'", 5)).isNotNull();

    Run heap = launch(Map.of(), "start", "--heap", "lots");
    assertThat(heap.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(heap.process.exitValue()).isNotZero();
    assertThat(heap.await("invalid --heap 'lots'", 5)).isNotNull();
  }

  @Test
  void badConfigValueStopsStartWithKeyValueFileAndLine() throws Exception {
    Path conf = dir.resolve("bad.yaml");
    Files.writeString(conf, "cluster_name: test\ncommitlog_sync_period: soon\n");
    Run run = launch(Map.of(), "start", "--config", conf.toString(), "--data-dir", dir.resolve("d").toString());
    assertThat(run.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(run.process.exitValue()).isEqualTo(1);
    assertThat(run.await("Error:", 5)).isEqualTo("Error: Invalid value for commitlog_sync_period: 'soon' in "
        + conf + " line 2 (not a duration); expected a duration such as 500ms, 10s, 5m, 1h or 1d");
  }

  @Test
  void badEnvironmentValueStopsStart() throws Exception {
    Run run = launch(Map.of("CASSETTE_RESP_PORT", "-1"), "start", "--data-dir", dir.resolve("d").toString());
    assertThat(run.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(run.process.exitValue()).isEqualTo(1);
    assertThat(run.await("Error:", 5)).contains("resp_port: '-1' in environment variable CASSETTE_RESP_PORT");
  }

  @Test
  void startsInSmallHeapOnOneCoreSaysReadyServesAndStopsCleanlyOnSigterm() throws Exception {
    int http = freePort();
    int resp = freePort();
    int cql = freePort();
    Path data = dir.resolve("data");
    try (Run run = launch(Map.of("CASSETTE_JAVA_OPTS", "-XX:ActiveProcessorCount=1"),
        "start", "--heap", "64m", "--data-dir", data.toString(), "--http-port", String.valueOf(http),
        "--cql-port", String.valueOf(cql), "--resp-port", String.valueOf(resp))) {
      startsServesAndStops(run, data, http, resp, cql);
    }
  }

  private void startsServesAndStops(Run run, Path data, int http, int resp, int cql) throws Exception {
    String sizing = run.await("Resources:", 60);
    assertThat(sizing).contains("1 core(s)").contains("threads: io 1").endsWith("gc serial");
    String ready = run.await(" ready in ", 60);
    assertThat(ready).contains("CQL 127.0.0.1:" + cql).contains("HTTP 127.0.0.1:" + http)
        .contains("RESP 127.0.0.1:" + resp);
    // A 64 MiB node on one core on a loaded machine: CREATE KEYSPACE took over the driver's 2 s.
    DriverConfigLoader slowMachine = DriverConfigLoader.programmaticBuilder()
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20)).build();
    try (CqlSession session = CqlSession.builder().withConfigLoader(slowMachine)
        .addContactPoint(new InetSocketAddress("127.0.0.1", cql)).withLocalDatacenter("datacenter1").build()) {
      assertThat(session.execute("SELECT release_version FROM system.local").one().getString(0)).isEqualTo("5.0.4");
      session.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      session.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v text)");
      session.execute("INSERT INTO ks.t (k, v) VALUES (1, 'one')");
      assertThat(session.execute("SELECT v FROM ks.t WHERE k = 1").one().getString("v")).isEqualTo("one");
    }
    assertThat(inline(resp, "SET greeting hello")).isEqualTo("+OK");
    assertThat(inline(resp, "GET greeting")).isEqualTo("$5");
    assertThat(inline(resp, "CONFIG SET appendfsync always")).isEqualTo("+OK");
    assertThat(run.await("Commit log now follows appendfsync always", 10)).isNotNull();
    assertThat(inline(resp, "SET durable yes")).isEqualTo("+OK");

    HttpResponse<String> health = HttpClient.newHttpClient().send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/health")).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).contains("UP");

    sigterm(run.process);
    assertThat(run.process.waitFor(30, TimeUnit.SECONDS)).isTrue();
    assertThat(run.process.exitValue()).isIn(0, 143);
    assertThat(run.output()).contains("Shutdown complete");
    Path log = data.resolve("logs").resolve("cassette.0.log");
    assertThat(log).exists();
    assertThat(Files.readString(log)).contains(" ready in ").contains("Shutdown complete");
  }

  /**
   * The first node records its classes and leaves an archive when it stops; the next maps it;
   * a short archive (torn copy) is passed over and a damaged one is refused by the JVM, and
   * both nodes still start: an archive can only make a start faster, never stop it.
   */
  @Test
  void aClassArchiveMadeAtStopIsMappedByTheNextStartAndABadOneNeverStopsAStart() throws Exception {
    Path cds = dir.resolve("cds");
    Path data = dir.resolve("data");
    String first = startAndStop(data);
    assertThat(first).contains("-XX:+RecordDynamicDumpInfo").doesNotContain("SharedArchiveFile")
        .contains("-XX:TieredStopAtLevel=1"); // a board's heap: C1 only
    List<Path> archives;
    try (var files = Files.list(cds)) {
      archives = files.toList();
    }
    assertThat(archives).hasSize(1);
    Path archive = archives.get(0);
    // cassette-<key>-<bytes>.jsa, and nothing the dump left behind in the working directory
    assertThat(archive.getFileName().toString()).matches("cassette-\\d+-" + Files.size(archive) + "\\.jsa");
    try (var files = Files.list(dir)) {
      assertThat(files.map(p -> p.getFileName().toString())).noneMatch(n -> n.startsWith("java_pid"));
    }

    assertThat(startAndStop(data)).contains("-XX:SharedArchiveFile=" + archive).contains("-XX:+VerifySharedSpaces");

    byte[] good = Files.readAllBytes(archive);
    // Same length, damaged inside: the JVM's checksum refuses it and the node starts without.
    byte[] bad = good.clone();
    for (int i = bad.length / 2; i < bad.length / 2 + 64; i++) {
      bad[i] ^= 0x5a;
    }
    archive.toFile().setWritable(true);
    Files.write(archive, bad);
    assertThat(startAndStop(data)).contains("-XX:SharedArchiveFile=" + archive);

    // Shorter than its name says: not mapped (the JVM would die of SIGBUS); a new one is made.
    Files.write(archive, java.util.Arrays.copyOf(good, good.length / 2));
    assertThat(startAndStop(data)).contains("-XX:+RecordDynamicDumpInfo").doesNotContain("SharedArchiveFile");
    try (var files = Files.list(cds)) {
      assertThat(files.toList()).hasSize(1).allMatch(p -> {
        try {
          return p.getFileName().toString().endsWith("-" + Files.size(p) + ".jsa");
        } catch (IOException e) {
          throw new java.io.UncheckedIOException(e);
        }
      });
    }
  }

  /** Starts a CQL-only node, waits for its ready line, stops it; returns the JVM's command line. */
  private String startAndStop(Path data) throws Exception {
    int cql = freePort();
    try (Run run = launch(Map.of("CASSETTE_JAVA_OPTS", "-XX:ActiveProcessorCount=1"), "start", "--heap", "64m",
        "--data-dir", data.toString(), "--http-port", "0", "--resp-port", "0", "--cql-port", String.valueOf(cql))) {
      run.await(" ready in ", 60);
      String cmdline = Files.readString(Path.of("/proc", String.valueOf(run.process.pid()), "cmdline")).replace('\0', ' ');
      sigterm(run.process);
      assertThat(run.process.waitFor(60, TimeUnit.SECONDS)).isTrue();
      assertThat(run.output()).contains("Shutdown complete").doesNotContain("[warning]").doesNotContain("dump to file");
      return cmdline;
    }
  }

  @Test
  void aCollectorInJavaOptsWinsOverTheBoardsOne() throws Exception {
    try (Run run = launch(Map.of("CASSETTE_JAVA_OPTS", "-XX:ActiveProcessorCount=1 -XX:+UseParallelGC"),
        "start", "--heap", "64m", "--data-dir", dir.resolve("data").toString(), "--http-port", "0",
        "--cql-port", "0", "--resp-port", "0")) {
      assertThat(run.await("Resources:", 60)).endsWith("gc parallel");
    }
  }

  /** Sends one inline Redis command (as telnet would) and returns the first reply line. */
  private static String inline(int port, String command) throws IOException {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write((command + "\r\n").getBytes(StandardCharsets.UTF_8));
      return new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8)).readLine();
    }
  }

  /** The launcher execs java, so the process we started is the JVM itself. */
  private static void sigterm(Process p) throws Exception {
    new ProcessBuilder("kill", "-TERM", String.valueOf(p.pid())).inheritIO().start().waitFor();
  }
}
