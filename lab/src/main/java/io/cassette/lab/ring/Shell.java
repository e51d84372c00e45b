package io.cassette.lab.ring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs a short system command (ip, nft, kill) and returns its output. */
public final class Shell {
  private Shell() {}

  /** The command's output; throws with it when the command fails or runs over 30 s. */
  public static String run(String... command) throws IOException {
    String out = tryRun(command);
    if (out == null) {
      throw new IOException(String.join(" ", command) + " failed: " + lastError.get());
    }
    return out;
  }

  private static final ThreadLocal<String> lastError = new ThreadLocal<>();

  /** The output, or null when the command is missing, fails or hangs. */
  public static String tryRun(String... command) {
    Process p;
    try {
      p = new ProcessBuilder(List.of(command)).redirectErrorStream(true).start();
    } catch (IOException e) {
      lastError.set(e.getMessage());
      return null;
    }
    try {
      boolean done = p.waitFor(30, TimeUnit.SECONDS);
      if (!done) {
        p.destroyForcibly().waitFor();
        lastError.set("timed out after 30 s");
        return null;
      }
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        lastError.set("exit " + p.exitValue() + ": " + out.strip());
        return null;
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      return null;
    } catch (IOException e) {
      lastError.set(e.getMessage());
      return null;
    }
  }
}
