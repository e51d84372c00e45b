package io.cassette.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A full disk on a real file system (issue 13, defect 7): a small ext4 image, loop-mounted,
 * holds the data directory of a real node process. Writers fill it through the Redis port,
 * recording every acknowledged SET. While full the node must answer writes with a clear
 * error and keep serving reads; when space returns it must write again without a restart;
 * after it fills again it is killed with SIGKILL, space is freed, and the restarted node must
 * hold every acknowledged write. Both commit-log modes. Needs root and a loop device
 * (skipped otherwise); the image and mount are removed even when the test fails.
 */
class FullDiskTest {
  /** Small enough to fill in seconds, big enough for a node's files and a commit-log segment. */
  static final int IMAGE_MIB = 16;
  /** Files of this size are deleted to give space back. */
  static final int BALLAST_MIB = 2;
  static final int VALUE_BYTES = 1500;
  static final int WRITERS = 4;

  @TempDir Path dir;

  @Test
  void periodicModeKeepsEveryAcknowledgedWriteThroughAFullDiskAndAKill() throws Exception {
    run("periodic");
  }

  @Test
  @Tag("slow")
  void batchModeKeepsEveryAcknowledgedWriteThroughAFullDiskAndAKill() throws Exception {
    run("batch");
  }

  // ---- the node ----

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private Process startNode(Path data, int respPort, String mode, String name) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(java, "-Xmx96m", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "start", "--data-dir", data.toString(), "--cql-port", "0", "--http-port", "0",
        "--resp-port", Integer.toString(respPort), "--set", "commitlog_sync=" + mode,
        "--set", "commitlog_sync_period=50ms", "--set", "commitlog_segment_size=4MiB")
        .redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve(name + ".log").toFile())).start();
    // Generous: on a loaded 2-core machine a JVM start plus a commit-log replay takes long.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    while (System.nanoTime() < deadline) {
      assertThat(p.isAlive()).as("node alive; its output:\n" + tail(dir.resolve(name + ".log"))).isTrue();
      try (Socket s = new Socket("127.0.0.1", respPort)) {
        return p;
      } catch (IOException notYet) {
        Thread.sleep(100);
      }
    }
    p.destroyForcibly();
    throw new AssertionError("node did not open its Redis port within " + START_SECONDS + " s; its output:\n"
        + tail(dir.resolve(name + ".log")));
  }

  static final int START_SECONDS = 120;

  private static String tail(Path log) throws IOException {
    if (!Files.exists(log)) {
      return "(none)";
    }
    List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
    return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
  }

  /** One Redis connection speaking RESP by hand: requests and single-line or bulk replies. */
  static final class Redis implements AutoCloseable {
    private final Socket socket;
    private final OutputStream out;
    private final InputStream in;

    Redis(int port) throws IOException {
      socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(30_000);
      out = socket.getOutputStream();
      in = new BufferedInputStream(socket.getInputStream());
    }

    /** "+OK", "-ERR ...", the bulk string's text, or null for a nil reply. */
    String call(String... args) throws IOException {
      StringBuilder cmd = new StringBuilder("*" + args.length + "\r\n");
      for (String a : args) {
        cmd.append('$').append(a.length()).append("\r\n").append(a).append("\r\n");
      }
      out.write(cmd.toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
      String line = line();
      if (line.startsWith("$")) {
        int n = Integer.parseInt(line.substring(1));
        if (n < 0) {
          return null;
        }
        byte[] b = in.readNBytes(n + 2);
        return new String(b, 0, n, StandardCharsets.US_ASCII);
      }
      return line;
    }

    private String line() throws IOException {
      StringBuilder sb = new StringBuilder();
      int c;
      while ((c = in.read()) != '\n') {
        if (c < 0) {
          throw new IOException("connection closed");
        }
        if (c != '\r') {
          sb.append((char) c);
        }
      }
      return sb.toString();
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  static String key(int writer, int seq) {
    return "w" + writer + ":" + seq;
  }

  static String value(int writer, int seq) {
    byte[] b = new byte[VALUE_BYTES * 3 / 4];
    new Random(writer * 1_000_003L + seq).nextBytes(b);
    return Base64.getEncoder().encodeToString(b);
  }

  /** What a round of writing saw. */
  record Round(List<String> acked, List<String> errors) {}

  /**
   * Writers SET new keys until the node has refused writes for {@code refusingMillis}
   * (each writer saw errors for that long), or {@code maxMillis} passed.
   */
  private Round writeUntilRefused(int port, AtomicInteger[] seqs, long refusingMillis, long maxMillis)
      throws Exception {
    ConcurrentLinkedQueue<String> acked = new ConcurrentLinkedQueue<>();
    ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
    AtomicReference<Throwable> broken = new AtomicReference<>();
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxMillis);
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      int writer = w;
      Thread t = new Thread(() -> {
        long refusingSince = 0;
        try (Redis r = new Redis(port)) {
          while (System.nanoTime() < deadline) {
            int seq = seqs[writer].getAndIncrement();
            String reply = r.call("SET", key(writer, seq), value(writer, seq));
            if (reply.equals("+OK")) {
              acked.add(key(writer, seq));
              refusingSince = 0;
            } else {
              errors.add(reply);
              long now = System.nanoTime();
              if (refusingSince == 0) {
                refusingSince = now;
              } else if (now - refusingSince > TimeUnit.MILLISECONDS.toNanos(refusingMillis)) {
                return;
              }
              Thread.sleep(20);
            }
          }
        } catch (Throwable e) {
          broken.set(e);
        }
      });
      t.start();
      threads.add(t);
    }
    for (Thread t : threads) {
      t.join(maxMillis + 30_000);
    }
    if (broken.get() != null) {
      throw new AssertionError("a writer's connection broke", broken.get());
    }
    return new Round(new ArrayList<>(acked), new ArrayList<>(errors));
  }

  private static String run(String... command) throws Exception {
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", command) + " failed: " + out);
    }
    return out;
  }

  private static boolean canLoopMount() {
    if (!"root".equals(System.getProperty("user.name")) || !Files.exists(Path.of("/dev/loop-control"))) {
      return false;
    }
    return Files.isExecutable(Path.of("/sbin/mkfs.ext4")) || Files.isExecutable(Path.of("/usr/sbin/mkfs.ext4"));
  }

  private static void ballast(Path file) throws IOException {
    byte[] mib = new byte[1 << 20];
    new Random(1).nextBytes(mib);
    try (OutputStream o = Files.newOutputStream(file)) {
      for (int i = 0; i < BALLAST_MIB; i++) {
        o.write(mib);
      }
    }
  }

  private void run(String mode) throws Exception {
    assumeTrue(canLoopMount(), "needs root, a loop device and mkfs.ext4");
    Path image = dir.resolve("disk.img");
    Path mount = dir.resolve("mnt");
    Files.createDirectories(mount);
    run("truncate", "-s", IMAGE_MIB + "M", image.toString());
    run("mkfs.ext4", "-q", "-F", "-m", "0", image.toString());
    run("mount", "-o", "loop", image.toString(), mount.toString());
    Process node = null;
    try {
      Path data = mount.resolve("data");
      ballast(mount.resolve("ballast-1"));
      ballast(mount.resolve("ballast-2"));
      int port = freePort();
      long t0 = System.nanoTime();
      StringBuilder phases = new StringBuilder();
      node = startNode(data, port, mode, "node-1");
      phases.append(" start ").append((System.nanoTime() - t0) / 1_000_000).append(" ms;");
      AtomicInteger[] seqs = new AtomicInteger[WRITERS];
      for (int w = 0; w < WRITERS; w++) {
        seqs[w] = new AtomicInteger();
      }
      List<String> acked = new ArrayList<>();

      // 1. Fill the disk: writes are refused with a clear error, reads are served.
      Round fill = writeUntilRefused(port, seqs, 1000, 60_000);
      acked.addAll(fill.acked());
      phases.append(" fill ").append((System.nanoTime() - t0) / 1_000_000).append(" ms;");
      assertThat(fill.acked()).as("writes before the disk filled").isNotEmpty();
      assertThat(fill.errors()).as("writes refused once full").isNotEmpty();
      for (String e : fill.errors()) {
        assertThat(e).startsWith("-ERR").contains("No space left on device").doesNotContain(mount.toString());
      }
      try (Redis r = new Redis(port)) {
        String k = acked.get(0);
        int w = Integer.parseInt(k.substring(1, k.indexOf(':')));
        int seq = Integer.parseInt(k.substring(k.indexOf(':') + 1));
        assertThat(r.call("GET", k)).as("reads while full").isEqualTo(value(w, seq));
        assertThat(r.call("SET", "probe", "x")).startsWith("-ERR");
      }
      assertThat(node.isAlive()).isTrue();

      // 2. Space returns: writes resume without a restart.
      Files.delete(mount.resolve("ballast-1"));
      boolean resumed = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      try (Redis r = new Redis(port)) {
        while (!resumed && System.nanoTime() < deadline) {
          int seq = seqs[0].getAndIncrement();
          if (r.call("SET", key(0, seq), value(0, seq)).equals("+OK")) {
            acked.add(key(0, seq));
            resumed = true;
          } else {
            Thread.sleep(50);
          }
        }
      }
      assertThat(resumed).as("writes resume within 20 s of space returning").isTrue();
      phases.append(" resumed ").append((System.nanoTime() - t0) / 1_000_000).append(" ms;");

      // 3. Fill it again and kill the node while full.
      Round again = writeUntilRefused(port, seqs, 500, 60_000);
      acked.addAll(again.acked());
      assertThat(again.errors()).isNotEmpty();
      node.destroyForcibly(); // SIGKILL
      assertThat(node.waitFor(20, TimeUnit.SECONDS)).isTrue();
      phases.append(" killed ").append((System.nanoTime() - t0) / 1_000_000).append(" ms;");

      // 4. Free space, restart: every acknowledged write is there.
      Files.delete(mount.resolve("ballast-2"));
      node = startNode(data, port, mode, "node-2");
      phases.append(" restarted ").append((System.nanoTime() - t0) / 1_000_000).append(" ms;");
      List<String> lost = new ArrayList<>();
      try (Redis r = new Redis(port)) {
        for (String k : acked) {
          int w = Integer.parseInt(k.substring(1, k.indexOf(':')));
          int seq = Integer.parseInt(k.substring(k.indexOf(':') + 1));
          String v = r.call("GET", k);
          if (v == null) {
            lost.add(k);
          } else {
            assertThat(v).as("value of " + k).isEqualTo(value(w, seq));
          }
        }
        assertThat(r.call("SET", "after-restart", "x")).isEqualTo("+OK");
      }
      System.out.println("FullDiskTest " + mode + ": " + acked.size() + " acknowledged, "
          + (fill.errors().size() + again.errors().size()) + " refused, " + lost.size() + " lost;" + phases);
      assertThat(lost).as(mode + " mode: acknowledged writes lost after a full disk and SIGKILL").isEmpty();
    } finally {
      if (node != null) {
        node.destroyForcibly();
        node.waitFor(20, TimeUnit.SECONDS);
      }
      try {
        run("umount", mount.toString());
      } catch (IOException e) {
        run("umount", "-l", mount.toString()); // busy: detach now, freed when unused
      }
      Files.deleteIfExists(image);
    }
  }
}
