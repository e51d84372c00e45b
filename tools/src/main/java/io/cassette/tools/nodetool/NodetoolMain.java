package io.cassette.tools.nodetool;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code cassette nodetool [-h HOST] [-p PORT] COMMAND [ARGS]}: Cassandra's nodetool commands
 * against a node's HTTP admin port (default 127.0.0.1:9180) instead of JMX. Exit status 0 on
 * success, 1 with one line on stderr when the node is down or refuses, 2 for a bad command line.
 */
public final class NodetoolMain {
  static final String DEFAULT_HOST = "127.0.0.1";
  static final int DEFAULT_PORT = 9180;
  static final int EXIT_FAILURE = 1;
  static final int EXIT_USAGE = 2;

  private static final String USAGE = """
      usage: cassette nodetool [-h HOST] [-p PORT] [-u USER (-pw PASSWORD | -pwf FILE)]
                               [--ssl [--truststore FILE [--truststore-password PW]]
                                      [--keystore FILE [--keystore-password PW]]] COMMAND [ARGS]
        --ssl: https to an admin port with http_encryption_options; the node's certificate is
        checked against --truststore (PEM CA file, PKCS12 or JKS), else the JDK's trust
        (-Djavax.net.ssl.trustStore, as Cassandra's nodetool); --keystore: a client certificate.

      Talks to the node's HTTP admin port (http_port, default 9180), not JMX.

      Commands:
        status [KEYSPACE]                 the ring: state, address, load, tokens, owns, host ID
        ring [KEYSPACE]                   every token of every node
        info [-T]                         this node: load, uptime, heap, mode (-T: all tokens)
        describecluster                   cluster name, snitch, partitioner, schema versions
        getendpoints KS TABLE KEY         the nodes holding KEY's partition
        tablestats [-H] [KS[.TABLE]...]   per-table statistics (-H: human-readable sizes)
        tablehistograms [KS TABLE|KS.TABLE]  per-table latencies
        compactionstats                   pending compactions and the throughput cap
        flush [KS [TABLE...]]             write memtables to SSTables
        compact [KS [TABLE...]]           compact each table's SSTables into one
        cleanup [KS [TABLE...]]           drop data this node no longer owns
        snapshot [-t TAG] [-kt KS.T,...] [KS...]   hard-link SSTables under snapshots/TAG
        listsnapshots                     snapshots on disk and their sizes
        clearsnapshot (-t TAG | --all) [KS...]     delete snapshots
        drain                             flush everything before the node is stopped
        invalidaterolescache              forget cached roles (auth caches: a change holds at once)
        invalidatepermissionscache        forget cached permissions
        invalidatecredentialscache        forget cached password hashes
        getcompactionthroughput           the compaction throughput cap
        setcompactionthroughput MIB       change it (MiB/s; 0 = unthrottled)
        listpendinghints                  hints this node keeps for other nodes (ring)
        truncatehints [ENDPOINT]          delete the hints for ENDPOINT, or all of them (ring)
        repair [-pr] [-full] [--paxos-only] [KS [TABLE...]]  anti-entropy repair with Merkle trees (ring; -pr: primary ranges only; --paxos-only: only complete Paxos rounds in progress)
        decommission                      stream this node's ranges to the others, then leave the ring
        removenode HOSTID                 remove a dead node; the remaining replicas re-replicate its ranges
        netstats                          the node's mode and the streams in progress
        getstreamthroughput [-m]          the outbound streaming cap (Mb/s; -m: MiB/s)
        setstreamthroughput [-m] N        change it live (megabits/s; -m: MiB/s; 0 = unthrottled)
        settraceprobability P             trace this share (0 to 1) of CQL requests (system_traces)
        gettraceprobability               the share traced
        gcstats                           garbage collection since the previous call
        version                           the node's release version
      """;

  private NodetoolMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /** Runs one command; returns the exit status. */
  static int run(String[] args, PrintStream out, PrintStream err) {
    String host = System.getenv().getOrDefault("CASSETTE_NODETOOL_HOST", DEFAULT_HOST);
    int port = DEFAULT_PORT;
    String username = null;
    String password = null;
    String passwordFile = null;
    boolean ssl = false;
    String truststore = null;
    String truststorePassword = null;
    String keystore = null;
    String keystorePassword = null;
    List<String> rest = new ArrayList<>();
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "-h", "--host" -> host = value(args, ++i, a);
          case "-p", "--port" -> port = port(value(args, ++i, a));
          // Cassandra's nodetool names for the JMX credential; here a superuser role (or the token).
          case "-u", "--username" -> username = value(args, ++i, a);
          case "-pw", "--password" -> password = value(args, ++i, a);
          case "-pwf", "--password-file" -> passwordFile = value(args, ++i, a);
          case "--ssl" -> ssl = true;
          case "--truststore" -> truststore = value(args, ++i, a);
          case "--truststore-password" -> truststorePassword = value(args, ++i, a);
          case "--keystore" -> keystore = value(args, ++i, a);
          case "--keystore-password" -> keystorePassword = value(args, ++i, a);
          case "--help", "help" -> {
            out.print(USAGE);
            return 0;
          }
          default -> {
            if (a.startsWith("--host=")) {
              host = a.substring("--host=".length());
            } else if (a.startsWith("--port=")) {
              port = port(a.substring("--port=".length()));
            } else {
              rest.add(a);
            }
          }
        }
      }
      if (rest.isEmpty()) {
        err.print(USAGE);
        return EXIT_USAGE;
      }
      String command = rest.get(0);
      List<String> commandArgs = rest.subList(1, rest.size());
      if (!ssl && (truststore != null || keystore != null)) {
        throw new UsageException("--truststore and --keystore need --ssl");
      }
      javax.net.ssl.SSLContext tls = ssl ? AdminTls.context(truststore, truststorePassword, keystore, keystorePassword)
          : null;
      if (command.equals("decommission") || command.equals("removenode")) { // progress as it comes
        RingChangeRunner.run(new AdminClient(host, port, AdminAuthorization.header(username, password, passwordFile,
            System.getenv(AdminAuthorization.TOKEN_VARIABLE)), tls), command, commandArgs, out);
        out.flush();
        return 0;
      }
      if (command.equals("repair")) { // prints its progress as it comes, not at the end
        RepairRunner.run(new AdminClient(host, port, AdminAuthorization.header(username, password, passwordFile,
            System.getenv(AdminAuthorization.TOKEN_VARIABLE)), tls), commandArgs, out);
        out.flush();
        return 0;
      }
      out.print(execute(new AdminClient(host, port, AdminAuthorization.header(username, password, passwordFile,
          System.getenv(AdminAuthorization.TOKEN_VARIABLE)), tls), command, commandArgs));
      out.flush();
      return 0;
    } catch (UsageException e) {
      err.println("nodetool: " + e.getMessage());
      err.println("See 'cassette nodetool help'.");
      return EXIT_USAGE;
    } catch (NodetoolException e) {
      err.println("nodetool: " + e.getMessage());
      return EXIT_FAILURE;
    }
  }

  /** Whether a stream throughput command has -m (MiB/s) and no more than {@code values} other arguments. */
  private static boolean mebibytes(List<String> args, int values) {
    boolean mib = args.contains("-m") || args.contains("--mib");
    if (args.size() - (mib ? 1 : 0) != values) {
      throw new UsageException("unexpected arguments " + args);
    }
    return mib;
  }

  /** Runs {@code command} against the node and returns what to print. */
  static String execute(AdminClient node, String command, List<String> args) {
    Options o = new Options(args);
    switch (command) {
      case "status": {
        List<String> p = o.positionals(0, 1);
        return Reports.status(node.get("/api/status", p.isEmpty() ? Map.of() : Map.of("keyspace", p)));
      }
      case "ring": {
        List<String> p = o.positionals(0, 1);
        return Reports.ring(node.get("/api/status", p.isEmpty() ? Map.of() : Map.of("keyspace", p)));
      }
      case "getendpoints": {
        List<String> p = o.positionals(3, 3);
        return Reports.endpoints(node.get("/api/getendpoints", Map.of("keyspace", List.of(p.get(0)),
            "table", List.of(p.get(1)), "key", List.of(p.get(2)))));
      }
      case "info": {
        boolean tokens = o.flag("-T", "--tokens");
        o.positionals(0, 0);
        return Reports.info(node.get("/api/info", Map.of()), tokens);
      }
      case "describecluster":
        o.positionals(0, 0);
        return Reports.describeCluster(node.get("/api/describecluster", Map.of()));
      case "tablestats", "cfstats": {
        boolean human = o.flag("-H", "--human-readable");
        return Reports.tableStats(node.get("/api/tablestats", names(o.positionals(0, -1), false)), human);
      }
      case "tablehistograms", "cfhistograms": {
        List<String> p = o.positionals(0, 2);
        Map<String, List<String>> names = p.size() == 2
            ? Map.of("name", List.of(p.get(0) + "." + p.get(1)))
            : names(p, false);
        return Reports.tableHistograms(node.get("/api/tablestats", names));
      }
      case "compactionstats":
        o.flag("-H", "--human-readable");
        o.positionals(0, 0);
        return Reports.compactionStats(node.get("/api/compactionstats", Map.of()));
      case "flush", "compact", "cleanup":
        node.post("/api/" + command, names(o.positionals(0, -1), true));
        return "";
      case "drain":
        o.positionals(0, 0);
        node.post("/api/drain", Map.of());
        return "";
      case "invalidaterolescache", "invalidatepermissionscache", "invalidatecredentialscache":
        o.positionals(0, 0);
        node.post("/api/" + command, Map.of());
        return "";
      case "snapshot":
        return snapshot(node, o);
      case "listsnapshots":
        o.positionals(0, 0);
        return Reports.listSnapshots(node.get("/api/snapshots", Map.of()));
      case "clearsnapshot":
        return clearSnapshot(node, o);
      case "getcompactionthroughput":
        o.positionals(0, 0);
        return Reports.compactionThroughput(node.get("/api/compactionthroughput", Map.of()));
      case "setcompactionthroughput": {
        String mib = o.positionals(1, 1).get(0);
        if (!mib.matches("\\d{1,9}")) {
          throw new UsageException("setcompactionthroughput needs a whole number of MiB/s, not '"
              + mib + "'");
        }
        node.post("/api/compactionthroughput", Map.of("mib", List.of(mib)));
        return "";
      }
      case "netstats":
        o.positionals(0, 0);
        return StreamReports.netstats(node.get("/api/netstats", Map.of()));
      case "getstreamthroughput":
        return StreamReports.throughput(node.get("/api/streamthroughput", Map.of()),
            mebibytes(args, 0));
      case "setstreamthroughput": {
        boolean mib = args.contains("-m") || args.contains("--mib");
        List<String> values = args.stream().filter(a -> !a.equals("-m") && !a.equals("--mib")).toList();
        if (values.size() != 1) {
          throw new UsageException("setstreamthroughput needs one value");
        }
        node.post("/api/streamthroughput", Map.of("bytes",
            List.of(Long.toString(StreamReports.bytesPerSecond(values.get(0), mib)))));
        return "";
      }
      case "listpendinghints":
        o.positionals(0, 0);
        return Reports.pendingHints(node.get("/api/pendinghints", Map.of()));
      case "truncatehints": {
        List<String> endpoint = o.positionals(0, 1);
        node.post("/api/truncatehints", endpoint.isEmpty() ? Map.of() : Map.of("endpoint", endpoint));
        return "";
      }
      case "settraceprobability": {
        String p = o.positionals(1, 1).get(0);
        node.post("/api/traceprobability", Map.of("probability", List.of(p)));
        return "";
      }
      case "gettraceprobability":
        o.positionals(0, 0);
        return "Current trace probability: " + node.get("/api/traceprobability", Map.of()).get("probability").asDouble()
            + "\n";
      case "gcstats":
        o.positionals(0, 0);
        return Reports.gcStats(node.get("/api/gcstats", Map.of()));
      case "version":
        o.positionals(0, 0);
        return Reports.version(node.get("/api/version", Map.of()));
      default:
        throw new UsageException("Unknown command '" + command + "'");
    }
  }

  private static String snapshot(AdminClient node, Options o) {
    String tag = o.option("-t", "--tag");
    String kt = o.option("-kt", "--kt-list");
    String table = o.option("-cf", "--column-family", "--table");
    List<String> keyspaces = o.positionals(0, -1);
    List<String> names = new ArrayList<>();
    if (kt != null) {
      if (!keyspaces.isEmpty() || table != null) {
        throw new UsageException("When specifying the Keyspace table list (using -kt), you must not"
            + " also specify keyspaces or a table to snapshot");
      }
      names.addAll(Arrays.asList(kt.split(",")));
    } else if (table != null) {
      if (keyspaces.size() != 1) {
        throw new UsageException("When specifying the table for a snapshot, you must specify one"
            + " and only one keyspace");
      }
      names.add(keyspaces.get(0) + "." + table);
    } else {
      names.addAll(keyspaces);
    }
    Map<String, List<String>> params = new LinkedHashMap<>();
    if (!names.isEmpty()) {
      params.put("name", names);
    }
    if (tag != null) {
      params.put("tag", List.of(tag));
    }
    JsonNode done = node.post("/api/snapshot", params);
    String what = names.isEmpty() ? "[all keyspaces]" : names.toString();
    return "Requested creating snapshot(s) for " + what + " with snapshot name ["
        + done.path("tag").asText() + "] and options {skipFlush=false}\n"
        + "Snapshot directory: " + done.path("tag").asText() + "\n";
  }

  private static String clearSnapshot(AdminClient node, Options o) {
    boolean all = o.flag("--all");
    String tag = o.option("-t", "--tag");
    List<String> keyspaces = o.positionals(0, -1);
    if (all == (tag != null)) {
      throw new UsageException("Specify snapshot name (-t) or --all, not both or neither");
    }
    Map<String, List<String>> params = new LinkedHashMap<>();
    params.put(all ? "all" : "tag", List.of(all ? "true" : tag));
    if (!keyspaces.isEmpty()) {
      params.put("name", keyspaces);
    }
    node.post("/api/clearsnapshot", params);
    return "Requested clearing snapshot(s) for " + (keyspaces.isEmpty() ? "[all keyspaces]" : keyspaces)
        + " with " + (all ? "[all snapshots]" : "snapshot name [" + tag + "]") + "\n";
  }

  /**
   * The API's {@code name} parameters. With {@code keyspaceThenTables} the arguments are
   * {@code KS [TABLE...]} (flush, compact); otherwise each is {@code KS} or {@code KS.TABLE}.
   */
  private static Map<String, List<String>> names(List<String> args, boolean keyspaceThenTables) {
    if (args.isEmpty()) {
      return Map.of();
    }
    if (!keyspaceThenTables || args.size() == 1) {
      return Map.of("name", List.copyOf(args));
    }
    List<String> names = new ArrayList<>();
    for (String t : args.subList(1, args.size())) {
      names.add(args.get(0) + "." + t);
    }
    return Map.of("name", names);
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new UsageException(option + " needs a value");
    }
    return args[i];
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
    throw new UsageException("invalid port '" + s + "': expected 1-65535");
  }

  /** A command line the operator must correct. */
  static final class UsageException extends RuntimeException {
    UsageException(String message) {
      super(message, null, false, false);
    }
  }

  /** One command's own arguments: flags and options are taken out, positionals remain. */
  private static final class Options {
    private final List<String> args;

    Options(List<String> args) {
      this.args = new ArrayList<>(args);
    }

    boolean flag(String... names) {
      boolean found = false;
      for (String n : names) {
        found |= args.remove(n);
      }
      return found;
    }

    String option(String... names) {
      for (String n : names) {
        int i = args.indexOf(n);
        if (i >= 0) {
          if (i + 1 >= args.size()) {
            throw new UsageException(n + " needs a value");
          }
          String v = args.remove(i + 1);
          args.remove(i);
          return v;
        }
        for (int j = 0; j < args.size(); j++) {
          if (n.startsWith("--") && args.get(j).startsWith(n + "=")) {
            return args.remove(j).substring(n.length() + 1);
          }
        }
      }
      return null;
    }

    /** The remaining arguments, between {@code min} and {@code max} (-1: any) of them. */
    List<String> positionals(int min, int max) {
      for (String a : args) {
        if (a.startsWith("-")) {
          throw new UsageException("Unknown option '" + a + "'");
        }
      }
      if (args.size() < min) {
        throw new UsageException("Missing arguments: expected " + min);
      }
      if (max >= 0 && args.size() > max) {
        throw new UsageException("Found unexpected parameters: " + args.subList(max, args.size()));
      }
      return args;
    }
  }
}
