package io.cassette.lab.workload;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.cassette.lab.check.CheckResult;
import io.cassette.lab.check.CounterChecker;
import io.cassette.lab.check.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * CQL counters incremented by one at QUORUM; after the run each is read at QUORUM through every
 * node, and every read must lie within [acknowledged, acknowledged + indeterminate]
 * ({@link CounterChecker}).
 */
public final class CounterWorkload implements Workload {
  private final CqlSession session;
  private final LabClock clock;
  private final int keys;
  private final Budget budget;
  private final long thinkMillis;
  private final long seed;
  private final AtomicLongArray ok;
  private final AtomicLongArray failed;
  private final AtomicLongArray indeterminate;
  private final List<OpRecord> records = Collections.synchronizedList(new ArrayList<>());
  private final List<CounterChecker.Result> results = new ArrayList<>();
  private PreparedStatement increment;

  public CounterWorkload(CqlSession session, LabClock clock, int keys, long operations, long thinkMillis, long seed) {
    this.session = session;
    this.clock = clock;
    this.keys = keys;
    this.budget = new Budget(operations);
    this.thinkMillis = thinkMillis;
    this.seed = seed;
    this.ok = new AtomicLongArray(keys);
    this.failed = new AtomicLongArray(keys);
    this.indeterminate = new AtomicLongArray(keys);
  }

  @Override
  public String name() {
    return "counter";
  }

  @Override
  public void setup() {
    session.execute("CREATE TABLE IF NOT EXISTS lab.counters (k text PRIMARY KEY, c counter)");
    increment = session.prepare("UPDATE lab.counters SET c = c + 1 WHERE k = ?");
  }

  @Override
  public void runClient(int client, long deadlineNanos) throws InterruptedException {
    Random random = new Random(seed * 13 + client);
    while (clock.nanos() < deadlineNanos && budget.take()) {
      int k = random.nextInt(keys);
      long call = clock.nanos();
      Status s;
      try {
        session.execute(increment.bind("c" + k).setConsistencyLevel(ConsistencyLevel.QUORUM));
        s = Status.OK;
      } catch (RuntimeException e) {
        s = Outcomes.ofCqlWrite(e);
      }
      (s == Status.OK ? ok : s == Status.FAIL ? failed : indeterminate).incrementAndGet(k);
      records.add(new OpRecord(name(), call, clock.nanos(), s));
      Thread.sleep(thinkMillis);
    }
  }

  @Override
  public void finish() {
    List<Node> nodes = new ArrayList<>(session.getMetadata().getNodes().values());
    nodes.sort((a, b) -> a.getEndPoint().toString().compareTo(b.getEndPoint().toString()));
    for (Node n : nodes) {
      for (int k = 0; k < keys; k++) {
        Row row = session.execute(session.prepare("SELECT c FROM lab.counters WHERE k = ?").bind("c" + k)
            .setConsistencyLevel(ConsistencyLevel.QUORUM).setNode(n).setTimeout(Duration.ofSeconds(10))).one();
        long value = row == null || row.isNull(0) ? 0 : row.getLong(0);
        results.add(CounterChecker.check("c" + k + " via " + n.getEndPoint(), ok.get(k), failed.get(k),
            indeterminate.get(k), value));
      }
    }
  }

  @Override
  public Verdict check() {
    return counterVerdict(name(), "counter (acknowledged <= final <= acknowledged + indeterminate)", results);
  }

  static Verdict counterVerdict(String name, String checker, List<CounterChecker.Result> results) {
    List<String> details = new ArrayList<>();
    // Nothing acknowledged proves nothing: UNKNOWN, not a vacuous OK.
    boolean anyAcknowledged = results.stream().anyMatch(r -> r.acknowledged() > 0);
    CheckResult.Verdict v = anyAcknowledged ? CheckResult.Verdict.OK : CheckResult.Verdict.UNKNOWN;
    for (CounterChecker.Result r : results) {
      details.add(r.describe() + " (" + r.failed() + " failed)");
      if (r.verdict() != CheckResult.Verdict.OK) {
        v = r.verdict();
      }
    }
    return new Verdict(name, checker, v, details);
  }

  @Override
  public List<OpRecord> records() {
    synchronized (records) {
      return new ArrayList<>(records);
    }
  }
}
