package io.cassette.tools.service;

import java.nio.file.Path;

/**
 * Where an installed node lives and who runs it: the choices {@code cassette service install}
 * writes into the unit or init script. Paths are as seen by the running system; {@link #onDisk}
 * places them under {@code root} (a staging directory in tests and package builds, {@code /}
 * for a real install).
 *
 * @param name       service name (unit {@code <name>.service}, script {@code /etc/init.d/<name>})
 * @param user       system user the node runs as; its group has the same name
 * @param home       the distribution: {@code <home>/bin/cassette} is started
 * @param dataDir    {@code --data-dir}: SSTables, commit log, and {@code logs -> logDir}
 * @param configFile {@code --config}
 * @param logDir     where the node's log files end up (linked from {@code <dataDir>/logs})
 * @param heap       {@code --heap}, e.g. "256m"; null lets the JVM take a quarter of the RAM
 * @param httpPort   the admin port {@code status} asks for health
 */
record ServiceLayout(String name, String user, Path home, Path dataDir, Path configFile, Path logDir,
                     String heap, int httpPort, Path root) {
  /** File descriptors: SSTables, segments and client sockets, as Cassandra's packages allow. */
  static final int LIMIT_NOFILE = 100_000;
  /** Processes/threads for the service user. */
  static final int LIMIT_NPROC = 32_768;
  /** Seconds a stop may take: the node flushes memtables on the way down. */
  static final int STOP_TIMEOUT_SECONDS = 60;
  /** Seconds before systemd restarts a failed node. */
  static final int RESTART_DELAY_SECONDS = 5;

  Path launcher() {
    return home.resolve("bin").resolve("cassette");
  }

  Path unitFile() {
    return Path.of("/etc/systemd/system", name + ".service");
  }

  Path initScript() {
    return Path.of("/etc/init.d", name);
  }

  Path defaultsFile() {
    return Path.of("/etc/default", name);
  }

  Path pidFile() {
    return Path.of("/run", name + ".pid");
  }

  /** {@code path} under the root this install writes to. */
  Path onDisk(Path path) {
    return root.resolve(root.getRoot().relativize(path.toAbsolutePath()));
  }

  boolean realSystem() {
    return root.toAbsolutePath().normalize().equals(root.toAbsolutePath().getRoot());
  }

  /** The start command, as a systemd ExecStart line or an init script runs it. */
  String startCommand() {
    StringBuilder cmd = new StringBuilder().append(launcher()).append(" start");
    if (heap != null) {
      cmd.append(" --heap ").append(heap);
    }
    cmd.append(" --data-dir ").append(dataDir).append(" --config ").append(configFile);
    return cmd.toString();
  }
}
