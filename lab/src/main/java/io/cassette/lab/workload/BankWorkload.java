package io.cassette.lab.workload;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.metadata.Node;
import io.cassette.lab.check.CheckResult;
import io.cassette.lab.check.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Bank transfers in lightweight transactions (Jepsen's bank test, in Cassandra's shape): the
 * accounts are rows of one partition (a conditional batch must stay in one partition), each
 * starting at 100. A transfer reads the balances at SERIAL, then moves a random amount from one
 * account to another in one conditional batch ({@code UPDATE ... SET balance = ? ... IF balance = ?}
 * for both rows, QUORUM / SERIAL), applied only if neither balance changed since the read. One
 * operation in four is a read of every balance at SERIAL. Checked: every read (during the run
 * and through every node after it) sums to the initial total and shows no negative balance;
 * a transfer that moved money twice or half would break the sum.
 */
public final class BankWorkload implements Workload {
  static final int INITIAL = 100;

  private final CqlSession session;
  private final LabClock clock;
  private final int accounts;
  private final Budget budget;
  private final long thinkMillis;
  private final long seed;
  private final List<OpRecord> records = Collections.synchronizedList(new ArrayList<>());
  private final List<String> bad = Collections.synchronizedList(new ArrayList<>());
  private final List<String> finals = new ArrayList<>();
  private volatile long reads;
  private volatile long applied;
  private PreparedStatement readAll;
  private PreparedStatement move;

  public BankWorkload(CqlSession session, LabClock clock, int accounts, long operations, long thinkMillis, long seed) {
    this.session = session;
    this.clock = clock;
    this.accounts = accounts;
    this.budget = new Budget(operations);
    this.thinkMillis = thinkMillis;
    this.seed = seed;
  }

  @Override
  public String name() {
    return "bank";
  }

  @Override
  public void setup() {
    session.execute("CREATE TABLE IF NOT EXISTS lab.bank (p int, acct int, balance int, PRIMARY KEY (p, acct))");
    PreparedStatement init = session.prepare("INSERT INTO lab.bank (p, acct, balance) VALUES (0, ?, ?) IF NOT EXISTS");
    for (int a = 0; a < accounts; a++) {
      session.execute(init.bind(a, INITIAL).setConsistencyLevel(ConsistencyLevel.QUORUM)
          .setSerialConsistencyLevel(ConsistencyLevel.SERIAL).setTimeout(Duration.ofSeconds(20)));
    }
    readAll = session.prepare("SELECT acct, balance FROM lab.bank WHERE p = 0");
    move = session.prepare("UPDATE lab.bank SET balance = ? WHERE p = 0 AND acct = ? IF balance = ?");
  }

  /** The balances, or null when the read failed; a bad sum is recorded. */
  private int[] read(Node node, String when) {
    var stmt = readAll.bind().setConsistencyLevel(ConsistencyLevel.SERIAL).setTimeout(Duration.ofSeconds(10));
    ResultSet rs = session.execute(node == null ? stmt : stmt.setNode(node));
    int[] balances = new int[accounts];
    int rows = 0;
    long sum = 0;
    for (Row r : rs) {
      int a = r.getInt(0);
      if (a >= 0 && a < accounts) {
        balances[a] = r.getInt(1);
        sum += balances[a];
        rows++;
        if (balances[a] < 0) {
          bad.add(when + ": account " + a + " negative: " + balances[a]);
        }
      }
    }
    if (rows != accounts || sum != (long) accounts * INITIAL) {
      bad.add(when + ": " + rows + " accounts summing to " + sum + ", expected " + accounts + " summing to "
          + (long) accounts * INITIAL + " " + java.util.Arrays.toString(balances));
    }
    return balances;
  }

  @Override
  public void runClient(int client, long deadlineNanos) throws InterruptedException {
    Random random = new Random(seed * 17 + client);
    while (clock.nanos() < deadlineNanos && budget.take()) {
      long call = clock.nanos();
      int[] balances;
      try {
        balances = read(null, "read by client " + client + " at " + call / 1_000_000 + " ms");
        reads++;
      } catch (RuntimeException e) {
        Outcomes.ofCqlWrite(e);
        records.add(new OpRecord(name(), call, clock.nanos(), Status.FAIL));
        Thread.sleep(thinkMillis);
        continue;
      }
      if (random.nextInt(4) == 0) {
        records.add(new OpRecord(name(), call, clock.nanos(), Status.OK));
        Thread.sleep(thinkMillis);
        continue;
      }
      int from = random.nextInt(accounts);
      int to = (from + 1 + random.nextInt(accounts - 1)) % accounts;
      int amount = Math.min(balances[from], 1 + random.nextInt(10));
      BatchStatement batch = BatchStatement.newInstance(DefaultBatchType.LOGGED,
          move.bind(balances[from] - amount, from, balances[from]),
          move.bind(balances[to] + amount, to, balances[to]))
          .setConsistencyLevel(ConsistencyLevel.QUORUM).setSerialConsistencyLevel(ConsistencyLevel.SERIAL);
      long start = clock.nanos();
      Status s;
      try {
        if (session.execute(batch).wasApplied()) {
          applied++;
        }
        s = Status.OK;
      } catch (RuntimeException e) {
        s = Outcomes.ofCqlWrite(e);
      }
      records.add(new OpRecord(name(), start, clock.nanos(), s));
      Thread.sleep(thinkMillis);
    }
  }

  @Override
  public void finish() {
    List<Node> nodes = new ArrayList<>(session.getMetadata().getNodes().values());
    nodes.sort((a, b) -> a.getEndPoint().toString().compareTo(b.getEndPoint().toString()));
    for (Node n : nodes) {
      int[] b = read(n, "final read via " + n.getEndPoint());
      finals.add("final via " + n.getEndPoint() + ": " + java.util.Arrays.toString(b));
    }
  }

  @Override
  public Verdict check() {
    List<String> details = new ArrayList<>();
    details.add(reads + " serial reads, " + applied + " transfers applied; every read must sum to "
        + (long) accounts * INITIAL);
    details.addAll(finals);
    CheckResult.Verdict v = reads == 0 ? CheckResult.Verdict.UNKNOWN : CheckResult.Verdict.OK;
    synchronized (bad) {
      if (!bad.isEmpty()) {
        v = CheckResult.Verdict.VIOLATION;
        details.add(bad.size() + " reads broke the total; the first:");
        details.addAll(bad.subList(0, Math.min(10, bad.size())));
      }
    }
    return new Verdict(name(), "bank (total balance conserved, none negative)", v, details);
  }

  @Override
  public List<OpRecord> records() {
    synchronized (records) {
      return new ArrayList<>(records);
    }
  }
}
