package io.cassette.tools.stress;

import java.io.PrintStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Where the run's text goes: standard output, the -log file, and the graph's capture, each
 * line to all of them. {@link #NOOP} swallows everything (the warmup's output).
 *
 * <p>Thread-safe: lines are written whole.
 */
public final class ResultLogger {
  /** Prints nothing. */
  public static final ResultLogger NOOP = new ResultLogger(List.of());

  private final List<PrintStream> streams;

  public ResultLogger(List<PrintStream> streams) {
    this.streams = new CopyOnWriteArrayList<>(streams);
  }

  public void add(PrintStream stream) {
    streams.add(stream);
  }

  public synchronized void println(String line) {
    for (PrintStream s : streams) {
      s.println(line);
    }
  }

  public synchronized void flush() {
    for (PrintStream s : streams) {
      s.flush();
    }
  }
}
