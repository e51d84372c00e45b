package io.cassette.lab.ring;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One node process of the lab's ring, started, killed ({@code kill -9}), paused
 * ({@code SIGSTOP}/{@code SIGCONT}) and restarted on the same data directory. Its output is
 * appended to {@code n<i>.log}; "ready in" lines count its starts.
 */
public final class LabNode {
  private final int index;
  private final LabNetwork network;
  private final NodeLauncher launcher;
  private final Path dataDir;
  private final Path log;
  private final String seeds;
  private final List<String> settings;
  private Process process;
  private int starts;

  LabNode(int index, LabNetwork network, NodeLauncher launcher, Path dir, String seeds, List<String> settings) {
    this.index = index;
    this.network = network;
    this.launcher = launcher;
    this.dataDir = dir.resolve("n" + index);
    this.log = dir.resolve("n" + index + ".log");
    this.seeds = seeds;
    this.settings = settings;
  }

  public int index() {
    return index;
  }

  public String address() {
    return network.address(index);
  }

  public Path log() {
    return log;
  }

  /** The node's data directory (a mount point of its own with {@code --disk-mb}). */
  public Path dataDir() {
    return dataDir;
  }

  public synchronized void start() throws IOException {
    Files.createDirectories(dataDir);
    LabNetwork.Ports p = network.ports();
    List<String> cmd = new ArrayList<>(network.wrap(index));
    cmd.addAll(launcher.command(index));
    cmd.addAll(List.of("--data-dir", dataDir.toString(), "--listen", address(),
        "--cql-port", Integer.toString(p.cql()), "--resp-port", Integer.toString(p.resp()),
        "--http-port", Integer.toString(p.http()), "--storage-port", Integer.toString(p.storage()),
        "--seeds", seeds, "--set", "metadata_port=" + p.metadata()));
    for (String s : settings) {
      cmd.add("--set");
      cmd.add(s);
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    launcher.environment(pb.environment(), index);
    process = pb.start();
    starts++;
  }

  /** Waits until this start printed its ready line; fails if the process exits first. */
  public void awaitReady(long timeoutMillis) throws IOException, InterruptedException {
    long deadline = System.currentTimeMillis() + timeoutMillis;
    while (true) {
      String text = Files.exists(log) ? Files.readString(log, StandardCharsets.ISO_8859_1) : "";
      if (text.split("ready in", -1).length - 1 >= starts) {
        return;
      }
      if (!process.isAlive()) {
        throw new IOException("node " + index + " exited (" + process.exitValue() + "):\n" + tail(40));
      }
      if (System.currentTimeMillis() > deadline) {
        throw new IOException("node " + index + " not ready in " + timeoutMillis + " ms:\n" + tail(40));
      }
      Thread.sleep(100);
    }
  }

  public synchronized void kill9() throws InterruptedException {
    signal("KILL");
    process.destroyForcibly();
    process.waitFor(30, TimeUnit.SECONDS);
  }

  public synchronized void pause() {
    signal("STOP");
  }

  public synchronized void resume() {
    signal("CONT");
  }

  public synchronized boolean alive() {
    return process != null && process.isAlive();
  }

  /** Signals the process and its descendants (a wrapper such as {@code ip netns exec} may fork). */
  private void signal(String name) {
    if (process == null || !process.isAlive()) {
      return;
    }
    List<String> cmd = new ArrayList<>(List.of("kill", "-" + name, Long.toString(process.pid())));
    process.toHandle().descendants().forEach(h -> cmd.add(Long.toString(h.pid())));
    Shell.tryRun(cmd.toArray(new String[0]));
  }

  /** Stops it for good (SIGCONT first, so a paused node can die). */
  public synchronized void destroy() {
    if (process != null && process.isAlive()) {
      signal("CONT");
      process.toHandle().descendants().forEach(ProcessHandle::destroyForcibly);
      process.destroyForcibly();
      try {
        process.waitFor(30, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  public String tail(int lines) {
    try {
      List<String> all = Files.readAllLines(log, StandardCharsets.ISO_8859_1);
      return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }
}
