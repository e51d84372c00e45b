package io.cassette.tools.service;

/**
 * The systemd unit for a node: runs it in the foreground as the service user, restarts it on
 * failure, raises the limits a database needs, gives it only its own directories to write,
 * and lets it flush on stop (SIGTERM, exit 143 counts as success).
 */
final class SystemdUnit {
  private SystemdUnit() {}

  static String text(ServiceLayout l) {
    return """
        # Written by `cassette service install`; `cassette service uninstall` removes it.
        [Unit]
        Description=Cassette database (CQL and Redis protocols)
        Documentation=file:%1$s/README.md
        After=network-online.target
        Wants=network-online.target

        [Service]
        Type=simple
        User=%2$s
        Group=%2$s
        WorkingDirectory=%3$s
        Environment=CASSETTE_CONF=%4$s
        ExecStart=%5$s
        Restart=on-failure
        RestartSec=%6$d
        TimeoutStopSec=%7$d
        KillSignal=SIGTERM
        SuccessExitStatus=143
        LimitNOFILE=%8$d
        LimitNPROC=%9$d
        LimitMEMLOCK=infinity
        LimitAS=infinity
        NoNewPrivileges=true
        PrivateTmp=true
        ProtectSystem=full
        ProtectHome=true
        ReadWritePaths=%3$s %10$s

        [Install]
        WantedBy=multi-user.target
        """.formatted(l.home(), l.user(), l.dataDir(), l.configFile(), l.startCommand(),
        ServiceLayout.RESTART_DELAY_SECONDS, ServiceLayout.STOP_TIMEOUT_SECONDS,
        ServiceLayout.LIMIT_NOFILE, ServiceLayout.LIMIT_NPROC, l.logDir());
  }
}
