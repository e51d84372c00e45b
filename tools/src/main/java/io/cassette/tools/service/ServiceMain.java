package io.cassette.tools.service;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;

/**
 * {@code cassette service install|uninstall|status}: runs the node as a system service. Writes
 * a systemd unit where systemd runs, else a SysV init script driven by start-stop-daemon;
 * creates the service user and its directories. {@code --root DIR} writes everything under DIR
 * and runs nothing (for packaging and tests); {@code --dry-run} shows the plan.
 *
 * <p>Exit status: 0 done (status: running); 1 failed; 2 bad command line; status also returns
 * the LSB codes 3 (installed, not running) and 4 (not installed).
 */
public final class ServiceMain {
  static final int EXIT_FAILED = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_NOT_RUNNING = 3;
  static final int EXIT_NOT_INSTALLED = 4;
  /** How long status waits for the node's /health answer. */
  static final int HEALTH_TIMEOUT_MILLIS = 2000;

  private static final String USAGE = """
      usage: cassette service install|uninstall|status [options]

        install     write the service (systemd unit, or SysV init script without systemd),
                    create the user and directories, enable and start it
        uninstall   stop, disable and remove the service; data, logs, config and user are kept
        status      installed? enabled? running? healthy? (exit 0 running, 3 stopped, 4 absent)

      options:
        --init systemd|sysv   service manager (default: systemd when it runs, else sysv)
        --name NAME           service name (default cassette)
        --user USER           system user the node runs as (default cassette)
        --home DIR            Cassette installation to run (default: this one)
        --data-dir DIR        data directory (default /var/lib/cassette)
        --config FILE         configuration file (default /etc/cassette/cassette.yaml)
        --log-dir DIR         log directory (default /var/log/cassette)
        --heap SIZE           heap, e.g. 256m (default: a quarter of the RAM)
        --http-port PORT      admin port status asks (default: the config's http_port, else 9180)
        --root DIR            write under DIR instead of /, run nothing (packaging, tests)
        --no-start            install without enabling or starting
        --dry-run             print what would be done, change nothing
      """;

  enum Init { SYSTEMD, SYSV }

  private ServiceMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    if (args.length == 0 || args[0].equals("--help") || args[0].equals("-h") || args[0].equals("help")) {
      (args.length == 0 ? err : out).print(USAGE);
      return args.length == 0 ? EXIT_USAGE : 0;
    }
    String action = args[0];
    String name = "cassette";
    String user = "cassette";
    Path home = Path.of(System.getProperty("cassette.home", "/opt/cassette"));
    Path data = Path.of("/var/lib/cassette");
    Path config = Path.of("/etc/cassette/cassette.yaml");
    Path logs = Path.of("/var/log/cassette");
    String heap = null;
    Integer httpPort = null;
    Path root = Path.of("/");
    Init init = null;
    boolean noStart = false;
    boolean dryRun = false;
    try {
      for (int i = 1; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "--init" -> init = init(value(args, ++i, a));
          case "--name" -> name = value(args, ++i, a);
          case "--user" -> user = value(args, ++i, a);
          case "--home" -> home = Path.of(value(args, ++i, a)).toAbsolutePath().normalize();
          case "--data-dir" -> data = absolute(value(args, ++i, a), a);
          case "--config" -> config = absolute(value(args, ++i, a), a);
          case "--log-dir" -> logs = absolute(value(args, ++i, a), a);
          case "--heap" -> heap = heap(value(args, ++i, a));
          case "--http-port" -> httpPort = port(value(args, ++i, a));
          case "--root" -> root = Path.of(value(args, ++i, a)).toAbsolutePath().normalize();
          case "--no-start" -> noStart = true;
          case "--dry-run" -> dryRun = true;
          default -> throw new IllegalArgumentException("unknown option '" + a + "'");
        }
      }
      if (!name.matches("[A-Za-z0-9_.-]+") || !user.matches("[a-z_][a-z0-9_-]*")) {
        throw new IllegalArgumentException("service and user names take letters, digits, '_', '-'");
      }
    } catch (IllegalArgumentException e) {
      err.println("cassette service: " + e.getMessage());
      return EXIT_USAGE;
    }
    if (init == null) {
      init = Files.isDirectory(root.resolve("run/systemd/system")) || !isRoot(root) ? Init.SYSTEMD : Init.SYSV;
    }
    ServiceLayout layout = new ServiceLayout(name, user, home, data, config, logs, heap,
        httpPort != null ? httpPort : httpPortFrom(root, config), root);
    SystemActions system = new SystemActions(layout, dryRun, out);
    try {
      switch (action) {
        case "install":
          requireRoot(system);
          return install(layout, init, system, noStart, out);
        case "uninstall":
          requireRoot(system);
          return uninstall(layout, init, system, out);
        case "status":
          return status(layout, init, system, out);
        default:
          err.println("cassette service: unknown action '" + action + "' (install, uninstall or status)");
          return EXIT_USAGE;
      }
    } catch (IllegalStateException | UncheckedIOException e) {
      err.println("cassette service: " + e.getMessage());
      return EXIT_FAILED;
    }
  }

  private static int install(ServiceLayout l, Init init, SystemActions system, boolean noStart,
                             PrintStream out) {
    if (system.ask(List.of("getent", "passwd", l.user())) != 0) {
      check(system.run(List.of("useradd", "--system", "--user-group", "--home-dir", l.dataDir().toString(),
          "--no-create-home", "--shell", "/usr/sbin/nologin", l.user())), "useradd");
    }
    system.mkdirs(l.dataDir());
    system.mkdirs(l.logDir());
    // Relative, so the link also resolves when the files are staged under another root.
    Path logsLink = l.dataDir().resolve("logs");
    system.symlink(logsLink, logsLink.getParent().relativize(l.logDir()));
    Path shippedConfig = l.home().resolve("conf").resolve("cassette.yaml");
    if (Files.isRegularFile(shippedConfig)) {
      system.copyIfAbsent(shippedConfig, l.configFile());
    }
    check(system.run(List.of("chown", "-R", l.user() + ":" + l.user(), l.dataDir().toString(),
        l.logDir().toString())), "chown");
    check(system.run(List.of("chmod", "750", l.dataDir().toString(), l.logDir().toString())), "chmod");
    if (init == Init.SYSTEMD) {
      system.write(l.unitFile(), SystemdUnit.text(l), "rw-r--r--");
      check(system.run(List.of("systemctl", "daemon-reload")), "systemctl daemon-reload");
      if (!noStart) {
        check(system.run(List.of("systemctl", "enable", "--now", l.name())), "systemctl enable --now");
      }
    } else {
      system.write(l.initScript(), SysvInitScript.text(l), "rwxr-xr-x");
      if (!noStart) {
        check(system.run(List.of("update-rc.d", l.name(), "defaults")), "update-rc.d");
        check(system.run(List.of(l.initScript().toString(), "start")), l.initScript() + " start");
      }
    }
    out.println("Installed " + l.name() + " (" + (init == Init.SYSTEMD ? "systemd unit " + l.unitFile()
        : "SysV script " + l.initScript()) + "): runs " + l.startCommand() + " as " + l.user() + ".");
    return 0;
  }

  private static int uninstall(ServiceLayout l, Init init, SystemActions system, PrintStream out) {
    if (init == Init.SYSTEMD) {
      system.run(List.of("systemctl", "disable", "--now", l.name()));
      system.delete(l.unitFile());
      system.run(List.of("systemctl", "daemon-reload"));
    } else {
      if (Files.exists(l.onDisk(l.initScript()))) {
        system.run(List.of(l.initScript().toString(), "stop"));
      }
      system.run(List.of("update-rc.d", "-f", l.name(), "remove"));
      system.delete(l.initScript());
    }
    out.println("Removed the " + l.name() + " service. Kept: data " + l.dataDir() + ", logs "
        + l.logDir() + ", configuration " + l.configFile() + " and user " + l.user()
        + "; remove them by hand when no longer needed.");
    return 0;
  }

  private static int status(ServiceLayout l, Init init, SystemActions system, PrintStream out) {
    Path file = init == Init.SYSTEMD ? l.unitFile() : l.initScript();
    boolean installed = Files.exists(l.onDisk(file));
    out.println("Service:   " + l.name() + " (" + (init == Init.SYSTEMD ? "systemd" : "SysV init") + ")");
    out.println("Installed: " + (installed ? "yes, " + l.onDisk(file) : "no"));
    if (!installed) {
      return EXIT_NOT_INSTALLED;
    }
    boolean running;
    if (!system.executes()) {
      out.println("Running:   unknown (not the live system)");
      running = false;
    } else if (init == Init.SYSTEMD) {
      out.println("Enabled:   " + (system.ask(List.of("systemctl", "is-enabled", "--quiet", l.name())) == 0 ? "yes" : "no"));
      running = system.ask(List.of("systemctl", "is-active", "--quiet", l.name())) == 0;
      out.println("Running:   " + (running ? "yes" : "no"));
    } else {
      running = system.ask(List.of(l.initScript().toString(), "status")) == 0;
      out.println("Running:   " + (running ? "yes" : "no"));
    }
    String url = "http://127.0.0.1:" + l.httpPort() + "/health";
    out.println("Health:    " + health(url) + " (" + url + ")");
    return running ? 0 : EXIT_NOT_RUNNING;
  }

  /** The node's own answer, or why there is none. */
  static String health(String url) {
    try {
      HttpURLConnection c = (HttpURLConnection) URI.create(url).toURL().openConnection();
      c.setConnectTimeout(HEALTH_TIMEOUT_MILLIS);
      c.setReadTimeout(HEALTH_TIMEOUT_MILLIS);
      try (InputStream in = c.getInputStream()) {
        String body = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        return body.contains("\"UP\"") ? "UP" : "answered " + body.strip();
      } finally {
        c.disconnect();
      }
    } catch (IOException e) {
      return "no answer (" + e.getClass().getSimpleName() + ": " + e.getMessage() + ")";
    }
  }

  /** http_port from the installed configuration, else the default. */
  static int httpPortFrom(Path root, Path config) {
    Path file = root.resolve(root.getRoot().relativize(config.toAbsolutePath()));
    try (InputStream in = Files.newInputStream(file)) {
      Object doc = new Yaml(new SafeConstructor(new LoaderOptions())).load(in);
      if (doc instanceof Map<?, ?> m && m.get("http_port") instanceof Integer p) {
        return p;
      }
    } catch (IOException | RuntimeException e) {
      // unreadable or absent: the default port
    }
    return 9180;
  }

  private static void requireRoot(SystemActions system) {
    if (system.executes() && !"root".equals(System.getProperty("user.name"))) {
      throw new IllegalStateException("must be run as root (try: sudo cassette service ...), or"
          + " use --root DIR to write the files somewhere else, or --dry-run");
    }
  }

  private static boolean isRoot(Path root) {
    return root.toAbsolutePath().normalize().equals(root.toAbsolutePath().getRoot());
  }

  private static void check(int status, String what) {
    if (status != 0) {
      throw new IllegalStateException(what + " failed (exit status " + status + ")");
    }
  }

  private static Init init(String s) {
    return switch (s) {
      case "systemd" -> Init.SYSTEMD;
      case "sysv", "sysvinit", "init.d" -> Init.SYSV;
      default -> throw new IllegalArgumentException("--init takes systemd or sysv, not '" + s + "'");
    };
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static Path absolute(String s, String option) {
    Path p = Path.of(s);
    if (!p.isAbsolute()) {
      throw new IllegalArgumentException(option + " needs an absolute path, not '" + s + "'");
    }
    return p.normalize();
  }

  private static String heap(String s) {
    if (!s.matches("\\d+[kKmMgG]")) {
      throw new IllegalArgumentException("invalid --heap '" + s + "': expected a size such as 128m or 1g");
    }
    return s;
  }

  private static int port(String s) {
    try {
      int p = Integer.parseInt(s);
      if (p > 0 && p < 65536) {
        return p;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("invalid port '" + s + "'");
  }
}
