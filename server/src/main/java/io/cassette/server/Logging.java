package io.cassette.server;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.logging.FileHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import java.util.logging.StreamHandler;

/**
 * Logging through java.util.logging (SLF4J binds to it): one line per event to stdout and to
 * rotated files {@code <data>/logs/cassette.N.log}. No extra dependency and nothing native:
 * the JDK's FileHandler rotates by size.
 */
final class Logging {
  /** Size of one log file before rotation. */
  static final int FILE_LIMIT_BYTES = 10 << 20;
  /** Rotated files kept: at most 50 MiB of logs on a small card. */
  static final int FILE_COUNT = 5;

  private Logging() {}

  /** Logs to stdout only, before the data directory is known. */
  static void toConsole() {
    Logger root = reset();
    root.addHandler(console());
  }

  /** Logs to stdout and to rotated files under {@code logDirectory}. */
  static void toConsoleAndFiles(Path logDirectory) throws IOException {
    Files.createDirectories(logDirectory);
    Logger root = reset();
    root.addHandler(console());
    FileHandler file = new FileHandler(logDirectory.resolve("cassette.%g.log").toString(),
        FILE_LIMIT_BYTES, FILE_COUNT, true);
    file.setFormatter(new OneLine());
    file.setEncoding("UTF-8");
    root.addHandler(file);
  }

  private static final java.util.List<Logger> QUIETED = new java.util.concurrent.CopyOnWriteArrayList<>();

  private static Logger reset() {
    LogManager.getLogManager().reset();
    Logger root = Logger.getLogger("");
    root.setLevel(Level.INFO);
    Logger.getLogger("io.netty").setLevel(Level.WARNING);
    // Ratis logs every Netty channel event of the metadata service at INFO. Held strongly:
    // java.util.logging keeps loggers weakly, and a collected one forgets its level.
    QUIETED.clear();
    QUIETED.add(Logger.getLogger("io.netty"));
    QUIETED.add(Logger.getLogger("org.apache.ratis"));
    QUIETED.get(1).setLevel(Level.WARNING);
    // While a metadata member is not up yet (nodes start in any order) Ratis' client logs each
    // refused connection as an error with a stack; the join loop says what it waits for instead.
    QUIETED.add(Logger.getLogger("org.apache.ratis.util.LifeCycle"));
    QUIETED.add(Logger.getLogger("org.apache.ratis.client.impl.OrderedAsync"));
    QUIETED.get(2).setLevel(Level.OFF);
    QUIETED.get(3).setLevel(Level.OFF);
    return root;
  }

  private static Handler console() {
    Handler console = new Stdout();
    console.setLevel(Level.ALL);
    return console;
  }

  /**
   * stdout, not stderr: a service manager's journal keeps one stream in order. Not JUL's
   * ConsoleHandler: re-pointing it closes System.err, and closing it would close System.out.
   */
  private static final class Stdout extends StreamHandler {
    Stdout() {
      super(System.out, new OneLine());
    }

    @Override
    public synchronized void publish(LogRecord record) {
      super.publish(record);
      flush();
    }

    @Override
    public synchronized void close() {
      flush();
    }
  }

  /**
   * Keeps handlers open while shutdown hooks run, so "Shutting down" and "Shutdown complete"
   * reach stdout and the log file: JUL's own shutdown hook (LogManager$Cleaner) would reset
   * them concurrently with ours. Our hook closes them last, through {@link #closed()}.
   * Installed by {@link #installManager()} before the first logger exists.
   */
  public static final class ShutdownSafeLogManager extends LogManager {
    @Override
    public void reset() {
      if (!Thread.currentThread().getClass().getName().equals("java.util.logging.LogManager$Cleaner")) {
        super.reset();
      }
    }

    void finish() {
      super.reset();
    }
  }

  /** Must run before anything logs. */
  static void installManager() {
    System.setProperty("java.util.logging.manager", ShutdownSafeLogManager.class.getName());
  }

  /** From the shutdown hook, last: flush and close the log files. */
  static void closed() {
    if (LogManager.getLogManager() instanceof ShutdownSafeLogManager m) {
      m.finish();
    }
  }

  /** {@code 2026-11-30T17:40:00.123Z INFO  [main] CassetteNode: message}. */
  static final class OneLine extends Formatter {
    @Override
    public String format(LogRecord r) {
      StringBuilder sb = new StringBuilder(160);
      sb.append(Instant.ofEpochMilli(r.getMillis())).append(' ');
      String level = switch (r.getLevel().getName()) {
        case "SEVERE" -> "ERROR";
        case "WARNING" -> "WARN ";
        case "INFO" -> "INFO ";
        case "CONFIG", "FINE" -> "DEBUG";
        default -> "TRACE";
      };
      sb.append(level).append(" [").append(Thread.currentThread().getName()).append("] ");
      String name = r.getLoggerName() == null ? "" : r.getLoggerName();
      sb.append(name.substring(name.lastIndexOf('.') + 1)).append(": ");
      sb.append(formatMessage(r)).append(System.lineSeparator());
      if (r.getThrown() != null) {
        StringWriter sw = new StringWriter();
        r.getThrown().printStackTrace(new PrintWriter(sw));
        sb.append(sw);
      }
      return sb.toString();
    }
  }
}
