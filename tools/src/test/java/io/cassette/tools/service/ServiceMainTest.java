package io.cassette.tools.service;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Installs into a staging root (never the host): the files written and the commands planned. */
class ServiceMainTest {
  @TempDir Path root;

  record Run(int exit, String out, String err) {}

  private static Run run(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = ServiceMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** A stand-in installation with a launcher and the shipped configuration. */
  private Path fakeHome() throws Exception {
    Path home = root.resolve("opt/cassette");
    Files.createDirectories(home.resolve("bin"));
    Files.createDirectories(home.resolve("conf"));
    Path launcher = home.resolve("bin/cassette");
    Files.writeString(launcher, "#!/bin/sh\nexec sleep 60\n");
    Files.setPosixFilePermissions(launcher, PosixFilePermissions.fromString("rwxr-xr-x"));
    Files.writeString(home.resolve("conf/cassette.yaml"), "cluster_name: Boards\nhttp_port: 9999\n");
    return home;
  }

  @Test
  void systemdInstallWritesAUnitAndPlansUserDirectoriesAndStart() throws Exception {
    Path home = fakeHome();
    Run r = run("install", "--root", root.toString(), "--home", home.toString(), "--heap", "256m");
    assertThat(r.err()).isEmpty();
    assertThat(r.exit()).isZero();

    Path unit = root.resolve("etc/systemd/system/cassette.service");
    String text = Files.readString(unit);
    assertThat(text).contains("User=cassette\n", "Group=cassette\n", "Restart=on-failure\n",
        "LimitNOFILE=100000\n", "TimeoutStopSec=60\n", "WorkingDirectory=/var/lib/cassette\n",
        "ExecStart=" + home + "/bin/cassette start --heap 256m --data-dir /var/lib/cassette"
            + " --config /etc/cassette/cassette.yaml\n",
        "ReadWritePaths=/var/lib/cassette /var/log/cassette\n", "WantedBy=multi-user.target\n");
    assertThat(root.resolve("var/lib/cassette")).isDirectory();
    assertThat(root.resolve("var/log/cassette")).isDirectory();
    assertThat(Files.readSymbolicLink(root.resolve("var/lib/cassette/logs"))).isEqualTo(Path.of("../../log/cassette"));
    assertThat(root.resolve("var/lib/cassette/logs")).isDirectory();
    assertThat(root.resolve("etc/cassette/cassette.yaml")).hasContent("cluster_name: Boards\nhttp_port: 9999");
    assertThat(r.out()).contains(
        "would run: useradd --system --user-group --home-dir /var/lib/cassette --no-create-home --shell /usr/sbin/nologin cassette",
        "would run: chown -R cassette:cassette /var/lib/cassette /var/log/cassette",
        "would run: systemctl daemon-reload", "would run: systemctl enable --now cassette",
        "Installed cassette (systemd unit /etc/systemd/system/cassette.service)");

    Run status = run("status", "--root", root.toString());
    assertThat(status.exit()).isEqualTo(3);
    assertThat(status.out()).contains("Installed: yes", "Running:   unknown",
        "(http://127.0.0.1:9999/health)");
  }

  @Test
  void systemdAcceptsTheUnit() throws Exception {
    assumeTrue(new File("/usr/bin/systemd-analyze").canExecute(), "systemd-analyze not installed");
    Path home = fakeHome();
    assertThat(run("install", "--root", root.toString(), "--home", home.toString()).exit()).isZero();
    Process p = new ProcessBuilder("systemd-analyze", "verify",
        root.resolve("etc/systemd/system/cassette.service").toString()).redirectErrorStream(true).start();
    assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    // The host may lack the cassette user; anything else is a defect in the unit.
    assertThat(output.lines().filter(l -> l.contains("cassette.service") && !l.contains("user")
        && !l.contains("User"))).isEmpty();
  }

  @Test
  void sysvInstallWritesAnExecutableStartStopDaemonScript() throws Exception {
    Path home = fakeHome();
    Run r = run("install", "--init", "sysv", "--root", root.toString(), "--home", home.toString(),
        "--name", "cassette-board");
    assertThat(r.exit()).isZero();
    Path script = root.resolve("etc/init.d/cassette-board");
    assertThat(Files.isExecutable(script)).isTrue();
    String text = Files.readString(script);
    assertThat(text).startsWith("#!/bin/sh\n### BEGIN INIT INFO\n# Provides:          cassette-board\n")
        .contains("DAEMON=" + home + "/bin/cassette\n", "PIDFILE=/run/cassette-board.pid\n",
            "start-stop-daemon --start --quiet --background --make-pidfile",
            "--retry \"TERM/$STOP_TIMEOUT/KILL/5\"");
    assertThat(r.out()).contains("would run: update-rc.d cassette-board defaults",
        "would run: /etc/init.d/cassette-board start");
    Process sh = new ProcessBuilder("sh", "-n", script.toString()).redirectErrorStream(true).start();
    assertThat(sh.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(new String(sh.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEmpty();
    assertThat(sh.exitValue()).isZero();
  }

  @Test
  void uninstallRemovesTheServiceAndKeepsTheData() throws Exception {
    Path home = fakeHome();
    run("install", "--root", root.toString(), "--home", home.toString());
    Run r = run("uninstall", "--root", root.toString());
    assertThat(r.exit()).isZero();
    assertThat(root.resolve("etc/systemd/system/cassette.service")).doesNotExist();
    assertThat(root.resolve("var/lib/cassette")).isDirectory();
    assertThat(r.out()).contains("would run: systemctl disable --now cassette",
        "Kept: data /var/lib/cassette, logs /var/log/cassette, configuration /etc/cassette/cassette.yaml and user cassette");
    Run status = run("status", "--root", root.toString());
    assertThat(status.exit()).isEqualTo(4);
    assertThat(status.out()).contains("Installed: no");
  }

  @Test
  void badCommandLinesExitTwo() {
    assertThat(run().exit()).isEqualTo(2);
    assertThat(run("reinstall").err()).isEqualTo("cassette service: unknown action 'reinstall' (install, uninstall or status)\n");
    assertThat(run("install", "--heap", "lots").err()).startsWith("cassette service: invalid --heap 'lots'");
    assertThat(run("install", "--data-dir", "relative/dir").exit()).isEqualTo(2);
    assertThat(run("install", "--init", "upstart").err()).contains("--init takes systemd or sysv");
  }

  @Test
  void dryRunOnTheRealSystemChangesNothing() {
    Run r = run("install", "--dry-run", "--name", "cassette-dry-run-test", "--home", root.toString());
    assertThat(r.exit()).isZero();
    assertThat(Path.of("/etc/systemd/system/cassette-dry-run-test.service")).doesNotExist();
    assertThat(Path.of("/etc/init.d/cassette-dry-run-test")).doesNotExist();
    assertThat(r.out()).contains("would run: ");
  }
}
