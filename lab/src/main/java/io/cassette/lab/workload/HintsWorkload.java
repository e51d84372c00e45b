package io.cassette.lab.workload;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.cassette.lab.check.CheckResult;
import io.cassette.lab.check.ReplicaChecker;
import io.cassette.lab.check.Status;
import io.cassette.lab.fault.FaultKind;
import io.cassette.lab.fault.FaultWindow;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Hinted handoff, checked (issue 18): unique integers inserted at ONE into {@code lab.hinted}
 * (one partition per {@code element % groups}) while replicas are killed, paused or cut off, so
 * many writes are acknowledged by one replica while another cannot take them and is owed a hint.
 * Nothing reads during the run (a read could repair what a hint should bring). After the run,
 * with the ring whole, the workload waits until no node lists pending hints
 * ({@code /api/pendinghints}), then reads each group at ONE through each of its replicas in turn:
 * the table has {@code read_repair = 'NONE'} and {@code speculative_retry = 'NONE'}, and a
 * coordinator that is a replica reads its own copy, so each answer is that replica's data alone.
 * {@link ReplicaChecker}: every acknowledged element on every replica, except where a fault
 * excuses it ({@link #excuse}).
 */
public final class HintsWorkload implements Workload {
  /**
   * How long after a write returns it may still depend on its coordinator's memory: a replica
   * that has not answered is hinted when the request expires ({@code write_request_timeout},
   * 2 s), and a hint is only buffered until the next {@code hints_flush_period} (10 s), as in
   * Cassandra; plus slack for a loaded machine.
   */
  static final long HINT_EXPOSURE_MILLIS = 25_000;
  /** Around a full disk's window: a write refused by the node just before or after it. */
  static final long DISK_SLACK_MILLIS = 3_000;
  /**
   * Longest wait for every node's hints to be delivered after the ring is whole again. A delivery
   * stops at a hint that fails and resumes at the next dispatch (10 s), as Cassandra's does.
   */
  private static final Duration DRAIN = Duration.ofSeconds(240);

  private final CqlSession session;
  private final LabClock clock;
  private final List<String> addresses;
  private final int httpPort;
  private final int groups;
  private final Budget budget;
  private final long thinkMillis;
  private final long seed;
  private final AtomicInteger next = new AtomicInteger();
  private final List<ReplicaChecker.Write> writes = Collections.synchronizedList(new ArrayList<>());
  private final List<ReplicaChecker.ReplicaRead> reads = Collections.synchronizedList(new ArrayList<>());
  private final List<OpRecord> records = Collections.synchronizedList(new ArrayList<>());
  private final List<String> finishNotes = new ArrayList<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private PreparedStatement insert;
  private PreparedStatement read;

  /**
   * @param addresses the nodes' addresses, node 1 first (to name a write's coordinator)
   * @param httpPort  the nodes' admin HTTP port (pending hints, hint counters)
   */
  public HintsWorkload(CqlSession session, LabClock clock, List<String> addresses, int httpPort, int groups,
                       long operations, long thinkMillis, long seed) {
    this.session = session;
    this.clock = clock;
    this.addresses = List.copyOf(addresses);
    this.httpPort = httpPort;
    this.groups = groups;
    this.budget = new Budget(operations);
    this.thinkMillis = thinkMillis;
    this.seed = seed;
  }

  @Override
  public String name() {
    return "hints";
  }

  @Override
  public void setup() {
    session.execute("CREATE TABLE IF NOT EXISTS lab.hinted (g int, e int, PRIMARY KEY (g, e)) "
        + "WITH read_repair = 'NONE' AND speculative_retry = 'NONE'");
    insert = session.prepare("INSERT INTO lab.hinted (g, e) VALUES (?, ?)");
    read = session.prepare("SELECT e FROM lab.hinted WHERE g = ?");
  }

  @Override
  public void runClient(int client, long deadlineNanos) throws InterruptedException {
    Random random = new Random(seed * 31 + client);
    while (clock.nanos() < deadlineNanos && budget.take()) {
      int e = next.incrementAndGet();
      long call = clock.nanos();
      Status s;
      int coordinator = 0;
      try {
        ResultSet rs = session.execute(insert.bind(e % groups, e).setConsistencyLevel(ConsistencyLevel.ONE));
        coordinator = index(rs.getExecutionInfo().getCoordinator());
        s = Status.OK;
      } catch (RuntimeException ex) {
        s = Outcomes.ofCqlWrite(ex);
      }
      long ret = clock.nanos();
      writes.add(new ReplicaChecker.Write(e, call, ret, s, coordinator));
      records.add(new OpRecord(name(), call, ret, s));
      Thread.sleep(thinkMillis + random.nextInt(2));
    }
  }

  /** The lab's number of a node the driver names (1-based), 0 when it is none of them. */
  private int index(Node node) {
    if (node == null || !(node.getEndPoint().resolve() instanceof InetSocketAddress a)) {
      return 0;
    }
    String host = a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString();
    return addresses.indexOf(host) + 1;
  }

  @Override
  public void finish() throws Exception {
    long start = System.nanoTime();
    String pending = awaitHintsDelivered();
    long waited = (System.nanoTime() - start) / 1_000_000;
    reads.clear();
    finishNotes.clear();
    finishNotes.add(pending.isEmpty() ? "every node's hints delivered " + waited + " ms after the final reads began"
        : "hints still pending after " + waited + " ms: " + pending);
    finishNotes.add("hint counters since each node's last start: " + hintCounters());
    List<Node> nodes = new ArrayList<>(session.getMetadata().getNodes().values());
    for (Node n : nodes) {
      int replica = index(n);
      for (int g = 0; g < groups; g++) {
        if (!replicas(g, nodes).contains(n)) {
          continue;
        }
        BoundStatement st = read.bind(g).setConsistencyLevel(ConsistencyLevel.ONE).setPageSize(100_000).setNode(n)
            .setTimeout(Duration.ofSeconds(10));
        Set<Integer> got = new HashSet<>();
        for (Row row : session.execute(st)) {
          got.add(row.getInt(0));
        }
        reads.add(new ReplicaChecker.ReplicaRead(replica, g, got));
      }
    }
  }

  /** The replicas of group {@code g}: all nodes up to RF 3, else as the driver's token map says. */
  private List<Node> replicas(int g, List<Node> nodes) {
    if (nodes.size() <= 3) {
      return nodes;
    }
    Set<Node> r = session.getMetadata().getTokenMap().map(tm -> tm.getReplicas("lab",
        TypeCodecs.INT.encode(g, ProtocolVersion.DEFAULT))).orElse(Set.of());
    if (r.isEmpty()) {
      throw new IllegalStateException("the driver knows no replicas of lab.hinted group " + g);
    }
    return new ArrayList<>(r);
  }

  private static final Pattern PENDING = Pattern.compile("\"hostId\":\"([^\"]+)\".*?\"bytes\":(\\d+)");

  /** Waits until no node lists pending hints; returns what is still pending at the deadline ("" when none). */
  private String awaitHintsDelivered() throws InterruptedException {
    long deadline = System.nanoTime() + DRAIN.toNanos();
    String pending = "";
    while (System.nanoTime() < deadline) {
      StringBuilder sb = new StringBuilder();
      for (int i = 1; i <= addresses.size(); i++) {
        String body;
        try {
          body = get(i, "/api/pendinghints");
        } catch (IOException e) {
          sb.append("n").append(i).append(": ").append(e).append("; ");
          continue;
        }
        Matcher m = PENDING.matcher(body);
        while (m.find()) {
          sb.append("n").append(i).append(" holds ").append(m.group(2)).append(" bytes for ").append(m.group(1))
              .append("; ");
        }
      }
      pending = sb.toString();
      if (pending.isEmpty()) {
        return "";
      }
      Thread.sleep(1_000);
    }
    return pending;
  }

  /** cassette_hints_stored_total and _replayed_total per node (they count from the node's last start). */
  private String hintCounters() {
    StringBuilder sb = new StringBuilder();
    for (int i = 1; i <= addresses.size(); i++) {
      try {
        String body = get(i, "/metrics");
        sb.append("n").append(i).append(" stored ").append(counter(body, "cassette_hints_stored_total"))
            .append(", replayed ").append(counter(body, "cassette_hints_replayed_total")).append("; ");
      } catch (IOException | InterruptedException e) {
        sb.append("n").append(i).append(": ").append(e).append("; ");
      }
    }
    return sb.toString();
  }

  private static long counter(String prometheus, String name) {
    long sum = 0;
    for (String line : prometheus.split("\n")) {
      if (line.startsWith(name + " ") || line.startsWith(name + "{")) {
        sum += (long) Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }

  private String get(int node, String path) throws IOException, InterruptedException {
    HttpRequest req = HttpRequest.newBuilder(URI.create("http://" + addresses.get(node - 1) + ":" + httpPort + path))
        .timeout(Duration.ofSeconds(5)).GET().build();
    HttpResponse<String> resp = http.send(req, HttpResponse.BodyHandlers.ofString());
    if (resp.statusCode() != 200) {
      throw new IOException("GET " + path + " answered " + resp.statusCode() + ": " + resp.body());
    }
    return resp.body();
  }

  /**
   * What excuses an acknowledged write missing from a replica, from the faults as they happened
   * (Cassandra loses the same):
   * <ul>
   *   <li>its coordinator was killed between the write's call and {@link #HINT_EXPOSURE_MILLIS}
   *       after its return: the mutations it had not sent yet and the hints still in its buffer
   *       die with it;
   *   <li>the replica's or the coordinator's disk was full around the write: a replica that
   *       answers with a failure gets no hint, and a coordinator cannot write one.
   * </ul>
   */
  static ReplicaChecker.Excuse excuse(List<FaultWindow> faults) {
    return (w, replica) -> {
      long call = w.call() / 1_000_000;
      long ret = w.ret() / 1_000_000;
      for (FaultWindow f : faults) {
        if (f.kind() == FaultKind.KILL && f.node() == w.coordinator() && f.start() >= call
            && f.start() <= ret + HINT_EXPOSURE_MILLIS) {
          return "its coordinator n" + f.node() + " was killed " + (f.start() - ret) + " ms after it returned";
        }
        if (f.kind() == FaultKind.DISK_FULL && (f.node() == replica || f.node() == w.coordinator())
            && f.start() - DISK_SLACK_MILLIS <= ret + HINT_EXPOSURE_MILLIS && call <= f.end() + DISK_SLACK_MILLIS) {
          return "n" + f.node() + "'s disk was full " + f.start() + "-" + f.end() + " ms";
        }
      }
      return null;
    };
  }

  @Override
  public Verdict check() {
    return check(List.of());
  }

  @Override
  public Verdict check(List<FaultWindow> faults) {
    List<ReplicaChecker.Write> ws;
    List<ReplicaChecker.ReplicaRead> rs;
    synchronized (writes) {
      ws = new ArrayList<>(writes);
    }
    synchronized (reads) {
      rs = new ArrayList<>(reads);
    }
    ReplicaChecker.Result r = ReplicaChecker.check(ws, rs, e -> e % groups, excuse(faults));
    List<String> details = new ArrayList<>();
    details.add(r.acknowledged() + " acknowledged, " + r.failed() + " failed, " + r.indeterminate()
        + " indeterminate inserts at ONE (" + r.recovered() + " of those on every replica at the end); "
        + r.replicaReads() + " reads of one replica each, " + r.checked() + " (element, replica) pairs checked");
    details.addAll(finishNotes);
    details.add("missing from a replica with no excuse: " + r.missingCount());
    for (var e : r.missing().entrySet()) {
      List<Integer> l = new ArrayList<>(e.getValue());
      details.add("  n" + e.getKey() + " lacks " + l.size() + ": " + (l.size() <= 20 ? l : l.subList(0, 20) + "..."));
    }
    details.add("missing with an excuse (coordinator killed soon after, full disk): " + r.excused().size());
    for (String x : r.excused().subList(0, Math.min(5, r.excused().size()))) {
      details.add("  " + x);
    }
    details.add("never written but read: " + r.unexpected().size());
    CheckResult.Verdict v = r.acknowledged() == 0 && r.verdict() == CheckResult.Verdict.OK
        ? CheckResult.Verdict.UNKNOWN : r.verdict();
    return new Verdict(name(), "replicas (every acknowledged write on every replica once hints are delivered)", v,
        details);
  }

  @Override
  public void writeHistory(java.nio.file.Path dir) throws IOException {
    List<String> lines = new ArrayList<>();
    synchronized (writes) {
      for (ReplicaChecker.Write w : writes) {
        lines.add(w.call() + " insert " + w.element() + " (group " + w.element() % groups + ") via n" + w.coordinator()
            + " -> " + w.status() + " at " + w.ret());
      }
    }
    lines.sort(java.util.Comparator.comparingLong(l -> Long.parseLong(l.substring(0, l.indexOf(' ')))));
    synchronized (reads) {
      for (ReplicaChecker.ReplicaRead r : reads) {
        lines.add("final read of group " + r.group() + " on n" + r.replica() + " alone -> "
            + new java.util.TreeSet<>(r.elements()));
      }
    }
    java.nio.file.Files.write(dir.resolve("history-" + name() + ".txt"), lines);
  }

  @Override
  public List<OpRecord> records() {
    synchronized (records) {
      return new ArrayList<>(records);
    }
  }
}
