package io.cassette.tools.migrate;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * {@code cassette migrate}: schema and rows from one CQL cluster to another (Cassette ring to
 * Apache Cassandra 5.0 and back), throttled, resumable from a checkpoint of finished token
 * ranges, and verified by per-range row counts and checksums. See {@link MigrateOptions#USAGE}.
 */
public final class MigrateMain {
  static final int EXIT_FAILED = 1;
  static final int EXIT_USAGE = 2;
  static final int EXIT_DIFFERENT = 3;
  /** Keyspaces never copied unless named: the clusters' own, and Cassette's Redis data. */
  private static final List<String> INTERNAL = List.of("redis");

  private MigrateMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  public static int run(String[] args, PrintStream out, PrintStream err) {
    for (String a : args) {
      if (a.equals("--help") || a.equals("-h") || a.equals("help")) {
        out.print(MigrateOptions.USAGE);
        return 0;
      }
    }
    MigrateOptions o;
    try {
      o = MigrateOptions.parse(args);
    } catch (IllegalArgumentException e) {
      err.println("migrate: " + e.getMessage());
      err.print(MigrateOptions.USAGE);
      return EXIT_USAGE;
    }
    Logger.getLogger("com.datastax.oss.driver").setLevel(Level.SEVERE);
    try (CqlSession source = open(o.from(), o.port(), o.fromUser(), o.fromPassword());
         CqlSession target = open(o.to(), o.port(), o.toUser(), o.toPassword())) {
      return migrate(o, source, target, out);
    } catch (Exception e) {
      err.println("migrate: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return EXIT_FAILED;
    }
  }

  static int migrate(MigrateOptions o, CqlSession source, CqlSession target, PrintStream out) throws Exception {
    ConsistencyLevel cl = DefaultConsistencyLevel.valueOf(o.consistency());
    List<TableMetadata> tables = new ArrayList<>();
    List<KeyspaceMetadata> keyspaces = selectKeyspaces(o, source);
    SchemaCopier schema = new SchemaCopier(source, target, out);
    for (KeyspaceMetadata ks : keyspaces) {
      List<TableMetadata> mine = new ArrayList<>();
      for (TableMetadata t : ks.getTables().values()) {
        if (o.tables().isEmpty() || o.tables().contains(ks.getName().asInternal() + "." + t.getName().asInternal())) {
          mine.add(t);
        }
      }
      if (!ks.getViews().isEmpty()) {
        out.println("warning: materialized views of " + ks.getName() + " are not copied");
      }
      if (o.schema()) {
        schema.copy(ks, mine);
        out.printf("schema: keyspace %s, %d table(s)%n", ks.getName().asInternal(), mine.size());
      }
      tables.addAll(mine);
    }
    if (tables.isEmpty()) {
      out.println("nothing to copy: no tables selected");
      return 0;
    }
    target.refreshSchema();
    TokenSplits splits = TokenSplits.of(o.ranges());
    List<TableCopy> copies = new ArrayList<>();
    for (TableMetadata t : tables) {
      TableCopy c = new TableCopy(t, source, target, cl, o.pageSize());
      c.prepare();
      copies.add(c);
    }
    if (o.copy()) {
      copyAll(o, copies, splits, out);
    }
    if (!o.verify()) {
      return 0;
    }
    return verifyAll(o, copies, splits, out) ? 0 : EXIT_DIFFERENT;
  }

  private static List<KeyspaceMetadata> selectKeyspaces(MigrateOptions o, CqlSession source) {
    List<KeyspaceMetadata> out = new ArrayList<>();
    for (KeyspaceMetadata ks : source.getMetadata().getKeyspaces().values()) {
      String name = ks.getName().asInternal();
      boolean named = o.keyspaces().contains(name)
          || o.tables().stream().anyMatch(t -> t.startsWith(name + "."));
      boolean byDefault = o.keyspaces().isEmpty() && o.tables().isEmpty()
          && !name.startsWith("system") && !INTERNAL.contains(name);
      if (named || byDefault) {
        out.add(ks);
      }
    }
    for (String want : o.keyspaces()) {
      if (out.stream().noneMatch(k -> k.getName().asInternal().equals(want))) {
        throw new IllegalArgumentException("no keyspace '" + want + "' on the source");
      }
    }
    return out;
  }

  private static void copyAll(MigrateOptions o, List<TableCopy> copies, TokenSplits splits, PrintStream out)
      throws Exception {
    Throttle throttle = new Throttle(o.rowsPerSecond(), o.megabytesPerSecond());
    AtomicLong rows = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    long started = System.nanoTime();
    int total = copies.size() * splits.ranges().size();
    try (Checkpoint checkpoint = Checkpoint.open(o.checkpoint(), o.ranges())) {
      int skipped = checkpoint.doneCount();
      if (skipped > 0) {
        out.printf("resuming from %s: %d of %d ranges already done%n", checkpoint.file(), skipped, total);
      }
      ExecutorService pool = Executors.newFixedThreadPool(o.threads(), r -> {
        Thread t = new Thread(r, "migrate-copy");
        t.setDaemon(true);
        return t;
      });
      try {
        List<Future<?>> work = new ArrayList<>();
        AtomicLong finished = new AtomicLong(skipped);
        AtomicLong lastReport = new AtomicLong(System.nanoTime());
        for (TableCopy c : copies) {
          for (TokenSplits.Range r : splits.ranges()) {
            if (checkpoint.isDone(c.name, r.index())) {
              continue;
            }
            work.add(pool.submit(() -> {
              RowChecksum sum = c.copy(r, throttle, o.inFlight());
              checkpoint.finished(c.name, r.index(), sum.rows(), sum.sum());
              rows.addAndGet(sum.rows());
              bytes.addAndGet(sum.bytes());
              long done = finished.incrementAndGet();
              long now = System.nanoTime();
              long last = lastReport.get();
              if (now - last > 5_000_000_000L && lastReport.compareAndSet(last, now)) {
                out.println(progress(done, total, rows.get(), bytes.get(), now - started));
              }
              return null;
            }));
          }
        }
        for (Future<?> f : work) {
          try {
            f.get();
          } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception ex ? ex : e;
          }
        }
      } finally {
        pool.shutdownNow();
      }
      out.println("copied: " + progress(total, total, rows.get(), bytes.get(), System.nanoTime() - started));
    }
  }

  static String progress(long done, long total, long rows, long bytes, long nanos) {
    double s = Math.max(nanos / 1e9, 1e-3);
    return String.format(Locale.ROOT, "%d/%d ranges, %,d rows, %.1f MB in %.1f s (%,.0f rows/s, %.2f MB/s)",
        done, total, rows, bytes / 1048576.0, s, rows / s, bytes / 1048576.0 / s);
  }

  /** Reads every range on both sides; prints each difference; true when there is none. */
  private static boolean verifyAll(MigrateOptions o, List<TableCopy> copies, TokenSplits splits, PrintStream out)
      throws Exception {
    boolean same = true;
    ExecutorService pool = Executors.newFixedThreadPool(Math.max(2, o.threads()), r -> {
      Thread t = new Thread(r, "migrate-verify");
      t.setDaemon(true);
      return t;
    });
    try {
      for (TableCopy c : copies) {
        long rows = 0;
        int bad = 0;
        for (TokenSplits.Range r : splits.ranges()) {
          Future<RowChecksum> src = pool.submit(() -> c.checksum(r, false));
          Future<RowChecksum> dst = pool.submit(() -> c.checksum(r, true));
          RowChecksum a = src.get();
          RowChecksum b = dst.get();
          rows += a.rows();
          if (a.rows() != b.rows() || a.sum() != b.sum()) {
            bad++;
            same = false;
            out.printf("DIFFERENT %s range %d (%d, %d]: source %d rows checksum %016x, target %d rows checksum %016x%n",
                c.name, r.index(), r.start(), r.end(), a.rows(), a.sum(), b.rows(), b.sum());
          }
        }
        out.printf("verified %s: %,d rows in %d ranges, %s%n", c.name, rows, splits.ranges().size(),
            bad == 0 ? "row counts and checksums match" : bad + " range(s) differ");
      }
    } finally {
      pool.shutdownNow();
    }
    return same;
  }

  static CqlSession open(List<String> hosts, int port, String user, String password) {
    DriverConfigLoader config = DriverConfigLoader.programmaticBuilder()
        .withString(DefaultDriverOption.LOAD_BALANCING_POLICY_CLASS, "DcInferringLoadBalancingPolicy")
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(30))
        .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, Duration.ofSeconds(10))
        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
        .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 1024)
        .build();
    CqlSessionBuilder b = CqlSession.builder().withConfigLoader(config).withApplicationName("cassette-migrate");
    for (String h : hosts) {
      b.addContactPoint(io.cassette.tools.stress.CqlConnection.address(h, port));
    }
    if (user != null) {
      b.withAuthCredentials(user, password == null ? "" : password);
    }
    return b.build();
  }
}
