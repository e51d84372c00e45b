package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs StressMain in-process against a live node and checks what a user would look at. */
final class StressRunAssertions {
  private StressRunAssertions() {}

  /** Runs the command line; asserts exit 0, END, no errors; returns stdout. */
  static String runClean(String commandLine) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status = StressMain.run(commandLine.split(" "), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(status).as("exit status of '%s'\nstdout:\n%s\nstderr:\n%s", commandLine, text, err).isZero();
    assertThat(text).contains("Results:").contains(StressReport.HEAD).endsWith("END\n");
    assertThat(text).contains("Total errors              :          0");
    return text;
  }
}
