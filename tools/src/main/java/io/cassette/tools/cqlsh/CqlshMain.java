package io.cassette.tools.cqlsh;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.Row;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.StringReader;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.impl.DefaultParser;
import org.jline.terminal.Size;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * {@code cassette cqlsh [options] [HOST [PORT]]}: a CQL shell in Java with cqlsh's commands,
 * output and errors, for Cassette and for Apache Cassandra alike. Interactive on a terminal
 * (history in {@code ~/.cassette_cqlsh_history}, tab completion); {@code -e} and {@code -f}
 * (and piped input) run as scripts, exiting 2 when a statement failed. A node that cannot be
 * reached is one "Connection error" line and exit 1.
 */
public final class CqlshMain {
  static final String DEFAULT_HOST = "127.0.0.1";
  static final int DEFAULT_PORT = 9042;
  static final String HISTORY_FILE = ".cassette_cqlsh_history";
  static final int EXIT_CONNECTION = 1;
  /** Terminal size assumed when the terminal reports none. */
  static final int DEFAULT_COLUMNS = 80;
  static final int DEFAULT_ROWS = 24;
  static final int EXIT_STATEMENT_FAILED = 2;

  private static final String USAGE = """
      Usage: cassette cqlsh [options] [host [port]]

      CQL Shell for Cassette and Apache Cassandra

      Options:
        -e, --execute STATEMENT   execute the statement(s) and quit
        -f, --file FILE           execute the statements of a file and quit
        -k, --keyspace KEYSPACE   authenticate to and use this keyspace
        -u, --username USER       authenticate as user
        -p, --password PASSWORD   authenticate using password
        --ssl                     use TLS (the node's client_encryption_options); the CA
                                  file is SSL_CERTFILE (PEM), SSL_VALIDATE=false skips the check
        --connect-timeout SECONDS connection timeout (default 5)
        --request-timeout SECONDS request timeout (default 10)
        --debug                   show driver log messages
        --version                 show the version and quit
        -h, --help                show this help and quit

      Environment: CQLSH_HOST, CQLSH_PORT, SSL_CERTFILE, SSL_VALIDATE (cqlsh's names).
      """;

  private CqlshMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Parsed command line. */
  record Options(String host, int port, String execute, Path file, String keyspace, String username,
                 String password, int connectTimeoutSeconds, int requestTimeoutSeconds, boolean debug,
                 boolean ssl) {}

  static int run(String[] args, PrintStream out, PrintStream err) {
    Options o;
    try {
      o = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("cqlsh: error: " + e.getMessage());
      err.print(USAGE);
      return EXIT_STATEMENT_FAILED;
    }
    if (o == null) {
      out.print(USAGE);
      return 0;
    }
    if (!o.debug()) { // the driver's warnings would interleave with results
      Logger.getLogger("").setLevel(Level.OFF);
    }
    CqlSession session;
    try {
      session = connect(o);
    } catch (RuntimeException e) {
      err.println(connectionError(o, e));
      return EXIT_CONNECTION;
    }
    try (session) {
      Row local = session.execute("SELECT cluster_name, release_version, cql_version FROM system.local").one();
      String cluster = local == null ? "Test Cluster" : local.getString("cluster_name");
      String version = "[cqlsh " + version() + " | " + product(local) + " | CQL spec "
          + (local == null ? "3.4.7" : local.getString("cql_version")) + " | Native protocol v"
          + session.getContext().getProtocolVersion().getCode() + "]";
      String address = o.host() + ":" + o.port();
      if (o.execute() != null || o.file() != null || System.console() == null) {
        Shell shell = new Shell(session, out, err, null, cluster, address, version);
        if (o.execute() != null) {
          shell.script(new BufferedReader(new StringReader(o.execute())), "<stdin>");
        } else if (o.file() != null) {
          try (BufferedReader in = Files.newBufferedReader(o.file(), StandardCharsets.UTF_8)) {
            shell.script(in, o.file().toString());
          }
        } else {
          shell.script(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)), "<stdin>");
        }
        out.flush();
        return shell.failed() ? EXIT_STATEMENT_FAILED : 0;
      }
      return interactive(session, o, out, err, cluster, address, version);
    } catch (IOException e) {
      err.println("cqlsh: " + e.getMessage());
      return EXIT_STATEMENT_FAILED;
    }
  }

  private static int interactive(CqlSession session, Options o, PrintStream out, PrintStream err,
                                 String cluster, String address, String version) throws IOException {
    // The exec provider drives the tty with stty: no native library, as everywhere in Cassette.
    try (Terminal terminal = TerminalBuilder.builder().system(true).provider("exec").build()) {
      if (terminal.getWidth() <= 0) { // a serial console or pty nobody sized: JLine needs a width
        terminal.setSize(new Size(DEFAULT_COLUMNS, DEFAULT_ROWS));
      }
      LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("cqlsh")
          .parser(new DefaultParser().escapeChars(null))
          .completer(new CqlCompleter(session::getMetadata, session::getKeyspace))
          .variable(LineReader.HISTORY_FILE, Path.of(System.getProperty("user.home"), HISTORY_FILE))
          .option(LineReader.Option.CASE_INSENSITIVE, true)
          .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
          .build();
      PrintStream termOut = new PrintStream(terminal.output(), true, StandardCharsets.UTF_8);
      termOut.println("Connected to " + cluster + " at " + address + ".");
      termOut.println(version);
      termOut.println("Use HELP for help.");
      Shell shell = new Shell(session, termOut, termOut, reader, cluster, address, version);
      shell.interactive();
      reader.getHistory().save();
      return 0;
    }
  }

  static Options parse(String[] args) {
    String host = System.getenv().getOrDefault("CQLSH_HOST", DEFAULT_HOST);
    int port = DEFAULT_PORT;
    String envPort = System.getenv("CQLSH_PORT");
    if (envPort != null && !envPort.isBlank()) {
      port = port(envPort);
    }
    String execute = null;
    Path file = null;
    String keyspace = null;
    String user = null;
    String password = null;
    int connectTimeout = 5;
    int requestTimeout = 10;
    boolean debug = false;
    boolean ssl = false;
    List<String> positional = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "-e", "--execute" -> execute = value(args, ++i, a);
        case "-f", "--file" -> file = Path.of(value(args, ++i, a));
        case "-k", "--keyspace" -> keyspace = value(args, ++i, a);
        case "-u", "--username" -> user = value(args, ++i, a);
        case "-p", "--password" -> password = value(args, ++i, a);
        case "--connect-timeout" -> connectTimeout = seconds(value(args, ++i, a), a);
        case "--request-timeout" -> requestTimeout = seconds(value(args, ++i, a), a);
        case "--debug" -> debug = true;
        case "--ssl" -> ssl = true;
        case "-C", "--color", "--no-color", "--no_color" -> { } // colour is not used
        case "-h", "--help" -> {
          return null;
        }
        case "--version" -> {
          System.out.println("cqlsh " + version());
          return null;
        }
        default -> {
          if (a.startsWith("--execute=")) {
            execute = a.substring("--execute=".length());
          } else if (a.startsWith("--file=")) {
            file = Path.of(a.substring("--file=".length()));
          } else if (a.startsWith("-") && a.length() > 1) {
            throw new IllegalArgumentException("no such option: " + a);
          } else {
            positional.add(a);
          }
        }
      }
    }
    if (positional.size() > 2) {
      throw new IllegalArgumentException("unexpected arguments: " + positional.subList(2, positional.size()));
    }
    if (!positional.isEmpty()) {
      host = positional.get(0);
    }
    if (positional.size() == 2) {
      port = port(positional.get(1));
    }
    if (execute != null && file != null) {
      throw new IllegalArgumentException("-e and -f cannot be used together");
    }
    return new Options(host, port, execute, file, keyspace, user, password, connectTimeout,
        requestTimeout, debug, ssl);
  }

  private static CqlSession connect(Options o) {
    probe(o);
    DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
        // The local data centre is inferred from the contact point: no need to know its name.
        .withString(DefaultDriverOption.LOAD_BALANCING_POLICY_CLASS, "DcInferringLoadBalancingPolicy")
        .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(o.connectTimeoutSeconds()))
        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(o.connectTimeoutSeconds()))
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(o.requestTimeoutSeconds()))
        .withDuration(DefaultDriverOption.METADATA_SCHEMA_REQUEST_TIMEOUT, Duration.ofSeconds(o.requestTimeoutSeconds()))
        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_TIMEOUT, Duration.ofSeconds(o.connectTimeoutSeconds()))
        .withBoolean(DefaultDriverOption.METADATA_TOKEN_MAP_ENABLED, false)
        // Every keyspace, system ones included, for DESCRIBE and completion (the default skips them).
        .withStringList(DefaultDriverOption.METADATA_SCHEMA_REFRESHED_KEYSPACES, List.of())
        .withBoolean(DefaultDriverOption.REQUEST_WARN_IF_SET_KEYSPACE, false)
        .withBoolean(DefaultDriverOption.REQUEST_LOG_WARNINGS, false)
        .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, 1)
        // The native clock loads a native library through JNR: Cassette runs none.
        .withBoolean(DefaultDriverOption.TIMESTAMP_GENERATOR_FORCE_JAVA_CLOCK, true)
        // A shell exits right after its last statement; Netty's 2 s quiet period is dead time.
        .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
        .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0)
        .build();
    CqlSessionBuilder b = CqlSession.builder().withConfigLoader(config)
        .addContactPoint(InetSocketAddress.createUnresolved(o.host(), o.port()));
    if (o.keyspace() != null) {
      b.withKeyspace(o.keyspace());
    }
    if (o.username() != null) {
      b.withAuthCredentials(o.username(), o.password() == null ? "" : o.password());
    }
    if (o.ssl()) {
      b.withSslContext(ShellTls.context(System.getenv("SSL_CERTFILE"), System.getenv("SSL_VALIDATE")));
    }
    return b.build();
  }

  /**
   * Opens and closes one TCP connection first: the driver reports a refused connection only as
   * a closed channel, and the operator should read "Connection refused".
   */
  private static void probe(Options o) {
    try (Socket s = new Socket()) {
      s.connect(new InetSocketAddress(o.host(), o.port()), o.connectTimeoutSeconds() * 1000);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** cqlsh's words for a node it cannot reach. */
  static String connectionError(Options o, Throwable e) {
    String address = o.host() + ":" + o.port();
    Throwable cause = e;
    if (e instanceof AllNodesFailedException a && !a.getAllErrors().isEmpty()) {
      cause = a.getAllErrors().values().iterator().next().get(0);
    }
    while (cause.getCause() != null && !(cause instanceof IOException)) {
      cause = cause.getCause();
    }
    String tried = "Tried connecting to [('" + o.host() + "', " + o.port() + ")]. Last error: ";
    if (cause instanceof ConnectException) {
      return "Connection error: ('Unable to connect to any servers', {'" + address
          + "': ConnectionRefusedError(111, \"" + tried + "Connection refused\")})";
    }
    if (cause instanceof SocketTimeoutException) {
      return "Connection error: ('Unable to connect to any servers', {'" + address
          + "': OSError(None, \"" + tried + "timed out\")})";
    }
    if (cause instanceof UnknownHostException) {
      return "Connection error: ('Unable to connect to any servers', {'" + address
          + "': gaierror(-2, 'Name or service not known')})";
    }
    return "Connection error: ('Unable to connect to any servers', {'" + address + "': '"
        + String.valueOf(cause.getMessage()).replace('\'', '"') + "'})";
  }

  private static String product(Row local) {
    if (local == null) {
      return "Cassandra";
    }
    return "Cassandra " + local.getString("release_version");
  }

  static String version() {
    String v = CqlshMain.class.getPackage().getImplementationVersion();
    return v == null ? "6.2.0 (Cassette)" : v + " (Cassette)";
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " option requires an argument");
    }
    return args[i];
  }

  private static int port(String s) {
    try {
      int p = Integer.parseInt(s.strip());
      if (p > 0 && p < 65536) {
        return p;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException("invalid port '" + s + "'");
  }

  private static int seconds(String s, String option) {
    try {
      int v = Integer.parseInt(s.strip());
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new IllegalArgumentException(option + " needs a positive number of seconds, not '" + s + "'");
  }
}
