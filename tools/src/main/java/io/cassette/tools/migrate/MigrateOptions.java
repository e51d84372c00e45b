package io.cassette.tools.migrate;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** The command line of {@code cassette migrate}, parsed. */
record MigrateOptions(List<String> from, List<String> to, int port, String fromUser, String fromPassword,
                      String toUser, String toPassword, List<String> keyspaces, List<String> tables,
                      int ranges, int threads, int inFlight, long rowsPerSecond, double megabytesPerSecond,
                      Path checkpoint, boolean schema, boolean copy, boolean verify, String consistency,
                      int pageSize) {

  static final String USAGE = """
      usage: cassette migrate --from HOST[:PORT][,HOST...] --to HOST[:PORT][,HOST...] [options]

        Copies keyspaces (schema and rows) from one cluster to another through the CQL native
        protocol: Cassette to Apache Cassandra 5.0 (or ScyllaDB) and back, or any pair of them.
        The token ring is cut into --ranges equal ranges; each range of each table is read from
        the source (paged) and written to the target, and recorded in the checkpoint file when
        done, so a run that is stopped resumes where it was. At the end every range is read on
        both sides and its row count and checksum compared.

      what:
        --keyspaces KS[,KS...]   keyspaces to copy (default: all but system* and Cassette's
                                 internal 'redis' keyspace)
        --tables KS.T[,KS.T...]  only these tables
        --no-schema              do not create keyspaces/types/tables/indexes on the target
        --no-copy                copy nothing; only verify (with --no-verify: only the schema)
        --no-verify              skip the final comparison

      how fast:
        --rows-per-second N      cap on rows written per second, all threads together (0 = none)
        --mb-per-second N        cap on MB (of column values) per second (0 = none)
        --threads N              ranges copied at once (default 2)
        --in-flight N            writes in flight per range (default 32)
        --ranges N               token ranges per table (default 64)
        --page-size N            rows per page read (default 1000)

      resuming:
        --checkpoint FILE        finished ranges are appended here (default: none, no resume);
                                 run the same command again to resume; a range interrupted
                                 half-way is copied again (counter tables then count twice)

      connection:
        --port N                 native port when a host has none (default 9042)
        --consistency CL         for reads and writes (default QUORUM)
        --from-user U --from-password P, --to-user U --to-password P

      Replication factors are capped at the target's node count when the keyspace is created.
      Table options (compaction, caching...) are left at the target's defaults. Write times
      and TTLs are not copied: rows are written now, without TTL.

      exit status: 0 copied and verified; 1 failed; 2 bad command line; 3 verification found
      differences (listed per range).

      example:
        cassette migrate --from 127.0.0.1 --to 10.0.0.5:9042 --keyspaces shop \\
          --rows-per-second 20000 --checkpoint shop.ckpt
      """;

  static MigrateOptions parse(String[] args) {
    List<String> from = null;
    List<String> to = null;
    int port = 9042;
    String fromUser = null;
    String fromPassword = null;
    String toUser = null;
    String toPassword = null;
    List<String> keyspaces = List.of();
    List<String> tables = List.of();
    int ranges = 64;
    int threads = 2;
    int inFlight = 32;
    long rows = 0;
    double mb = 0;
    Path checkpoint = null;
    boolean schema = true;
    boolean copy = true;
    boolean verify = true;
    String consistency = "QUORUM";
    int pageSize = 1000;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      switch (a) {
        case "--no-schema" -> schema = false;
        case "--no-copy" -> copy = false;
        case "--no-verify" -> verify = false;
        default -> {
          if (!a.startsWith("--")) {
            throw new IllegalArgumentException("unexpected argument '" + a + "'");
          }
          if (i + 1 >= args.length) {
            throw new IllegalArgumentException(a + " needs a value");
          }
          String v = args[++i];
          switch (a) {
            case "--from" -> from = list(v);
            case "--to" -> to = list(v);
            case "--port" -> port = positive(a, v);
            case "--from-user" -> fromUser = v;
            case "--from-password" -> fromPassword = v;
            case "--to-user" -> toUser = v;
            case "--to-password" -> toPassword = v;
            case "--keyspaces" -> keyspaces = list(v);
            case "--tables" -> tables = list(v);
            case "--ranges" -> ranges = positive(a, v);
            case "--threads" -> threads = positive(a, v);
            case "--in-flight" -> inFlight = positive(a, v);
            case "--page-size" -> pageSize = positive(a, v);
            case "--rows-per-second" -> rows = Long.parseLong(v);
            case "--mb-per-second" -> mb = Double.parseDouble(v);
            case "--checkpoint" -> checkpoint = Path.of(v);
            case "--consistency" -> consistency = v.toUpperCase(java.util.Locale.ROOT);
            default -> throw new IllegalArgumentException("unknown option '" + a + "'");
          }
        }
      }
    }
    if (from == null || to == null) {
      throw new IllegalArgumentException("--from and --to are required");
    }
    if (rows < 0 || mb < 0) {
      throw new IllegalArgumentException("throughput caps must not be negative");
    }
    return new MigrateOptions(from, to, port, fromUser, fromPassword, toUser, toPassword, keyspaces, tables,
        ranges, threads, inFlight, rows, mb, checkpoint, schema, copy, verify, consistency, pageSize);
  }

  private static List<String> list(String v) {
    List<String> out = new ArrayList<>();
    for (String s : v.split(",")) {
      if (!s.isBlank()) {
        out.add(s.trim());
      }
    }
    return out;
  }

  private static int positive(String option, String v) {
    int n;
    try {
      n = Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a number, not '" + v + "'");
    }
    if (n < 1) {
      throw new IllegalArgumentException(option + " must be at least 1, not " + n);
    }
    return n;
  }
}
