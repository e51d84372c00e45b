package io.cassette.tools.ring;

import io.cassette.tools.stress.StressMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code bin/cassette stress} (in this JVM) as a background load for ring-change tests: it
 * writes {@link #KEYS} keys at QUORUM (RF=3), then alternates 15 s read and write runs at
 * QUORUM over them (one thread, at most 40 op/s: the ring tests run on loaded 2-core machines) (-errors ignore: errors are counted, not fatal) until stopped. Every run's
 * operations, errors and rate are kept; the node list is node 1 only (the driver finds the
 * others as they come and go). Bounded: a run is 15 s, and {@link #stop} waits for the last.
 */
final class StressLoad {
  static final int KEYS = 1_000;
  private static final Pattern TOTALS = Pattern.compile(
      "Op rate +: +([0-9,]+) op/s.*?Total partitions +: +([0-9,]+).*?Total errors +: +([0-9,]+)", Pattern.DOTALL);

  private final int cqlPort;
  private final Thread thread;
  private volatile boolean stopping;
  private final List<String> summaries = new ArrayList<>();
  private volatile String failure;
  private long operations;
  private long errors;

  StressLoad(int cqlPort) {
    this.cqlPort = cqlPort;
    this.thread = new Thread(this::loop, "stress-load");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** Stops after the current run; a summary of every run. */
  String stop() throws InterruptedException {
    stopping = true;
    thread.join(60_000);
    synchronized (this) {
      return runs() + " runs, " + operations + " operations, " + errors + " errors: " + summaries;
    }
  }

  synchronized int runs() {
    return summaries.size();
  }

  /** Why a run did not finish (a non-zero exit, no summary), or null. */
  String failure() {
    return failure;
  }

  private void loop() {
    String nodes = " -node 127.0.0.1 -port native=" + cqlPort + " -log no-settings";
    try {
      record("write", stress("write n=" + KEYS + " no-warmup cl=QUORUM -schema replication(factor=3)" + nodes
          + " -rate threads=4"));
      for (int i = 0; !stopping && i < 200; i++) {
        String op = i % 2 == 0 ? "read" : "write";
        record(op, stress(op + " duration=15s no-warmup cl=QUORUM -pop dist=uniform(1.." + KEYS + ") -errors ignore"
            + nodes + " -rate threads=1 throttle=40/s"));
      }
    } catch (RuntimeException e) {
      failure = e.toString();
    }
  }

  private synchronized void record(String op, String text) {
    Matcher m = TOTALS.matcher(text);
    if (!m.find()) {
      failure = "no summary from a " + op + " run: " + text;
      return;
    }
    long ops = Long.parseLong(m.group(2).replace(",", ""));
    long errs = Long.parseLong(m.group(3).replace(",", ""));
    operations += ops;
    errors += errs;
    summaries.add(op + " " + ops + " ops " + m.group(1) + " op/s " + errs + " errors");
  }

  /** One stress run in this JVM: its standard output (and its error output when it did not exit 0). */
  static String stress(String commandLine) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = StressMain.run(commandLine.split(" "), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    if (status != 0) {
      throw new IllegalStateException("stress exited " + status + " for '" + commandLine + "': " + text + "\n" + err);
    }
    return text;
  }
}
