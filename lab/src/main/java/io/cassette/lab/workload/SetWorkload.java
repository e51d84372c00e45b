package io.cassette.lab.workload;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.cassette.lab.check.CheckResult;
import io.cassette.lab.check.SetChecker;
import io.cassette.lab.check.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Acknowledged inserts at QUORUM, none lost: unique integers into {@code lab.elements}, one
 * partition per {@code element % groups}; one operation in ten reads a whole group at QUORUM.
 * After the run each group is read at QUORUM through every node in turn. {@link SetChecker}:
 * an acknowledged element must be in every read that began after its acknowledgement.
 */
public final class SetWorkload implements Workload {
  private final CqlSession session;
  private final LabClock clock;
  private final int groups;
  private final Budget budget;
  private final long thinkMillis;
  private final long seed;
  private final AtomicInteger next = new AtomicInteger();
  private final List<SetChecker.Insert> inserts = Collections.synchronizedList(new ArrayList<>());
  private final List<SetChecker.Read> reads = Collections.synchronizedList(new ArrayList<>());
  private final List<OpRecord> records = Collections.synchronizedList(new ArrayList<>());
  private PreparedStatement insert;
  private PreparedStatement read;

  public SetWorkload(CqlSession session, LabClock clock, int groups, long operations, long thinkMillis, long seed) {
    this.session = session;
    this.clock = clock;
    this.groups = groups;
    this.budget = new Budget(operations);
    this.thinkMillis = thinkMillis;
    this.seed = seed;
  }

  @Override
  public String name() {
    return "set";
  }

  @Override
  public void setup() {
    session.execute("CREATE TABLE IF NOT EXISTS lab.elements (g int, e int, PRIMARY KEY (g, e))");
    insert = session.prepare("INSERT INTO lab.elements (g, e) VALUES (?, ?)");
    read = session.prepare("SELECT e FROM lab.elements WHERE g = ?");
  }

  @Override
  public void runClient(int client, long deadlineNanos) throws InterruptedException {
    Random random = new Random(seed * 17 + client);
    while (clock.nanos() < deadlineNanos && budget.take()) {
      if (random.nextInt(10) == 0) {
        readGroup(random.nextInt(groups), null, false);
      } else {
        int e = next.incrementAndGet();
        long call = clock.nanos();
        Status s;
        try {
          session.execute(insert.bind(e % groups, e).setConsistencyLevel(ConsistencyLevel.QUORUM));
          s = Status.OK;
        } catch (RuntimeException ex) {
          s = Outcomes.ofCqlWrite(ex);
        }
        long ret = clock.nanos();
        inserts.add(new SetChecker.Insert(e, call, ret, s));
        records.add(new OpRecord(name(), call, ret, s));
      }
      Thread.sleep(thinkMillis);
    }
  }

  /** A QUORUM read of group {@code g} (through {@code via} when given); a failed read is only counted. */
  private void readGroup(int g, Node via, boolean fin) {
    long call = clock.nanos();
    try {
      BoundStatement st = read.bind(g).setConsistencyLevel(ConsistencyLevel.QUORUM).setPageSize(100_000);
      if (via != null) {
        st = st.setNode(via).setTimeout(Duration.ofSeconds(10));
      }
      ResultSet rs = session.execute(st);
      Set<Integer> got = new HashSet<>();
      for (Row row : rs) {
        got.add(row.getInt(0));
      }
      long ret = clock.nanos();
      String coordinator = rs.getExecutionInfo().getCoordinator().getEndPoint().toString();
      reads.add(new SetChecker.Read(g, call, ret, got, fin, coordinator));
      if (!fin) {
        records.add(new OpRecord(name(), call, ret, Status.OK));
      }
    } catch (RuntimeException e) {
      Outcomes.ofCqlWrite(e);
      if (fin) {
        throw new IllegalStateException("final read of group " + g + " via " + via + " failed", e);
      }
      records.add(new OpRecord(name(), call, clock.nanos(), Status.FAIL));
    }
  }

  @Override
  public void finish() {
    List<Node> nodes = new ArrayList<>(session.getMetadata().getNodes().values());
    nodes.sort((a, b) -> a.getEndPoint().toString().compareTo(b.getEndPoint().toString()));
    for (Node n : nodes) {
      for (int g = 0; g < groups; g++) {
        readGroup(g, n, true);
      }
    }
  }

  @Override
  public Verdict check() {
    List<SetChecker.Insert> ins;
    List<SetChecker.Read> rds;
    synchronized (inserts) {
      ins = new ArrayList<>(inserts);
    }
    synchronized (reads) {
      rds = new ArrayList<>(reads);
    }
    SetChecker.Result r = SetChecker.check(ins, rds, e -> e % groups);
    List<String> details = new ArrayList<>();
    details.add(r.acknowledged() + " acknowledged, " + r.failed() + " failed, " + r.indeterminate()
        + " indeterminate inserts (" + r.recovered() + " of those present at the end); " + r.reads() + " reads");
    details.add("lost (acknowledged, missing from a final read): " + r.lost().size() + abbreviate(r.lost()));
    details.add("stale (acknowledged, missing from a later read): " + r.stale().size());
    int shown = 0;
    for (var e : r.stale().entrySet()) {
      if (shown++ == 10) {
        details.add("  ...");
        break;
      }
      details.add("  element " + e.getKey() + ": " + e.getValue());
    }
    details.add("never inserted but read: " + r.unexpected().size() + abbreviate(r.unexpected()));
    // Nothing acknowledged proves nothing: UNKNOWN, not a vacuous OK.
    CheckResult.Verdict v = r.acknowledged() == 0 && r.verdict() == CheckResult.Verdict.OK
        ? CheckResult.Verdict.UNKNOWN : r.verdict();
    return new Verdict(name(), "set (acknowledged inserts visible to every later QUORUM read)", v, details);
  }

  @Override
  public void writeHistory(java.nio.file.Path dir) throws java.io.IOException {
    List<String> lines = new ArrayList<>();
    synchronized (inserts) {
      for (SetChecker.Insert i : inserts) {
        lines.add(i.call() + " insert " + i.element() + " (group " + i.element() % groups + ") -> " + i.status()
            + " at " + i.ret());
      }
    }
    synchronized (reads) {
      for (SetChecker.Read r : reads) {
        lines.add(r.call() + " read group " + r.group() + (r.fin() ? " (final)" : "") + " via " + r.via() + " -> "
            + new java.util.TreeSet<>(r.elements()) + " at " + r.ret());
      }
    }
    lines.sort(java.util.Comparator.comparingLong(l -> Long.parseLong(l.substring(0, l.indexOf(' ')))));
    java.nio.file.Files.write(dir.resolve("history-" + name() + ".txt"), lines);
  }

  private static String abbreviate(Set<Integer> s) {
    if (s.isEmpty()) {
      return "";
    }
    List<Integer> l = new ArrayList<>(s);
    return " " + (l.size() <= 20 ? l : l.subList(0, 20) + "...");
  }

  @Override
  public List<OpRecord> records() {
    synchronized (records) {
      return new ArrayList<>(records);
    }
  }
}
