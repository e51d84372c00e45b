package io.cassette.tools.service;

/**
 * A SysV init script for systems without systemd (older or minimal board images): POSIX sh,
 * {@code start-stop-daemon} to run the node in the background as the service user with a pid
 * file, a bounded stop (TERM, then KILL after the timeout), LSB status codes. Settings may be
 * overridden in {@code /etc/default/<name>}.
 */
final class SysvInitScript {
  private SysvInitScript() {}

  static String text(ServiceLayout l) {
    return """
        #!/bin/sh
        ### BEGIN INIT INFO
        # Provides:          %1$s
        # Required-Start:    $remote_fs $network
        # Required-Stop:     $remote_fs $network
        # Default-Start:     2 3 4 5
        # Default-Stop:      0 1 6
        # Short-Description: Cassette database
        # Description:       Cassette: CQL and Redis protocols over one storage engine.
        ### END INIT INFO
        # Written by `cassette service install`; `cassette service uninstall` removes it.

        NAME=%1$s
        DAEMON=%2$s
        SERVICE_USER=%3$s
        PIDFILE=%4$s
        DATA_DIR=%5$s
        CONFIG=%6$s
        LOG_DIR=%7$s
        HEAP=%8$s
        STOP_TIMEOUT=%9$d
        [ -r /etc/default/$NAME ] && . /etc/default/$NAME

        [ -x "$DAEMON" ] || { echo "$DAEMON not found or not executable" >&2; exit 5; }

        do_status() {
          start-stop-daemon --status --pidfile "$PIDFILE"
        }

        do_start() {
          if do_status; then
            echo "$NAME is already running"
            return 0
          fi
          echo "Starting $NAME"
          ulimit -n %10$d 2>/dev/null || true
          heap_opt=""
          [ -n "$HEAP" ] && heap_opt="--heap $HEAP"
          # sh -c exec's the launcher, which exec's java: the pid file names the JVM.
          start-stop-daemon --start --quiet --background --make-pidfile --pidfile "$PIDFILE" \\
            --chuid "$SERVICE_USER" --chdir "$DATA_DIR" --exec /bin/sh -- -c \\
            "CASSETTE_CONF='$CONFIG' exec '$DAEMON' start $heap_opt --data-dir '$DATA_DIR' --config '$CONFIG' >>'$LOG_DIR/console.log' 2>&1"
        }

        do_stop() {
          echo "Stopping $NAME"
          start-stop-daemon --stop --quiet --pidfile "$PIDFILE" --retry "TERM/$STOP_TIMEOUT/KILL/5"
          rc=$?
          rm -f "$PIDFILE"
          # 1: nothing was running, which is what stop asks for
          [ "$rc" -eq 1 ] && return 0
          return "$rc"
        }

        case "$1" in
          start) do_start ;;
          stop) do_stop ;;
          restart|force-reload) do_stop && do_start ;;
          status)
            do_status
            rc=$?
            case $rc in
              0) echo "$NAME is running" ;;
              *) echo "$NAME is not running" ;;
            esac
            exit $rc
            ;;
          *)
            echo "Usage: $0 {start|stop|restart|force-reload|status}" >&2
            exit 2
            ;;
        esac
        """.formatted(l.name(), l.launcher(), l.user(), l.pidFile(), l.dataDir(), l.configFile(),
        l.logDir(), l.heap() == null ? "" : l.heap(), ServiceLayout.STOP_TIMEOUT_SECONDS,
        ServiceLayout.LIMIT_NOFILE);
  }
}
