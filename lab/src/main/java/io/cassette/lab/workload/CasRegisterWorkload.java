package io.cassette.lab.workload;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.cassette.lab.check.CasRegister;
import io.cassette.lab.check.CasRegister.Op;
import io.cassette.lab.check.CheckResult;
import io.cassette.lab.check.LinearizabilityChecker;
import io.cassette.lab.check.Operation;
import io.cassette.lab.check.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A compare-and-set register per key, in CQL lightweight transactions (Knossos's cas-register
 * as Jepsen's Cassandra tests run it): every key starts at 0 ({@code INSERT ... IF NOT EXISTS});
 * then each client picks a key and reads it at SERIAL, writes a fresh value
 * ({@code UPDATE ... IF EXISTS}) or compare-and-sets from the last value it saw
 * ({@code UPDATE ... IF v = ?}), commit level QUORUM, serial level SERIAL. Values are unique
 * per write (client × 1,000,000 + sequence), which keeps the search narrow. Checked per key by
 * {@link LinearizabilityChecker}.
 */
public final class CasRegisterWorkload implements Workload {
  private final CqlSession session;
  private final LabClock clock;
  private final int keys;
  private final Budget budget;
  private final long thinkMillis;
  private final long seed;
  private final List<Operation<Op, Object>> history = Collections.synchronizedList(new ArrayList<>());
  private final List<OpRecord> records = Collections.synchronizedList(new ArrayList<>());
  private PreparedStatement read;
  private PreparedStatement write;
  private PreparedStatement cas;

  public CasRegisterWorkload(CqlSession session, LabClock clock, int keys, long operations, long thinkMillis, long seed) {
    this.session = session;
    this.clock = clock;
    this.keys = keys;
    this.budget = new Budget(operations);
    this.thinkMillis = thinkMillis;
    this.seed = seed;
  }

  @Override
  public String name() {
    return "cas-register";
  }

  @Override
  public void setup() {
    session.execute("CREATE TABLE IF NOT EXISTS lab.registers (k text PRIMARY KEY, v int)");
    PreparedStatement init = session.prepare("INSERT INTO lab.registers (k, v) VALUES (?, 0) IF NOT EXISTS");
    for (int k = 0; k < keys; k++) {
      session.execute(init.bind("r" + k).setConsistencyLevel(ConsistencyLevel.QUORUM)
          .setSerialConsistencyLevel(ConsistencyLevel.SERIAL).setTimeout(Duration.ofSeconds(20)));
    }
    read = session.prepare("SELECT v FROM lab.registers WHERE k = ?");
    write = session.prepare("UPDATE lab.registers SET v = ? WHERE k = ? IF EXISTS");
    cas = session.prepare("UPDATE lab.registers SET v = ? WHERE k = ? IF v = ?");
  }

  @Override
  public void runClient(int client, long deadlineNanos) throws InterruptedException {
    Random random = new Random(seed * 31 + client);
    int[] lastSeen = new int[keys];
    int sequence = 0;
    while (clock.nanos() < deadlineNanos && budget.take()) {
      int k = random.nextInt(keys);
      String key = "r" + k;
      int choice = random.nextInt(10);
      long call = clock.nanos();
      if (choice < 4) {
        try {
          Row row = session.execute(read.bind(key).setConsistencyLevel(ConsistencyLevel.SERIAL)).one();
          Integer v = row == null || row.isNull(0) ? null : row.getInt(0);
          long ret = clock.nanos();
          history.add(Operation.ok(client, key, new CasRegister.Read(), v, call, ret));
          records.add(new OpRecord(name(), call, ret, Status.OK));
          if (v != null) {
            lastSeen[k] = v;
          }
        } catch (RuntimeException e) {
          Outcomes.ofCqlWrite(e); // rethrows a statement the node calls invalid
          records.add(new OpRecord(name(), call, clock.nanos(), Status.FAIL)); // a read that failed changed nothing
        }
      } else {
        int value = client * 1_000_000 + (++sequence);
        boolean isWrite = choice < 6;
        Op op = isWrite ? new CasRegister.Write(value) : new CasRegister.Cas(lastSeen[k], value);
        try {
          ResultSet rs = session.execute((isWrite ? write.bind(value, key) : cas.bind(value, key, lastSeen[k]))
              .setConsistencyLevel(ConsistencyLevel.QUORUM).setSerialConsistencyLevel(ConsistencyLevel.SERIAL));
          long ret = clock.nanos();
          boolean applied = rs.wasApplied();
          if (isWrite && !applied) {
            // IF EXISTS not applied: the register was read as absent, which it never is after setup.
            history.add(Operation.ok(client, key, new CasRegister.Read(), null, call, ret));
          } else {
            history.add(Operation.ok(client, key, op, isWrite ? null : applied, call, ret));
          }
          records.add(new OpRecord(name(), call, ret, Status.OK));
          if (applied) {
            lastSeen[k] = value;
          }
        } catch (RuntimeException e) {
          Status s = Outcomes.ofCqlWrite(e);
          long ret = clock.nanos();
          history.add(s == Status.FAIL ? Operation.fail(client, key, op, call, ret)
              : Operation.indeterminate(client, key, op, call));
          records.add(new OpRecord(name(), call, ret, s));
        }
      }
      Thread.sleep(thinkMillis);
    }
  }

  @Override
  public void finish() {}

  /**
   * The search budget per key. The checker's 5,000,000 left a key of a 300 s pause run UNKNOWN
   * (2,990 operations, 443 of them indeterminate: the history without the unobserved writes is
   * not linearizable, so the whole is searched); it is linearizable within 10,000,000 steps
   * (RecordedHistoriesTest). A key that needs it all costs minutes, once, after the run.
   */
  static final long SEARCH_STEPS = 50_000_000;

  @Override
  public Verdict check() {
    List<Operation<Op, Object>> h;
    synchronized (history) {
      h = new ArrayList<>(history);
    }
    LinearizabilityChecker<Optional<Integer>, Op, Object> checker = new LinearizabilityChecker<>(new CasRegister(0),
        SEARCH_STEPS);
    long start = System.nanoTime();
    List<CheckResult> results = checker.checkByKey(h);
    long ms = (System.nanoTime() - start) / 1_000_000;
    List<String> details = new ArrayList<>();
    details.add(results.size() + " keys, " + h.size() + " operations, checked in " + ms + " ms");
    for (CheckResult r : results) {
      details.add(r.key() + ": " + r.verdict() + " (" + r.operations() + " operations searched)");
      details.addAll(r.explanation());
    }
    return new Verdict(name(), "linearizability (Wing-Gong/Lowe, per key)", LinearizabilityChecker.overall(results),
        details);
  }

  @Override
  public void writeHistory(java.nio.file.Path dir) throws java.io.IOException {
    List<Operation<Op, Object>> h;
    synchronized (history) {
      h = new ArrayList<>(history);
    }
    h.sort(java.util.Comparator.comparingLong(Operation::call));
    List<String> lines = new ArrayList<>();
    for (Operation<Op, Object> op : h) {
      lines.add(op.toString());
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
