package io.cassette.cluster.net;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/** Collects what the transport logs (slf4j goes to java.util.logging in tests). */
final class LogCapture extends Handler implements AutoCloseable {
  private static final Logger PACKAGE = Logger.getLogger("io.cassette.cluster");
  final List<String> lines = new CopyOnWriteArrayList<>();

  LogCapture() {
    PACKAGE.addHandler(this);
  }

  @Override
  public void publish(LogRecord r) {
    String text = r.getMessage();
    Object[] params = r.getParameters();
    if (params != null) text = java.text.MessageFormat.format(text.replace("'", "''"), params);
    lines.add(r.getLevel() + " " + r.getLoggerName() + ": " + text);
  }

  boolean has(String... parts) {
    return lines.stream().anyMatch(l -> {
      for (String p : parts) if (!l.contains(p)) return false;
      return true;
    });
  }

  @Override
  public void flush() {}

  @Override
  public void close() {
    PACKAGE.removeHandler(this);
  }
}
