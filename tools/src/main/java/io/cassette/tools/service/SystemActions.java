package io.cassette.tools.service;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What an install changes on the machine: files under the layout's root, and commands
 * (useradd, chown, systemctl...) run only on the real system. In a staging root or with
 * {@code --dry-run} commands are printed, prefixed "would run:", so tests and package builds
 * see the plan without touching the host.
 */
final class SystemActions {
  /** A command that takes longer is reported as failed (systemctl start waits for the unit). */
  static final long COMMAND_TIMEOUT_SECONDS = 120;

  private final ServiceLayout layout;
  private final boolean execute;
  private final PrintStream out;

  SystemActions(ServiceLayout layout, boolean dryRun, PrintStream out) {
    this.layout = layout;
    this.execute = layout.realSystem() && !dryRun;
    this.out = out;
  }

  boolean executes() {
    return execute;
  }

  /** Writes {@code text} to {@code path} (a system path, placed under the root). */
  void write(Path path, String text, String permissions) {
    Path target = layout.onDisk(path);
    say("write " + target);
    if (!execute && layout.realSystem()) {
      return; // dry run on the real system
    }
    try {
      Files.createDirectories(target.getParent());
      Files.writeString(target, text, StandardCharsets.UTF_8);
      Files.setPosixFilePermissions(target, PosixFilePermissions.fromString(permissions));
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot write " + target + ": " + e.getMessage(), e);
    }
  }

  void mkdirs(Path path) {
    Path target = layout.onDisk(path);
    if (!execute && layout.realSystem()) {
      say("create " + target);
      return;
    }
    try {
      Files.createDirectories(target);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot create " + target + ": " + e.getMessage(), e);
    }
  }

  /** Links {@code link} to {@code target} unless something is already at {@code link}. */
  void symlink(Path link, Path target) {
    Path at = layout.onDisk(link);
    if (Files.exists(at, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    say("link " + at + " -> " + target);
    if (!execute && layout.realSystem()) {
      return;
    }
    try {
      Files.createSymbolicLink(at, target);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot link " + at + ": " + e.getMessage(), e);
    }
  }

  /** Copies {@code from} (a real path) to the system path {@code to} unless it exists. */
  void copyIfAbsent(Path from, Path to) {
    Path target = layout.onDisk(to);
    if (Files.exists(target)) {
      out.println("keeping existing " + target);
      return;
    }
    say("write " + target + " (from " + from + ")");
    if (!execute && layout.realSystem()) {
      return;
    }
    try {
      Files.createDirectories(target.getParent());
      Files.copy(from, target);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot copy " + from + " to " + target + ": " + e.getMessage(), e);
    }
  }

  void delete(Path path) {
    Path target = layout.onDisk(path);
    if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      return;
    }
    say("remove " + target);
    if (!execute && layout.realSystem()) {
      return;
    }
    try {
      Files.delete(target);
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot remove " + target + ": " + e.getMessage(), e);
    }
  }

  /** Reports a change: "would ..." in a dry run on the real system, else as done. */
  private void say(String change) {
    out.println((!execute && layout.realSystem() ? "would " : "") + change);
  }

  /**
   * Runs a command on the real system (output passed through), or prints it.
   *
   * @return its exit status; 0 when only printed
   */
  int run(List<String> command) {
    if (!execute) {
      out.println("would run: " + String.join(" ", command));
      return 0;
    }
    out.println("running: " + String.join(" ", command));
    return quietly(command, true);
  }

  /** Runs a command for its exit status only (a question, e.g. does the user exist). */
  int ask(List<String> command) {
    if (!execute) {
      return 1;
    }
    return quietly(command, false);
  }

  private int quietly(List<String> command, boolean showOutput) {
    try {
      ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
      if (showOutput) {
        pb.redirectOutput(ProcessBuilder.Redirect.INHERIT);
      } else {
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
      }
      Process p = pb.start();
      if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IllegalStateException(String.join(" ", command) + " did not finish within "
            + COMMAND_TIMEOUT_SECONDS + " s");
      }
      return p.exitValue();
    } catch (IOException e) {
      return 127; // not installed
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return 130;
    }
  }
}
