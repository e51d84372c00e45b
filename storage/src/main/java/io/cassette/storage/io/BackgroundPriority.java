package io.cassette.storage.io;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lowers the CPU priority of the calling thread, so that background work (compaction) yields
 * the core to request threads on a one-core board instead of taking an equal share of it.
 *
 * <p>Java thread priorities do nothing on Linux unless the JVM runs with
 * {@code -XX:ThreadPriorityPolicy=1}, which prints a warning at every start when not run as
 * root. A thread may raise its own nice value without privilege, so the thread renices itself:
 * its Linux thread id and nice value from {@code /proc/thread-self}, then
 * {@code renice PRIORITY -p TID}, the absolute form util-linux and busybox both read the same
 * way ({@code -n} is absolute in util-linux before 2.39, an increment in busybox and POSIX).
 * Best effort: where either is missing the thread keeps its priority.
 */
public final class BackgroundPriority {
  private static final Logger LOG = LoggerFactory.getLogger(BackgroundPriority.class);

  private BackgroundPriority() {}

  /**
   * Gives the calling thread {@link Thread#MIN_PRIORITY} and, on Linux, a nice value
   * {@code increment} above the one it has (at most 19).
   *
   * @return true when the thread's nice value was raised
   */
  public static boolean lowerCurrentThread(int increment) {
    Thread.currentThread().setPriority(Thread.MIN_PRIORITY);
    Path self = Path.of("/proc/thread-self");
    if (!Files.exists(self)) {
      return false;
    }
    try {
      // "/proc/thread-self" -> "PID/task/TID"
      String tid = Files.readSymbolicLink(self).getFileName().toString();
      String stat = Files.readString(self.resolve("stat"));
      // Field 19 (nice), counted after the command name, which may hold spaces.
      int nice = Integer.parseInt(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[16]);
      int target = Math.min(19, nice + increment);
      if (target <= nice) {
        return false;
      }
      Process p = new ProcessBuilder("renice", Integer.toString(target), "-p", tid)
          .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
      if (!p.waitFor(10, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return false;
      }
      return p.exitValue() == 0;
    } catch (IOException | RuntimeException e) {
      LOG.debug("cannot lower the priority of {}: {}", Thread.currentThread().getName(), e.toString());
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }
}
