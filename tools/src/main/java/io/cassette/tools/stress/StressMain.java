package io.cassette.tools.stress;

import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code cassette stress}: a cassandra-stress compatible load generator. Exit status 0 after
 * "END", 1 after "FAILURE", a rejected command line (the message names the option and shows
 * the accepted forms) or a node that cannot be reached.
 */
public final class StressMain {
  private StressMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs the command line; returns the exit status. */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equalsIgnoreCase("help") || args[0].equals("-?")
        || args[0].equals("--help") || args[0].equals("-h")) {
      out.println(args.length > 1 ? StressSettingsParser.usage(args[1]) : StressSettingsParser.usage());
      return args.length == 0 ? 1 : 0;
    }
    StressSettings settings;
    Workload workload;
    try {
      settings = StressSettingsParser.parse(args);
      workload = settings.command().type() == Command.USER
          ? UserWorkload.load(settings) : new PredefinedWorkload(settings);
    } catch (ArgumentException e) {
      err.println(e.getMessage());
      return 1;
    }
    PrintStream logFile = null;
    Path graphCapture = null;
    PrintStream graphStream = null;
    try {
      ResultLogger output;
      if (settings.log().file() != null) {
        logFile = new PrintStream(new File(settings.log().file()), StandardCharsets.UTF_8);
        output = new ResultLogger(List.of(logFile));
      } else {
        output = new ResultLogger(List.of(out));
      }
      if (!settings.log().noSettings()) {
        for (String line : SettingsPrinter.lines(settings)) {
          output.println(line);
        }
      }
      if (settings.graph().enabled()) {
        graphCapture = Files.createTempFile("cassette-stress", ".log");
        graphStream = new PrintStream(graphCapture.toFile(), StandardCharsets.UTF_8);
        output.add(graphStream);
      }
      boolean success = new StressRunner(settings, workload, output, err).run();
      output.flush();
      if (graphStream != null) {
        graphStream.close();
        GraphReport.write(settings, graphCapture);
      }
      return success ? 0 : 1;
    } catch (ArgumentException e) {
      err.println(e.getMessage());
      return 1;
    } catch (FileNotFoundException e) {
      err.println("Cannot write -log file=" + settings.log().file() + ": " + e.getMessage());
      return 1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      err.println("Interrupted");
      return 1;
    } catch (IOException | RuntimeException e) {
      err.println(describe(e));
      return 1;
    } finally {
      if (logFile != null) {
        logFile.close();
      }
      if (graphStream != null) {
        graphStream.close();
      }
      if (graphCapture != null) {
        try {
          Files.deleteIfExists(graphCapture);
        } catch (IOException ignored) {
          // a temporary file left behind is harmless
        }
      }
    }
  }

  /** The error and its causes on one line each: driver errors nest the useful part. */
  private static String describe(Throwable e) {
    StringBuilder b = new StringBuilder(e.getClass().getName()).append(": ").append(e.getMessage());
    for (Throwable c = e.getCause(); c != null && c != c.getCause(); c = c.getCause()) {
      b.append("\n  caused by ").append(c.getClass().getName()).append(": ").append(c.getMessage());
    }
    return b.toString();
  }
}
