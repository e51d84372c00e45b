package io.cassette.tools.cqlsh;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.type.DataType;
import io.cassette.tools.cqlsh.StatementSplitter.Statement;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.UserInterruptException;

/**
 * The shell's command loop and its settings (EXPAND, PAGING, CONSISTENCY): reads statements
 * from a terminal or a script, runs shell commands itself and CQL through the driver, prints
 * results and errors as cqlsh does. One per session; not thread-safe.
 */
final class Shell {
  /** cqlsh's default page size for interactive paging. */
  static final int DEFAULT_PAGE_SIZE = 100;
  static final String PROMPT = "cqlsh> ";
  static final String CONTINUATION_PROMPT = "   ... ";
  /** SOURCE may include files that SOURCE others; this bounds accidental recursion. */
  static final int MAX_SOURCE_DEPTH = 16;

  private final CqlSession session;
  private final PrintStream out;
  private final PrintStream err;
  private final String clusterName;
  private final String address;
  private final String version;
  /** The terminal when interactive; null for scripts, -e and piped input. */
  private final LineReader terminal;
  private boolean expand;
  /** TRACING ON: every statement is traced and its trace printed after the result, as cqlsh does. */
  private boolean tracing;
  private boolean paging = true;
  private int pageSize = DEFAULT_PAGE_SIZE;
  private ConsistencyLevel consistency = DefaultConsistencyLevel.ONE;
  private ConsistencyLevel serialConsistency = DefaultConsistencyLevel.SERIAL;
  private boolean failed;
  private boolean exitRequested;
  private int sourceDepth;

  Shell(CqlSession session, PrintStream out, PrintStream err, LineReader terminal, String clusterName,
        String address, String version) {
    this.session = session;
    this.out = out;
    this.err = err;
    this.terminal = terminal;
    this.clusterName = clusterName;
    this.address = address;
    this.version = version;
  }

  /** True when any statement failed (scripts then exit with status 2, as cqlsh does). */
  boolean failed() {
    return failed;
  }

  String prompt() {
    return session.getKeyspace().map(k -> "cqlsh:" + k.asCql(true) + "> ").orElse(PROMPT);
  }

  /** The interactive loop: until EXIT, QUIT or end of input (Ctrl-D). */
  void interactive() {
    StatementSplitter splitter = new StatementSplitter();
    while (!exitRequested) {
      String line;
      try {
        line = terminal.readLine(splitter.inStatement() ? CONTINUATION_PROMPT : prompt());
      } catch (UserInterruptException e) { // Ctrl-C drops the statement being typed
        splitter.reset();
        continue;
      } catch (EndOfFileException e) {
        out.println();
        return;
      }
      for (Statement s : splitter.addLine(line)) {
        execute(s, null);
        if (exitRequested) {
          return;
        }
      }
    }
  }

  /**
   * Runs every statement of a script.
   *
   * @param sourceName how errors name the input ("<stdin>" or the file), as in
   *                   {@code <stdin>:1:InvalidRequest: ...}
   */
  void script(BufferedReader in, String sourceName) throws IOException {
    StatementSplitter splitter = new StatementSplitter();
    String line;
    while (!exitRequested && (line = in.readLine()) != null) {
      for (Statement s : splitter.addLine(line)) {
        execute(s, sourceName);
        if (exitRequested) {
          return;
        }
      }
    }
    Statement rest = splitter.remainder();
    if (rest != null && !exitRequested) {
      execute(rest, sourceName);
    }
  }

  /** Runs one statement; errors are printed, never thrown. */
  void execute(Statement statement, String sourceName) {
    try {
      String text = statement.text();
      if (StatementSplitter.isShellCommand(text)) {
        shellCommand(text);
      } else {
        cql(text);
      }
    } catch (RuntimeException e) {
      failed = true;
      String message = ErrorFormatter.format(e);
      err.println(sourceName == null ? message : sourceName + ":" + statement.line() + ":" + message);
    }
  }

  private void cql(String text) {
    SimpleStatement st = SimpleStatement.newInstance(text).setConsistencyLevel(consistency)
        .setSerialConsistencyLevel(serialConsistency)
        .setPageSize(paging ? pageSize : Math.max(pageSize, 5000)).setTracing(tracing);
    ResultSet rs = session.execute(st);
    printRows(rs);
    for (String warning : rs.getExecutionInfo().getWarnings()) {
      err.println("\nWarnings :\n" + warning + "\n");
    }
    if (tracing && rs.getExecutionInfo().getTracingId() != null) {
      printTrace(rs.getExecutionInfo().getQueryTrace());
    }
  }

  /**
   * The trace as cqlsh prints it: the request, each event ("activity [thread]") with its time,
   * source and µs elapsed, then "Request complete" at the session's duration.
   */
  private void printTrace(com.datastax.oss.driver.api.core.cql.QueryTrace trace) {
    java.time.format.DateTimeFormatter time = java.time.format.DateTimeFormatter
        .ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS").withZone(java.time.ZoneId.systemDefault());
    // The driver's QueryTrace has no client address; cqlsh shows the session's.
    Row session = this.session.execute(SimpleStatement.newInstance(
        "SELECT client FROM system_traces.sessions WHERE session_id = ?", trace.getTracingId())).one();
    String client = session == null || session.getInetAddress(0) == null ? ""
        : session.getInetAddress(0).getHostAddress();
    String coordinator = trace.getCoordinatorAddress().getAddress().getHostAddress();
    List<List<String>> rows = new ArrayList<>();
    rows.add(List.of(trace.getRequestType(), time.format(java.time.Instant.ofEpochMilli(trace.getStartedAt())),
        coordinator, "0", client));
    for (com.datastax.oss.driver.api.core.cql.TraceEvent e : trace.getEvents()) {
      rows.add(List.of(e.getActivity() + " [" + e.getThreadName() + "]",
          time.format(java.time.Instant.ofEpochMilli(e.getTimestamp())),
          e.getSourceAddress().getAddress().getHostAddress(), Integer.toString(e.getSourceElapsedMicros()), client));
    }
    rows.add(List.of("Request complete", time.format(java.time.Instant.ofEpochMilli(trace.getStartedAt())
        .plusNanos(trace.getDurationMicros() * 1000L)), coordinator, Integer.toString(trace.getDurationMicros()),
        client));
    out.println();
    out.println("Tracing session: " + trace.getTracingId());
    out.println();
    out.print(ResultPrinter.table(List.of("activity", "timestamp", "source", "source_elapsed", "client"), rows));
    out.println();
  }

  private void tracing(String args) {
    switch (args.toUpperCase(java.util.Locale.ROOT)) {
      case "" -> out.println(tracing ? "Tracing is currently enabled. Use TRACING OFF to disable"
          : "Tracing is currently disabled. Use TRACING ON to enable.");
      case "ON" -> {
        tracing = true;
        out.println("Now Tracing is enabled");
      }
      case "OFF" -> {
        tracing = false;
        out.println("Disabled Tracing.");
      }
      default -> throw new ShellException("Improper TRACING command.");
    }
  }

  /** Prints a rows result as cqlsh does; other results print nothing. */
  void printRows(ResultSet rs) {
    ColumnDefinitions defs = rs.getColumnDefinitions();
    if (defs.size() == 0) {
      return;
    }
    List<String> names = new ArrayList<>(defs.size());
    List<DataType> types = new ArrayList<>(defs.size());
    for (ColumnDefinition d : defs) {
      names.add(d.getName().asInternal());
      types.add(d.getType());
    }
    boolean tty = terminal != null;
    boolean pausing = tty && paging;
    out.println();
    int printed = 0;
    boolean first = true;
    Iterator<Row> rows = rs.iterator();
    // One page at a time, as the server sends them, so memory holds one page however large
    // the result; on a terminal with paging on, ---MORE--- waits between pages.
    while (true) {
      List<List<String>> page = new ArrayList<>();
      for (int n = rs.getAvailableWithoutFetching(); n > 0; n--) {
        page.add(format(rows.next(), types));
      }
      if (!page.isEmpty() || first) {
        printPage(names, page, first || tty, printed + 1, tty);
        printed += page.size();
      }
      first = false;
      if (rs.isFullyFetched()) {
        break;
      }
      if (pausing) {
        try {
          terminal.readLine("---MORE---");
        } catch (UserInterruptException | EndOfFileException e) {
          break;
        }
      }
      if (!rows.hasNext()) { // fetches the next page
        break;
      }
    }
    if (!tty) {
      out.println();
    }
    out.println("(" + printed + " rows)");
  }

  private static List<String> format(Row row, List<DataType> types) {
    List<String> cells = new ArrayList<>(types.size());
    for (int i = 0; i < types.size(); i++) {
      // isNull first: the driver returns an empty collection for a null one.
      cells.add(row.isNull(i) ? "null" : ValueFormatter.format(row.getObject(i), types.get(i)));
    }
    return cells;
  }

  private void printPage(List<String> names, List<List<String>> page, boolean withHeader,
                         int firstRow, boolean tty) {
    if (page.isEmpty()) {
      out.print(ResultPrinter.table(names, page));
      out.println();
      return;
    }
    if (expand) {
      out.print(ResultPrinter.expanded(names, page, firstRow));
      return;
    }
    String table = ResultPrinter.table(names, page);
    if (!withHeader) {
      table = table.substring(table.indexOf('\n', table.indexOf('\n') + 1) + 1);
    }
    out.print(table);
    if (tty) {
      out.println();
    }
  }

  // ---- shell commands ----

  private void shellCommand(String text) {
    String body = text.strip();
    if (body.endsWith(";")) {
      body = body.substring(0, body.length() - 1).strip();
    }
    String command = StatementSplitter.firstWord(body);
    String args = body.substring(Math.min(body.length(), command.length())).strip();
    switch (command) {
      case "DESCRIBE", "DESC" -> {
        session.refreshSchema();
        out.print(Describer.describe(session.getMetadata(), args,
            session.getKeyspace().map(CqlIdentifier::asInternal).orElse(null), clusterName));
      }
      case "EXPAND" -> expand(args);
      case "TRACING" -> tracing(args);
      case "PAGING" -> paging(args);
      case "CONSISTENCY" -> consistency(args);
      case "SERIAL" -> serialConsistency(args);
      case "SOURCE" -> source(args);
      case "COPY" -> {
        session.refreshSchema();
        CopyCommand.run(session, CopyCommand.parse(body,
            session.getKeyspace().map(CqlIdentifier::asInternal).orElse(null), Path.of("")), consistency, out);
      }
      case "EXIT", "QUIT" -> exitRequested = true;
      case "SHOW" -> show(args);
      case "CLEAR", "CLS" -> out.print("\033[H\033[2J");
      case "HELP", "?" -> out.print(HELP);
      default -> throw new ShellException(command + " is not supported by this shell.");
    }
  }

  private void expand(String args) {
    switch (args.toUpperCase(Locale.ROOT)) {
      case "" -> out.println(expand ? "Expanded output is currently enabled. Use EXPAND OFF to disable"
          : "Expanded output is currently disabled. Use EXPAND ON to enable.");
      case "ON" -> {
        expand = true;
        out.println("Now Expanded output is enabled");
      }
      case "OFF" -> {
        expand = false;
        out.println("Disabled Expanded output.");
      }
      default -> throw new ShellException("Improper EXPAND command.");
    }
  }

  private void paging(String args) {
    String a = args.toUpperCase(Locale.ROOT);
    if (a.isEmpty()) {
      out.println(paging ? "Query paging is currently enabled. Use PAGING OFF to disable\nPage size: "
          + pageSize : "Query paging is currently disabled. Use PAGING ON to enable.");
    } else if (a.equals("ON")) {
      paging = true;
      out.println("Now Query paging is enabled\nPage size: " + pageSize);
    } else if (a.equals("OFF")) {
      paging = false;
      out.println("Disabled Query paging.");
    } else if (a.matches("\\d{1,9}") && Integer.parseInt(a) > 0) {
      paging = true;
      pageSize = Integer.parseInt(a);
      out.println("Page size: " + pageSize);
    } else {
      throw new ShellException("Improper PAGING command.");
    }
  }

  private void consistency(String args) {
    if (args.isEmpty()) {
      out.println("Current consistency level is " + consistency.name() + ".");
      return;
    }
    consistency = level(args, "CONSISTENCY");
    out.println("Consistency level set to " + consistency.name() + ".");
  }

  private void serialConsistency(String args) {
    String[] words = args.split("\\s+", 2);
    if (!words[0].equalsIgnoreCase("CONSISTENCY")) {
      throw new ShellException("Improper SERIAL command.");
    }
    if (words.length == 1 || words[1].isBlank()) {
      out.println("Current serial consistency level is " + serialConsistency.name() + ".");
      return;
    }
    ConsistencyLevel level = level(words[1], "SERIAL CONSISTENCY");
    if (!level.isSerial()) {
      throw new ShellException("Improper SERIAL CONSISTENCY command.");
    }
    serialConsistency = level;
    out.println("Serial consistency level set to " + level.name() + ".");
  }

  private static ConsistencyLevel level(String name, String command) {
    try {
      return DefaultConsistencyLevel.valueOf(name.strip().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      throw new ShellException("Improper " + command + " command.");
    }
  }

  private void source(String args) {
    String file = args.strip();
    if (file.length() >= 2 && (file.startsWith("'") && file.endsWith("'")
        || file.startsWith("\"") && file.endsWith("\""))) {
      file = file.substring(1, file.length() - 1);
    }
    if (file.isEmpty()) {
      throw new ShellException("Improper SOURCE command.");
    }
    if (file.startsWith("~")) {
      file = System.getProperty("user.home") + file.substring(1);
    }
    if (sourceDepth >= MAX_SOURCE_DEPTH) {
      throw new ShellException("SOURCE nested more than " + MAX_SOURCE_DEPTH + " deep: stopped at " + file);
    }
    Path path = Path.of(file);
    sourceDepth++;
    try (BufferedReader in = Files.newBufferedReader(path, StandardCharsets.UTF_8)) {
      script(in, file);
    } catch (IOException e) {
      throw new ShellException("Could not open '" + file + "': " + e.getMessage());
    } finally {
      sourceDepth--;
    }
  }

  private void show(String args) {
    switch (args.toUpperCase(Locale.ROOT)) {
      case "VERSION" -> out.println(version);
      case "HOST" -> out.println("Connected to " + clusterName + " at " + address + ".");
      default -> throw new ShellException("Improper SHOW command.");
    }
  }

  static final String HELP = """

      Documented shell commands:
      ===========================
      CLEAR  CONSISTENCY  COPY  DESC  DESCRIBE  EXIT  EXPAND  HELP  PAGING  QUIT
      SERIAL  SHOW  SOURCE  TRACING

      CQL statements end with ';' and may span lines. Shell commands end at the end of the line.
        DESCRIBE KEYSPACES | TABLES | TYPES | KEYSPACE [ks] | TABLE [ks.]t | TYPE [ks.]t
                 | SCHEMA | FULL SCHEMA | CLUSTER
        EXPAND [ON|OFF]            one block per row
        TRACING [ON|OFF]           print each statement's trace (system_traces)
        PAGING [ON|OFF|N]          pause after N rows (interactive only)
        CONSISTENCY [LEVEL]        SERIAL CONSISTENCY [SERIAL|LOCAL_SERIAL]
        SOURCE 'file'              run the statements of a file
        COPY [ks.]t [(c, ...)] TO|FROM 'file.csv' [WITH HEADER = true AND DELIMITER = ','
             AND QUOTE = '"' AND NULL = '' AND PAGESIZE = 1000 AND MAXINFLIGHT = 32]
        SHOW VERSION | HOST

      """;
}
