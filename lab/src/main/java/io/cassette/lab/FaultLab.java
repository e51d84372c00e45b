package io.cassette.lab;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.fault.Nemesis;
import io.cassette.lab.report.LabReport;
import io.cassette.lab.ring.LabNetwork;
import io.cassette.lab.ring.LabNode;
import io.cassette.lab.ring.LabRing;
import io.cassette.lab.ring.LoopbackNetwork;
import io.cassette.lab.ring.NamespaceNetwork;
import io.cassette.lab.ring.NodeLauncher;
import io.cassette.lab.workload.CasRegisterWorkload;
import io.cassette.lab.workload.CounterWorkload;
import io.cassette.lab.workload.LabClock;
import io.cassette.lab.workload.RedisIncrWorkload;
import io.cassette.lab.workload.SetWorkload;
import io.cassette.lab.workload.Workload;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fault lab: a ring of real node processes, client workloads against it, faults injected
 * while they run, then the checkers and a report. {@code bench/fault-lab} runs {@link #main};
 * tests call {@link #run}.
 *
 * <p>Phases: network (namespaces or loopback) → nodes started and awaited → keyspace
 * {@code lab} (RF = min(3, N)) and the workloads' tables → workloads and the {@link Nemesis}
 * together until the run's end → every fault healed, killed nodes restarted, all nodes UP again →
 * final reads → checks → {@code report.md} and {@code latency.svg} in the output directory.
 * Every process and network object the lab made is removed at the end, also on failure.
 */
public final class FaultLab {
  /** How long the ring may take to be whole (all UP, final reads answered) after the faults. */
  private static final Duration SETTLE = Duration.ofSeconds(120);
  /**
   * Counters of the redis-incr workload. With one replica (the Redis keyspace's default) a key is
   * CLUSTERDOWN while its node is down: with 2 keys both were on n3 (tokens are allocated
   * deterministically), the node the short run kills, and under load no INCR was acknowledged
   * before the kill (bench/results/2026-12-02-faultlabtest-redis-incr.md). Twelve keys spread over
   * every node (RedisIncrKeysTest) exercise every node as executor, with one replica (the default)
   * or more ({@link LabRing#redisReplicationFactor}).
   */
  static final int REDIS_INCR_KEYS = 12;
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(5);

  private FaultLab() {}

  /** {@code --disk-mb}: each node's data directory on a tmpfs of this size (0: the ordinary disk). */
  static volatile int diskMb;

  public static LabResult run(LabOptions o, PrintStream log) throws Exception {
    Files.createDirectories(o.out());
    Path nodesDir = o.out().resolve("nodes");
    Files.createDirectories(nodesDir);
    List<Path> mounted = new ArrayList<>();
    if (diskMb > 0) {
      // A full disk: the node's data directory on a small tmpfs (root only), unmounted at the end.
      for (int i = 1; i <= o.nodes(); i++) {
        Path d = nodesDir.resolve("n" + i);
        Files.createDirectories(d);
        if (io.cassette.lab.ring.Shell.tryRun("mount", "-t", "tmpfs", "-o", "size=" + diskMb + "m", "tmpfs", d.toString()) != null) {
          mounted.add(d);
        } else {
          log.println("fault-lab: cannot mount a " + diskMb + " MB tmpfs on " + d + " (root needed): disk not limited");
        }
      }
    }
    try {
      return runWithDisks(o, log, nodesDir);
    } finally {
      for (Path d : mounted) {
        io.cassette.lab.ring.Shell.tryRun("umount", "-l", d.toString());
      }
    }
  }

  private static LabResult runWithDisks(LabOptions o, PrintStream log, Path nodesDir) throws Exception {
    boolean netns = switch (o.network()) {
      case "netns" -> true;
      case "loopback" -> false;
      default -> NamespaceNetwork.available();
    };
    try (LabNetwork network = netns ? NamespaceNetwork.create(o.nodes(), nodesDir)
        : new LoopbackNetwork(o.nodes(), nodesDir);
         LabRing ring = new LabRing(network, o.launcher(), nodesDir, o.nodes(), o.seeds())) {
      // Ctrl-C of bench/fault-lab: no node process or namespace is left behind.
      Thread cleanup = new Thread(() -> {
        ring.close();
        network.close();
      }, "fault-lab-cleanup");
      Runtime.getRuntime().addShutdownHook(cleanup);
      try {
        return runOn(o, log, network, ring);
      } finally {
        try {
          Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
          // already shutting down: the hook runs
        }
      }
    }
  }

  private static LabResult runOn(LabOptions o, PrintStream log, LabNetwork network, LabRing ring) throws Exception {
    List<FaultKind> faults = new ArrayList<>(o.faults());
    if (!network.canPartition() && faults.stream().anyMatch(FaultKind::isPartition)) {
      // a run that silently left its partitions out would report OK for faults it never injected
      throw new IllegalArgumentException("partition faults were asked for, but this machine cannot cut nodes apart: "
          + "they need root and nftables (the nft command; Debian package nftables). Install it, run as root, "
          + "or leave partitions out of --faults");
    }
    log.println("fault-lab: " + network.describe());
    log.println("fault-lab: starting " + o.nodes() + " nodes: " + o.launcher().describe());
    long t0 = System.nanoTime();
    ring.start();
    log.printf("fault-lab: %d nodes ready in %d ms%n", o.nodes(), (System.nanoTime() - t0) / 1_000_000);

    try (CqlSession session = session(ring, network)) {
      awaitAllUp(session, o.nodes(), Duration.ofSeconds(120));
      int rf = Math.min(3, o.nodes());
      ddl(session, "CREATE KEYSPACE IF NOT EXISTS lab WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': " + rf + "}");
      LabClock clock = new LabClock();
      List<Workload> workloads = workloads(o, session, ring, network, clock);
      for (Workload w : workloads) {
        retry("setup of " + w.name(), w::setup);
      }
      log.println("fault-lab: running " + workloads.stream().map(Workload::name).toList() + " for "
          + o.runSeconds() + " s, faults " + faults);

      long runStart = clock.nanos();
      long deadline = runStart + TimeUnit.SECONDS.toNanos(o.runSeconds());
      Nemesis nemesis = new Nemesis(ring, faults, o.quietSeconds() * 1000L, o.faultSeconds() * 1000L,
          deadline / 1_000_000, clock::millis, o.seed());
      Thread nemesisThread = new Thread(nemesis, "nemesis");
      nemesisThread.start();
      List<Thread> clients = new ArrayList<>();
      List<String> errors = new ArrayList<>();
      for (Workload w : workloads) {
        for (int c = 0; c < o.clients(); c++) {
          int client = c;
          Thread t = new Thread(() -> {
            try {
              w.runClient(client, deadline);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
              synchronized (errors) {
                errors.add(w.name() + " client " + client + ": " + e);
              }
            }
          }, w.name() + "-" + c);
          t.start();
          clients.add(t);
        }
      }
      for (Thread t : clients) {
        t.join(TimeUnit.SECONDS.toMillis(o.runSeconds()) + 60_000);
      }
      nemesisThread.join(LabRing.startTimeoutMillis() * 2);
      long runMillis = clock.millis();
      errors.addAll(nemesis.errors());
      errors.addAll(ring.startFailures());
      log.println("fault-lab: workloads done; faults: " + nemesis.windows().size() + "; settling");

      awaitAllUp(session, o.nodes(), SETTLE);
      for (Workload w : workloads) {
        retry("final reads of " + w.name(), w::finish);
      }
      List<Workload.Verdict> verdicts = new ArrayList<>();
      Map<String, long[]> counts = new LinkedHashMap<>();
      for (Workload w : workloads) {
        verdicts.add(w.check(nemesis.windows()));
        w.writeHistory(o.out());
        long[] c = new long[3];
        w.records().forEach(r -> c[r.status().ordinal()]++);
        counts.put(w.name(), c);
      }
      Path report = LabReport.write(o, network.describe(), nemesis.windows(), workloads, verdicts, errors,
          runMillis, clock.wallOrigin());
      LabResult result = new LabResult(nemesis.windows(), counts, verdicts, errors, report);
      log.println("fault-lab: " + result.summary());
      log.println("fault-lab: report " + report);
      return result;
    } catch (Exception | AssertionError e) {
      for (LabNode n : ring.nodes()) {
        log.println("--- n" + n.index() + " (last 20 lines)\n" + n.tail(20));
      }
      throw e;
    }
  }

  private static List<Workload> workloads(LabOptions o, CqlSession session, LabRing ring, LabNetwork network,
                                          LabClock clock) {
    List<Workload> list = new ArrayList<>();
    for (String name : o.workloads()) {
      long seed = o.seed() + list.size();
      list.add(switch (name) {
        case "cas-register" -> new CasRegisterWorkload(session, clock, 4, o.maxOperations(), o.thinkMillis(), seed);
        case "set" -> new SetWorkload(session, clock, 8, o.maxOperations(), o.thinkMillis(), seed);
        case "counter" -> new CounterWorkload(session, clock, 2, o.maxOperations(), o.thinkMillis(), seed);
        case "bank" -> new io.cassette.lab.workload.BankWorkload(session, clock, 5, o.maxOperations(), o.thinkMillis(), seed);
        case "hints" -> new io.cassette.lab.workload.HintsWorkload(session, clock,
            ring.nodes().stream().map(LabNode::address).toList(), network.ports().http(), 8, o.maxOperations(),
            o.thinkMillis(), seed);
        case "redis-incr" -> new RedisIncrWorkload(ring.nodes().stream().map(LabNode::address).toList(),
            network.ports().resp(), clock, REDIS_INCR_KEYS, o.maxOperations(), o.thinkMillis(), seed);
        case "redis-register" -> new io.cassette.lab.workload.RedisRegisterWorkload(
            ring.nodes().stream().map(LabNode::address).toList(), network.ports().resp(), clock, 4,
            o.maxOperations(), o.thinkMillis(), seed);
        default -> throw new IllegalArgumentException("unknown workload " + name + " (known: "
            + LabOptions.KNOWN_WORKLOADS + ")");
      });
    }
    return list;
  }

  private static CqlSession session(LabRing ring, LabNetwork network) {
    List<InetSocketAddress> contacts = new ArrayList<>();
    for (LabNode n : ring.nodes()) {
      contacts.add(new InetSocketAddress(n.address(), network.ports().cql()));
    }
    return CqlSession.builder().addContactPoints(contacts).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, REQUEST_TIMEOUT)
            .withDuration(DefaultDriverOption.RECONNECTION_BASE_DELAY, Duration.ofMillis(200))
            .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(2))
            .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(5))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(5))
            .build())
        .build();
  }

  /** Until the driver sees every node UP and each node answers a query itself. */
  private static void awaitAllUp(CqlSession session, int nodes, Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    String last = "";
    while (System.nanoTime() < deadline) {
      List<Node> all = new ArrayList<>(session.getMetadata().getNodes().values());
      boolean up = all.size() == nodes && all.stream().allMatch(n -> n.getState() == NodeState.UP);
      if (up) {
        try {
          for (Node n : all) {
            // Each node answers on its own (the driver's UP is only its connection pool).
            session.execute(SimpleStatement.newInstance("SELECT peer FROM system.peers").setNode(n));
          }
          return;
        } catch (RuntimeException e) {
          last = e.toString();
        }
      } else {
        last = all.size() + " nodes known, states " + all.stream().map(n -> n.getState().toString()).toList();
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("the ring is not whole after " + timeout.toSeconds() + " s: " + last);
  }

  private static void ddl(CqlSession session, String cql) throws Exception {
    retry(cql, () -> session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(20))));
  }

  private interface Step {
    void run() throws Exception;
  }

  /** A step after the faults (or of setup) may meet a node still catching up: retried for a while. */
  private static void retry(String what, Step step) throws Exception {
    long deadline = System.nanoTime() + SETTLE.toNanos();
    for (int attempt = 1; ; attempt++) {
      try {
        step.run();
        return;
      } catch (Exception e) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(what + " failed after " + attempt + " attempts", e);
        }
        Thread.sleep(Math.min(5_000, 250L * attempt));
      }
    }
  }

  // ------------------------------------------------------------------ command line

  public static void main(String[] args) throws Exception {
    int nodes = 3;
    int seeds = 1;
    int seconds = 60;
    List<FaultKind> faults = io.cassette.lab.ring.LabNetwork.partitionsAvailable()
        ? List.of(FaultKind.KILL, FaultKind.PAUSE, FaultKind.PARTITION)
        : List.of(FaultKind.KILL, FaultKind.PAUSE);
    if (faults.size() == 2 && java.util.Arrays.stream(args).noneMatch("--faults"::equals)) {
      System.err.println("fault-lab: NOTE: partitions left out of the default faults: they need root and nftables"
          + " (the nft command)");
    }
    int quiet = 5;
    int faultSeconds = 8;
    List<String> workloads = LabOptions.ALL_WORKLOADS;
    int clients = 3;
    long maxOps = 50_000;
    long think = 10;
    String network = "auto";
    Path home = Path.of(System.getProperty("cassette.home", "."));
    String heap = "128m";
    List<String> jvm = new ArrayList<>();
    Path out = null;
    long seed = System.currentTimeMillis();
    String classPath = null;
    long clockSkewMs = 0;
    for (int i = 0; i < args.length; i++) {
      String a = args[i];
      String v = i + 1 < args.length ? args[i + 1] : null;
      switch (a) {
        case "--nodes" -> nodes = Integer.parseInt(args[++i]);
        case "--seeds" -> seeds = Integer.parseInt(args[++i]);
        case "--seconds" -> seconds = Integer.parseInt(args[++i]);
        case "--faults" -> faults = parseFaults(args[++i]);
        case "--quiet" -> quiet = Integer.parseInt(args[++i]);
        case "--fault-seconds" -> faultSeconds = Integer.parseInt(args[++i]);
        case "--workloads" -> workloads = List.of(args[++i].split(","));
        case "--clients" -> clients = Integer.parseInt(args[++i]);
        case "--max-ops" -> maxOps = Long.parseLong(args[++i]);
        case "--think-ms" -> think = Long.parseLong(args[++i]);
        case "--network" -> network = args[++i];
        case "--home" -> home = Path.of(args[++i]);
        case "--classpath" -> classPath = args[++i];
        case "--heap" -> heap = args[++i];
        case "--test-fault" -> jvm.add("-Dcassette.test_fault." + args[++i] + "=true");
        case "--clock-skew" -> clockSkewMs = Long.parseLong(args[++i]);
        case "--redis-replication" -> System.setProperty("cassette.lab.redis_replication",
            Integer.toString(Integer.parseInt(args[++i])));
        case "--message-faults" -> jvm.add("-Dcassette.test_fault.message_filter=" + args[++i]);
        case "--slow-fsync" -> jvm.add("-Dcassette.test_fault.slow_fsync_ms=" + Long.parseLong(args[++i]));
        case "--disk-mb" -> diskMb = Integer.parseInt(args[++i]);
        case "--out" -> out = Path.of(args[++i]);
        case "--seed" -> seed = Long.parseLong(args[++i]);
        case "-h", "--help" -> {
          System.out.println(USAGE);
          return;
        }
        default -> {
          System.err.println("fault-lab: unknown option " + a + (v == null ? "" : "") + "\n" + USAGE);
          System.exit(2);
        }
      }
    }
    if (out == null) {
      out = Path.of(System.getProperty("java.io.tmpdir"), "fault-lab-" + System.currentTimeMillis());
    }
    NodeLauncher launcher = classPath != null ? NodeLauncher.classPath(classPath, heap, jvm)
        : NodeLauncher.binCassette(home.resolve("bin").resolve("cassette").toAbsolutePath(), heap, jvm);
    if (clockSkewMs != 0) {
      // Node i's clock is off by (i - 1) x the skew minus half the spread: 3 nodes, 5000 -> -5 s, 0, +5 s.
      java.util.Map<Integer, List<String>> perNode = new java.util.HashMap<>();
      for (int n = 1; n <= nodes; n++) {
        long offset = (n - 1) * clockSkewMs - (nodes - 1) * clockSkewMs / 2;
        perNode.put(n, List.of("-Dcassette.test_fault.clock_offset_ms=" + offset));
      }
      launcher = launcher.withNodeOptions(perNode);
    }
    String title = "fault lab: " + nodes + " nodes, " + seconds + " s, faults " + faults
        + (jvm.isEmpty() && clockSkewMs == 0 && diskMb == 0 ? "" : ", CONDITIONS " + jvm
        + (clockSkewMs != 0 ? " clock skew " + clockSkewMs + " ms between neighbours" : "")
        + (diskMb > 0 ? " disk " + diskMb + " MB" : ""));
    if (faults.stream().anyMatch(FaultKind::isPartition) && !io.cassette.lab.ring.LabNetwork.partitionsAvailable()) {
      System.err.println("fault-lab: partition faults were asked for, but this machine cannot cut nodes apart: they"
          + " need root and nftables (the nft command; Debian package nftables). Install it, run as root, or leave"
          + " partitions out of --faults");
      System.exit(2);
    }
    LabResult r = run(new LabOptions(nodes, seeds, seconds, faults, quiet, faultSeconds, workloads, clients, maxOps, think,
        network, launcher, out, seed, title), System.out);
    System.exit(exitStatus(r.verdicts()));
  }

  /** 0: every checker OK; 1: a violation; 3: none, but a checker could not decide (UNKNOWN: its search budget ran out). */
  static int exitStatus(List<Workload.Verdict> verdicts) {
    if (verdicts.stream().anyMatch(v -> v.verdict() == io.cassette.lab.check.CheckResult.Verdict.VIOLATION)) {
      return 1;
    }
    return verdicts.stream().allMatch(v -> v.verdict() == io.cassette.lab.check.CheckResult.Verdict.OK) ? 0 : 3;
  }

  private static List<FaultKind> parseFaults(String s) {
    List<FaultKind> l = new ArrayList<>();
    if (s.equals("none")) {
      return l;
    }
    for (String k : s.split(",")) {
      l.add(FaultKind.valueOf(k.trim().toUpperCase(java.util.Locale.ROOT).replace('-', '_')));
    }
    return l;
  }

  static final String USAGE = """
      usage: bench/fault-lab [options]
        --nodes N            ring size (default 3; RF = min(3, N))
        --seeds N            the first N nodes are seeds, members of the metadata service (default 1)
        --seconds S          workload run time (default 60)
        --faults LIST        kill,pause,partition,partition-one-way,partition-halves,partition-bridge,
                             disk-full (needs --disk-mb) or none (default kill,pause,partition)
        --quiet S            seconds between faults (default 5)
        --fault-seconds S    length of each fault (default 8)
        --workloads LIST     cas-register,set,counter,redis-incr,redis-register,bank,hints (default all but bank and hints)
        --clients N          client threads per workload (default 3)
        --max-ops N          operations per workload at most (default 50000)
        --think-ms MS        pause after each operation (default 10)
        --network auto|netns|loopback
        --test-fault NAME    start nodes with -Dcassette.test_fault.NAME=true (a deliberately broken build)
        --redis-replication N  copies of each Redis key (resp_replication_factor; default 1, as the product)
        --clock-skew MS      node clocks apart by MS each (3 nodes: -MS, 0, +MS): write timestamps and ballots
        --message-faults SPEC  the transport's message filter on every node, all run long, every verb but
                             PING: drop:P, duplicate:P, delay:MS[:P], reorder:MS[:P], comma-separated
        --slow-fsync MS      every commit-log and Paxos-log fsync takes MS longer
        --disk-mb N          each node's data directory on an N MB tmpfs (root): a disk that fills up
        --out DIR            report directory (default a new one under the temp directory)
        --seed N             nemesis and workload seed
        --home DIR           Cassette checkout or installation whose bin/cassette starts the nodes
        --classpath CP       start nodes as java -cp CP io.cassette.server.Main start instead
      exit status 0 when every checker says OK, 1 on a violation, 3 when a checker could not decide (UNKNOWN)""";
}
