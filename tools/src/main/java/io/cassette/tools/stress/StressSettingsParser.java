package io.cassette.tools.stress;

import static io.cassette.tools.stress.OptionSpec.flag;
import static io.cassette.tools.stress.OptionSpec.value;

import io.cassette.tools.stress.StressSettings.ColumnSettings;
import io.cassette.tools.stress.StressSettings.CommandSettings;
import io.cassette.tools.stress.StressSettings.ErrorSettings;
import io.cassette.tools.stress.StressSettings.GraphSettings;
import io.cassette.tools.stress.StressSettings.LogSettings;
import io.cassette.tools.stress.StressSettings.ModeSettings;
import io.cassette.tools.stress.StressSettings.PopulationSettings;
import io.cassette.tools.stress.StressSettings.RateSettings;
import io.cassette.tools.stress.StressSettings.SchemaSettings;
import io.cassette.tools.stress.StressSettings.Truncate;
import java.text.SimpleDateFormat;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Parses cassandra-stress's command line: {@code COMMAND [command options] [-GROUP [group
 * options]]...}. The first word is the command; each word starting with '-' opens an option
 * group whose options are the words up to the next group. Spaces around '=', ',' and
 * parentheses are dropped first, as stress does, so {@code ratio( write=1, read=3 )} works.
 *
 * <p>Defaults follow cassandra-stress 5.0: keyspace1 with SimpleStrategy and replication
 * factor 1, five 34-byte columns C0..C4, consistency LOCAL_ONE, prepared statements, port 9042,
 * 200 threads for a counted write and a thread ramp otherwise, seq=1..N for writes and
 * gaussian(1..N) for reads.
 */
public final class StressSettingsParser {
  /** Groups this tool accepts, for the "unknown option group" error. */
  static final List<String> GROUPS = List.of("-rate", "-pop", "-col", "-schema", "-mode", "-node",
      "-port", "-log", "-graph", "-errors");

  private static final String DEFAULT_STRATEGY = "org.apache.cassandra.locator.SimpleStrategy";

  private StressSettingsParser() {}

  /** Parses the arguments; throws {@link ArgumentException} for anything not accepted. */
  public static StressSettings parse(String... args) {
    Map<String, List<String>> groups = group(repair(args));
    String commandName = groups.keySet().iterator().next();
    List<String> commandTokens = groups.remove(commandName);
    CommandSettings command = command(commandName, commandTokens);
    for (String g : groups.keySet()) {
      if (!GROUPS.contains(g)) {
        throw new ArgumentException("Unknown option group '" + g + "'; accepted: " + String.join(" ", GROUPS)
            + "\n" + usage());
      }
    }
    RateSettings rate = rate(groups.get("-rate"), command);
    PopulationSettings population = population(groups.get("-pop"), command);
    ColumnSettings columns = columns(groups.get("-col"));
    SchemaSettings schema = schema(groups.get("-schema"), command);
    ModeSettings mode = mode(groups.get("-mode"));
    List<String> nodes = nodes(groups.get("-node"));
    OptionGroup ports = OptionGroup.select("-port", groups.getOrDefault("-port", List.of()), PORT);
    int port = port(ports, "native=");
    int jmxPort = port(ports, "jmx=");
    LogSettings log = log(groups.get("-log"));
    GraphSettings graph = graph(groups.get("-graph"), command);
    ErrorSettings errors = errors(groups.get("-errors"));
    return new StressSettings(command, rate, population, columns, schema, mode, nodes, port, jmxPort, log,
        graph, errors, List.of(args));
  }

  /** The top-level usage: the commands and option groups. */
  public static String usage() {
    return String.join("\n",
        "Usage: cassette stress <command> [options]",
        "Commands:",
        "  write          multiple concurrent writes against keyspace1.standard1",
        "  read           multiple concurrent reads of keyspace1.standard1 (write first)",
        "  mixed          interleaved reads and writes: mixed ratio(write=1,read=3) ...",
        "  counter_write  counter increments on keyspace1.counter1",
        "  counter_read   counter reads of keyspace1.counter1",
        "  user           a YAML profile: user profile=FILE.yaml ops(insert=1,q1=2) ...",
        "  help           this text; 'help <command>' or 'help -<group>' for its options",
        "Command options: n=N | duration=N[smh] | [err<0.02 n>30 n<200]; [no-warmup]"
            + " [truncate=never|once|always] [cl=LOCAL_ONE]",
        "Option groups:",
        "  -rate threads=N [fixed=N/s | throttle=N/s]  |  -rate [threads>=N] [threads<=N] [auto]",
        "  -pop seq=A..B [no-wrap]  |  -pop dist=DIST(?)",
        "  -col [n=DIST(?)] [size=DIST(?)] [names=A,B] [slice]",
        "  -schema [replication(factor=N,strategy=?)] [keyspace=?] [compression=?]",
        "  -mode [native] [cql3] [prepared] [protocolVersion=N] [user=?] [password=?]",
        "  -node HOST[,HOST...]      -port [native=N]",
        "  -log [interval=N[s|ms]] [file=?] [hdrfile=?] [no-summary] [no-settings]",
        "  -graph file=? [title=?] [revision=?] [op=?]",
        "  -errors [ignore] [retries=N]");
  }

  /** The accepted forms of one group or command, for {@code help X}. */
  public static String usage(String topic) {
    String t = topic.toLowerCase(Locale.ROOT);
    return switch (t) {
      case "-rate" -> OptionGroup.usage("-rate", RATE_THREADS, RATE_AUTO);
      case "-pop" -> OptionGroup.usage("-pop", POP_SEQ, POP_DIST);
      case "-col" -> OptionGroup.usage("-col", COL);
      case "-schema" -> OptionGroup.usage("-schema", SCHEMA);
      case "-mode" -> OptionGroup.usage("-mode", MODE);
      case "-node" -> OptionGroup.usage("-node", NODE);
      case "-port" -> OptionGroup.usage("-port", PORT);
      case "-log" -> OptionGroup.usage("-log", LOG);
      case "-graph" -> OptionGroup.usage("-graph", GRAPH);
      case "-errors" -> OptionGroup.usage("-errors", ERRORS);
      default -> {
        Command c = Command.byName(t);
        if (c == null) {
          yield usage();
        }
        OptionForm[] forms = commandForms(c);
        yield OptionGroup.usage(c.cliName(), forms);
      }
    };
  }

  /** Joins the words and drops the spaces stress drops around '=', ',' and parentheses. */
  static List<String> repair(String... args) {
    String joined = String.join(" ", args)
        .replaceAll("\\s+([,=()])", "$1")
        .replaceAll("([,=(])\\s+", "$1")
        .trim();
    if (joined.isEmpty()) {
      throw new ArgumentException("No command given\n" + usage());
    }
    return Arrays.asList(joined.split(" +"));
  }

  /** Splits the words into the command and its option groups, in order. */
  static Map<String, List<String>> group(List<String> words) {
    Map<String, List<String>> groups = new LinkedHashMap<>();
    String key = null;
    for (int i = 0; i < words.size(); i++) {
      String w = words.get(i);
      if (i == 0 || w.startsWith("-")) {
        key = w.toLowerCase(Locale.ROOT);
        if (groups.put(key, new ArrayList<>()) != null) {
          throw new ArgumentException(key + " is defined multiple times. Each option/command can be"
              + " specified at most once.");
        }
      } else {
        groups.get(key).add(w);
      }
    }
    return groups;
  }

  // ---- the command ---------------------------------------------------------------------------

  private static final OptionSpec NO_WARMUP = flag("no-warmup", "Do not warmup the process");
  private static final OptionSpec TRUNCATE = value("truncate=", "never|once|always", "never", false,
      "never|once|always", "Truncate the table: never, before performing any work, or before each iteration");
  private static final OptionSpec CL = value("cl=",
      "ONE|QUORUM|LOCAL_QUORUM|EACH_QUORUM|ALL|ANY|TWO|THREE|LOCAL_ONE|SERIAL|LOCAL_SERIAL", "LOCAL_ONE",
      false, "?", "Consistency level to use");
  private static final OptionSpec COUNT = value("n=", "[0-9]+[bmk]?", null, true, "N",
      "Number of operations to perform");
  private static final OptionSpec DURATION = value("duration=", "[0-9]+[smh]", null, true, "N[smh]",
      "Time to run in (in seconds, minutes or hours)");
  private static final OptionSpec ERR = value("err<", "0\\.[0-9]+", "0.02", false, "0.NN",
      "Run until the standard error of the mean is below this fraction");
  private static final OptionSpec N_MIN = value("n>", "[0-9]+", "30", false, "N",
      "Run at least this many iterations before accepting uncertainty convergence");
  private static final OptionSpec N_MAX = value("n<", "[0-9]+", "200", false, "N",
      "Run at most this many iterations before accepting uncertainty convergence");
  private static final OptionSpec ADD = value("add=", ".+", "FIXED(1)", false, "DIST(?)",
      "Distribution of value of counter increments");
  private static final OptionSpec RATIO = value("ratio(", "[^()]*\\)", "read=1,write=1)", false,
      "read=N,write=N,...)", "Ratios of the operations to perform, e.g. ratio(write=1,read=3)");
  private static final OptionSpec CLUSTERING = value("clustering=", ".+", "GAUSSIAN(1..10)", false,
      "DIST(?)", "Distribution clustering runs of operations of the same kind");
  private static final OptionSpec PROFILE = value("profile=", ".+", null, true, "FILE.yaml",
      "The YAML profile describing schema and queries");
  private static final OptionSpec OPS = value("ops(", "[^()]*\\)", null, true, "insert=N,QUERY=N,...)",
      "Ratios of the profile's operations, e.g. ops(insert=1,q1=2)");

  private static OptionForm[] commandForms(Command c) {
    List<OptionSpec> extra = switch (c) {
      case COUNTER_WRITE -> List.of(ADD);
      case MIXED -> List.of(RATIO, CLUSTERING, ADD);
      case USER -> List.of(PROFILE, OPS, CLUSTERING);
      default -> List.of();
    };
    return new OptionForm[] {
        new OptionForm("count", concat(List.of(COUNT, NO_WARMUP, TRUNCATE, CL), extra)),
        new OptionForm("duration", concat(List.of(DURATION, NO_WARMUP, TRUNCATE, CL), extra)),
        new OptionForm("uncertainty", concat(List.of(ERR, N_MIN, N_MAX, NO_WARMUP, TRUNCATE, CL), extra)),
    };
  }

  private static CommandSettings command(String name, List<String> tokens) {
    Command type = Command.byName(name);
    if (type == null) {
      throw new ArgumentException("Unknown command '" + name + "'\n" + usage());
    }
    OptionGroup g = OptionGroup.select(type.cliName(), tokens, commandForms(type));
    long count = -1;
    long duration = 0;
    String durationText = null;
    double uncertainty = -1;
    int nMin = -1;
    int nMax = -1;
    switch (g.formIndex()) {
      case 0 -> count = Distribution.parseLong(g.get("n="));
      case 1 -> {
        durationText = g.get("duration=");
        long amount = Long.parseLong(durationText.substring(0, durationText.length() - 1));
        char unit = Character.toLowerCase(durationText.charAt(durationText.length() - 1));
        duration = amount * (unit == 'h' ? 3600 : unit == 'm' ? 60 : 1);
      }
      default -> {
        uncertainty = Double.parseDouble(g.get("err<"));
        nMin = Integer.parseInt(g.get("n>"));
        nMax = Integer.parseInt(g.get("n<"));
      }
    }
    Map<String, Double> ratios = Map.of();
    if (type == Command.MIXED) {
      ratios = ratios("ratio(", g.get("ratio("), true);
    } else if (type == Command.USER) {
      ratios = ratios("ops(", g.get("ops("), false);
    }
    Distribution clustering = g.has("clustering=") ? Distribution.parse(g.get("clustering=")) : null;
    Distribution add = g.has("add=") ? Distribution.parse(g.get("add=")) : Distribution.fixed(1);
    return new CommandSettings(type, count, duration, durationText, uncertainty, nMin, nMax,
        g.has("no-warmup"), Truncate.valueOf(g.get("truncate=").toUpperCase(Locale.ROOT)),
        g.get("cl=").toUpperCase(Locale.ROOT), ratios, clustering, add, g.get("profile="));
  }

  /** Parses {@code write=1,read=3)} (the text after "ratio(") into name to weight. */
  static Map<String, Double> ratios(String what, String body, boolean predefined) {
    Map<String, Double> ratios = new LinkedHashMap<>();
    String inner = body.substring(0, body.length() - 1);
    for (String part : inner.split(",")) {
      String[] kv = part.split("=", 2);
      String key = kv[0].trim().toLowerCase(Locale.ROOT);
      double weight;
      try {
        weight = kv.length == 2 ? Double.parseDouble(kv[1].trim()) : Double.NaN;
      } catch (NumberFormatException e) {
        weight = Double.NaN;
      }
      if (key.isEmpty() || Double.isNaN(weight) || weight < 0) {
        throw new ArgumentException("Invalid " + what + "...) entry '" + part + "': expected NAME=WEIGHT,"
            + " e.g. " + (predefined ? "ratio(write=1,read=3)" : "ops(insert=1,q1=2)"));
      }
      if (predefined) {
        Command c = Command.byName(key);
        if (c == null || c == Command.MIXED || c == Command.USER) {
          throw new ArgumentException("Invalid ratio(...) operation '" + key + "': accepted are read,"
              + " write, counter_read, counter_write, e.g. ratio(write=1,read=3)");
        }
        key = c.name();
      }
      if (weight > 0) {
        ratios.put(key, weight);
      }
    }
    if (ratios.isEmpty()) {
      throw new ArgumentException("Must specify at least one operation with a non-zero ratio in "
          + what + body);
    }
    return ratios;
  }

  // ---- -rate ---------------------------------------------------------------------------------

  private static final OptionForm RATE_THREADS = new OptionForm("threads", List.of(
      value("threads=", "[0-9]+", null, true, "N", "run this many clients concurrently"),
      value("throttle=", "[0-9]+/s", "0/s", false, "N/s",
          "throttle operations per second across all clients to a maximum rate (or less) with no implied schedule"),
      value("fixed=", "[0-9]+/s", "0/s", false, "N/s",
          "expect fixed rate of operations per second across all clients with implied schedule")));
  private static final OptionForm RATE_AUTO = new OptionForm("auto", List.of(
      value("threads>=", "[0-9]+", "4", false, "N", "run at least this many clients concurrently"),
      value("threads<=", "[0-9]+", "1000", false, "N", "run at most this many clients concurrently"),
      flag("auto", "stop increasing threads once throughput saturates")));

  private static RateSettings rate(List<String> tokens, CommandSettings command) {
    if (tokens == null) {
      if ((command.type() == Command.WRITE || command.type() == Command.COUNTER_WRITE) && command.count() > 0) {
        return new RateSettings(200, 0, false, false, -1, -1);
      }
      return new RateSettings(-1, 0, false, true, 4, 1000);
    }
    OptionGroup g = OptionGroup.select("-rate", tokens, RATE_THREADS, RATE_AUTO);
    if (g.formIndex() == 0) {
      int threads = Integer.parseInt(g.get("threads="));
      int throttle = perSecond(g.get("throttle="));
      int fixed = perSecond(g.get("fixed="));
      if (threads <= 0) {
        throw new ArgumentException("Invalid -rate threads=0: at least one thread is needed\n"
            + OptionGroup.usage("-rate", RATE_THREADS, RATE_AUTO));
      }
      if (throttle != 0 && fixed != 0) {
        throw new ArgumentException("-rate: can't have both fixed and throttle set, choose one.\n"
            + OptionGroup.usage("-rate", RATE_THREADS, RATE_AUTO));
      }
      return new RateSettings(threads, Math.max(throttle, fixed), fixed != 0, false, -1, -1);
    }
    int min = Integer.parseInt(g.get("threads>="));
    int max = Integer.parseInt(g.get("threads<="));
    if (min <= 0 || max < min) {
      throw new ArgumentException("Invalid -rate threads>=" + min + " threads<=" + max
          + ": need 0 < min <= max\n" + OptionGroup.usage("-rate", RATE_THREADS, RATE_AUTO));
    }
    return new RateSettings(-1, 0, false, g.has("auto"), min, max);
  }

  private static int perSecond(String v) {
    return Integer.parseInt(v.substring(0, v.length() - 2));
  }

  // ---- -pop ----------------------------------------------------------------------------------

  private static final OptionForm POP_SEQ = new OptionForm("seq", List.of(
      value("seq=", "[0-9]+[mbk]?\\.\\.+[0-9]+[mbk]?", null, true, "A..B", "Generate all seeds in sequence"),
      flag("no-wrap", "Terminate the stress test once all seeds in the range have been visited")));
  private static final OptionForm POP_DIST = new OptionForm("dist", List.of(
      value("dist=", ".+", null, true, "DIST(?)", "Seeds are selected from this distribution")));

  private static PopulationSettings population(List<String> tokens, CommandSettings command) {
    long limit = command.count() <= 0 ? 1_000_000 : command.count();
    if (tokens == null) {
      boolean sequential = command.type() == Command.WRITE || command.type() == Command.COUNTER_WRITE
          || (command.type() == Command.USER && command.ratios().keySet().equals(java.util.Set.of("insert")));
      if (sequential) {
        return new PopulationSettings(1, limit, true, null);
      }
      return new PopulationSettings(0, 0, false, Distribution.parse("gaussian(1.." + limit + ")"));
    }
    OptionGroup g = OptionGroup.select("-pop", tokens, POP_SEQ, POP_DIST);
    if (g.formIndex() == 0) {
      String[] bounds = g.get("seq=").split("\\.\\.+");
      long first = Distribution.parseLong(bounds[0]);
      long last = Distribution.parseLong(bounds[1]);
      if (first > last) {
        throw new ArgumentException("Invalid -pop seq=" + g.get("seq=") + ": first > last\n"
            + OptionGroup.usage("-pop", POP_SEQ, POP_DIST));
      }
      return new PopulationSettings(first, last, !g.has("no-wrap"), null);
    }
    return new PopulationSettings(0, 0, false, Distribution.parse(g.get("dist=")));
  }

  // ---- -col ----------------------------------------------------------------------------------

  private static final OptionForm COL = new OptionForm("col", List.of(
      value("n=", ".+", "FIXED(5)", false, "DIST(?)", "Cell count distribution, per operation"),
      value("size=", ".+", "FIXED(34)", false, "DIST(?)", "Cell size distribution"),
      value("names=", "[A-Za-z0-9_,]+", null, false, "A,B,...", "Column names (instead of C0..Cn-1)"),
      flag("slice", "If set, range slices will be used for reads, otherwise a names query will be")));

  private static ColumnSettings columns(List<String> tokens) {
    OptionGroup g = OptionGroup.select("-col", tokens == null ? List.of() : tokens, COL);
    Distribution size = distributionOrNumber(g.get("size="));
    Distribution count;
    List<String> names = new ArrayList<>();
    if (g.has("names=")) {
      names.addAll(Arrays.asList(g.get("names=").split(",")));
      count = Distribution.fixed(names.size());
    } else {
      count = distributionOrNumber(g.get("n="));
      for (int i = 0; i < count.max(); i++) {
        names.add("C" + i);
      }
    }
    if (size.min() < 0 || count.min() < 1 || count.max() > 1000) {
      throw new ArgumentException("Invalid -col: need size >= 0 and 1 <= n <= 1000\n" + OptionGroup.usage("-col", COL));
    }
    // Stress sorts the names as bytes (C0, C1, C10, C2, ...): the order of the CQL columns.
    names.sort(null);
    return new ColumnSettings(List.copyOf(names), size, count, g.has("slice"));
  }

  /** A distribution, or a bare number meaning FIXED(number) (a convenience stress lacks). */
  private static Distribution distributionOrNumber(String spec) {
    if (spec.matches("[0-9]+[kmb]?")) {
      return Distribution.fixed(Distribution.parseLong(spec));
    }
    return Distribution.parse(spec);
  }

  // ---- -schema -------------------------------------------------------------------------------

  private static final OptionForm SCHEMA = new OptionForm("schema", List.of(
      value("replication(", "[^()]*\\)", null, false, "factor=N,strategy=?,...)",
          "Define the replication strategy and any parameters"),
      value("keyspace=", "[A-Za-z0-9_]+", "keyspace1", false, "?", "The keyspace name to use"),
      value("compression=", ".+", null, false, "?",
          "Specify the compression to use for sstable, default:no compression")));

  private static SchemaSettings schema(List<String> tokens, CommandSettings command) {
    if (tokens != null && command.type() == Command.USER) {
      throw new ArgumentException("-schema can only be provided with predefined operations insert,"
          + " read, etc.; the 'user' command requires a schema yaml instead");
    }
    OptionGroup g = OptionGroup.select("-schema", tokens == null ? List.of() : tokens, SCHEMA);
    String strategy = DEFAULT_STRATEGY;
    String factor = "1";
    boolean factorGiven = false;
    Map<String, String> extra = new LinkedHashMap<>();
    if (g.has("replication(")) {
      String body = g.get("replication(");
      String inner = body.substring(0, body.length() - 1);
      for (String part : inner.isEmpty() ? new String[0] : inner.split(",")) {
        String[] kv = part.split("=", 2);
        if (kv.length != 2 || kv[0].isBlank() || kv[1].isBlank()) {
          throw new ArgumentException("Invalid -schema replication(...) entry '" + part
              + "': expected KEY=VALUE\n" + OptionGroup.usage("-schema", SCHEMA));
        }
        switch (kv[0].toLowerCase(Locale.ROOT)) {
          case "strategy" -> strategy = kv[1].contains(".") ? kv[1] : "org.apache.cassandra.locator." + kv[1];
          case "factor" -> {
            if (!kv[1].matches("[0-9]+")) {
              throw new ArgumentException("Invalid -schema replication(factor=" + kv[1] + "): expected a number\n"
                  + OptionGroup.usage("-schema", SCHEMA));
            }
            factor = kv[1];
            factorGiven = true;
          }
          default -> extra.put(kv[0], kv[1]);
        }
      }
    }
    Map<String, String> options = new LinkedHashMap<>(extra);
    if (!options.containsKey("replication_factor") && (strategy.equals(DEFAULT_STRATEGY) || factorGiven)) {
      options.put("replication_factor", factor);
    }
    return new SchemaSettings(g.get("keyspace="), strategy, options, g.get("compression="));
  }

  // ---- -mode ---------------------------------------------------------------------------------

  private static final OptionForm MODE = new OptionForm("mode", List.of(
      flag("native", "(accepted and ignored, as in cassandra-stress 5.0: always native)"),
      flag("cql3", "(accepted and ignored, as in cassandra-stress 5.0: always CQL3)"),
      flag("prepared", "use prepared statements"),
      value("protocolVersion=", "[3-5]", null, false, "N", "CQL Protocol Version"),
      value("user=", ".+", null, false, "?", "CQL user"),
      value("password=", ".+", null, false, "?", "CQL password"),
      value("compression=", "none", "none", false, "none", "transport compression (only none)"),
      value("connectionsPerHost=", "[0-9]+", "8", false, "N", "Number of connections per host"),
      value("maxPending=", "[0-9]+", "128", false, "N", "Maximum pending requests per connection")));

  private static ModeSettings mode(List<String> tokens) {
    if (tokens == null) {
      return new ModeSettings(0, true, null, null, 8, 128);
    }
    OptionGroup g = OptionGroup.select("-mode", tokens, MODE);
    if (g.has("user=") != g.has("password=")) {
      throw new ArgumentException("-mode: user= and password= go together\n" + OptionGroup.usage("-mode", MODE));
    }
    int version = g.has("protocolVersion=") ? Integer.parseInt(g.get("protocolVersion=")) : 0;
    return new ModeSettings(version, g.has("prepared"), g.get("user="), g.get("password="),
        Integer.parseInt(g.get("connectionsPerHost=")), Integer.parseInt(g.get("maxPending=")));
  }

  // ---- -node, -port --------------------------------------------------------------------------

  private static final OptionForm NODE = new OptionForm("node", List.of(
      value("", "[A-Za-z0-9_.:\\-\\[\\]]+(,[A-Za-z0-9_.:\\-\\[\\]]+)*", null, false, "HOST[,HOST...]",
          "comma separated nodes to connect to (default localhost)")));

  private static List<String> nodes(List<String> tokens) {
    if (tokens == null || tokens.isEmpty()) {
      return List.of("localhost");
    }
    List<String> nodes = new ArrayList<>();
    for (String t : tokens) {
      if (t.equalsIgnoreCase("whitelist")) {
        continue;
      }
      OptionGroup.select("-node", List.of(t), NODE);
      nodes.addAll(Arrays.asList(t.split(",")));
    }
    return List.copyOf(nodes);
  }

  private static final OptionForm PORT = new OptionForm("port", List.of(
      value("native=", "[0-9]+", "9042", false, "N", "Use this port for the native protocol"),
      value("jmx=", "[0-9]+", "7199", false, "N", "Use this port for JMX (the servers' GC statistics)")));

  private static int port(OptionGroup g, String option) {
    int port = Integer.parseInt(g.get(option));
    if (port <= 0 || port > 65535) {
      throw new ArgumentException("Invalid -port " + option + port + ": expected 1..65535\n"
          + OptionGroup.usage("-port", PORT));
    }
    return port;
  }

  // ---- -log, -graph, -errors -----------------------------------------------------------------

  private static final OptionForm LOG = new OptionForm("log", List.of(
      value("interval=", "[0-9]+(ms|s|)", "1s", false, "N[s|ms]", "Log progress every <value> seconds or milliseconds"),
      value("file=", ".+", null, false, "?", "Log to a file"),
      value("hdrfile=", ".+", null, false, "?", "Log the latency histograms (HdrHistogram log) to a file"),
      flag("no-summary", "Disable printing of aggregate statistics at the end of a test"),
      flag("no-settings", "Disable printing of settings values at start of test"),
      value("level=", "minimal|normal|verbose", "normal", false, "?", "Logging level (accepted)")));

  private static LogSettings log(List<String> tokens) {
    OptionGroup g = OptionGroup.select("-log", tokens == null ? List.of() : tokens, LOG);
    String interval = g.get("interval=");
    int millis;
    if (interval.endsWith("ms")) {
      millis = Integer.parseInt(interval.substring(0, interval.length() - 2));
    } else if (interval.endsWith("s")) {
      millis = 1000 * Integer.parseInt(interval.substring(0, interval.length() - 1));
    } else {
      millis = 1000 * Integer.parseInt(interval);
    }
    if (millis <= 0) {
      throw new ArgumentException("Log interval must be greater than zero\n" + OptionGroup.usage("-log", LOG));
    }
    return new LogSettings(millis, g.get("file="), g.get("hdrfile="), g.has("no-summary"), g.has("no-settings"));
  }

  private static final OptionForm GRAPH = new OptionForm("graph", List.of(
      value("file=", ".+", null, true, "?", "HTML file to create or append to"),
      value("revision=", ".+", "unknown", false, "?", "Unique name to assign to the current configuration being stressed"),
      value("title=", ".+", null, false, "?", "Title for chart (current date by default)"),
      value("op=", ".+", null, false, "?", "Alternative name for current operation (stress op name used by default)")));

  private static GraphSettings graph(List<String> tokens, CommandSettings command) {
    if (tokens == null) {
      return new GraphSettings(null, null, null, null);
    }
    OptionGroup g = OptionGroup.select("-graph", tokens, GRAPH);
    String title = g.get("title=") != null ? g.get("title=")
        : "cassandra-stress - " + new SimpleDateFormat("yyyy-MM-dd HH:mm:ss").format(new Date());
    String op = g.get("op=") != null ? g.get("op=") : command.type().name();
    return new GraphSettings(g.get("file="), title, g.get("revision="), op);
  }

  private static final OptionForm ERRORS = new OptionForm("errors", List.of(
      flag("ignore", "Do not fail on errors"),
      value("retries=", "[0-9]+", "9", false, "N", "Number of tries to perform for each operation before failing")));

  private static ErrorSettings errors(List<String> tokens) {
    OptionGroup g = OptionGroup.select("-errors", tokens == null ? List.of() : tokens, ERRORS);
    return new ErrorSettings(g.has("ignore"), Integer.parseInt(g.get("retries=")) + 1);
  }

  private static List<OptionSpec> concat(List<OptionSpec> a, List<OptionSpec> b) {
    List<OptionSpec> r = new ArrayList<>(a);
    r.addAll(b);
    return r;
  }
}
