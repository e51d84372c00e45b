package io.cassette.lab.workload;

import io.cassette.lab.check.CasRegister;
import io.cassette.lab.check.CasRegister.Op;
import io.cassette.lab.check.CheckResult;
import io.cassette.lab.check.LinearizabilityChecker;
import io.cassette.lab.check.Operation;
import io.cassette.lab.check.Status;
import io.cassette.lab.ring.LabRing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import redis.clients.jedis.Jedis;

/**
 * A read/write register per key over Redis: SET of a fresh value and GET, through every node's
 * RESP door (at the ring's {@code resp_consistency}), checked per key by
 * {@link LinearizabilityChecker} on Knossos's register (no CAS: Redis's SET has none without
 * scripts). One node executes each key's commands, so with the {@code redis} keyspace on a
 * majority of replicas a GET after a fault must still return the last acknowledged SET (or a
 * concurrent one), never an older value. Values are unique per write (client x 1,000,000 +
 * sequence); every key starts at 0.
 */
public final class RedisRegisterWorkload implements Workload {
  private static final int TIMEOUT_MILLIS = 5_000;
  private final List<String> hosts;
  private final int port;
  private final LabClock clock;
  private final int keys;
  private final Budget budget;
  private final long thinkMillis;
  private final long seed;
  private final List<Operation<Op, Object>> history = Collections.synchronizedList(new ArrayList<>());
  private final List<OpRecord> records = Collections.synchronizedList(new ArrayList<>());
  /** The first distinct error texts, for the report. */
  private final java.util.Set<String> errorSamples = Collections.synchronizedSet(new java.util.LinkedHashSet<>());

  public RedisRegisterWorkload(List<String> hosts, int port, LabClock clock, int keys, long operations,
                               long thinkMillis, long seed) {
    this.hosts = hosts;
    this.port = port;
    this.clock = clock;
    this.keys = keys;
    this.budget = new Budget(operations);
    this.thinkMillis = thinkMillis;
    this.seed = seed;
  }

  @Override
  public String name() {
    return "redis-register";
  }

  /** The Redis key of register {@code k}. */
  public static String key(int k) {
    return "lab:reg:" + k;
  }

  @Override
  public void setup() {
    for (int attempt = 1; ; attempt++) {
      try (Jedis jedis = new Jedis(hosts.get(0), port, 20_000)) {
        jedis.auth(LabRing.REDIS_PASSWORD);
        for (int k = 0; k < keys; k++) {
          jedis.set(key(k), "0");
        }
        return;
      } catch (RuntimeException e) {
        if (attempt >= 10) {
          throw e; // the ring just started; an executor may not be UP everywhere yet
        }
        sleep(1_000);
      }
    }
  }

  @Override
  public void runClient(int client, long deadlineNanos) throws InterruptedException {
    Random random = new Random(seed * 13 + client);
    int host = client % hosts.size();
    int sequence = 0;
    Jedis jedis = null;
    try {
      while (clock.nanos() < deadlineNanos && budget.take()) {
        int k = random.nextInt(keys);
        String key = key(k);
        boolean read = random.nextInt(2) == 0;
        int value = client * 1_000_000 + (++sequence);
        Op op = read ? new CasRegister.Read() : new CasRegister.Write(value);
        long call = clock.nanos();
        Status s;
        try {
          if (jedis == null) {
            jedis = new Jedis(hosts.get(host), port, TIMEOUT_MILLIS);
            jedis.auth(LabRing.REDIS_PASSWORD);
          }
          if (read) {
            String v = jedis.get(key);
            long ret = clock.nanos();
            history.add(Operation.ok(client, key, op, v == null ? null : Integer.valueOf(v), call, ret));
          } else {
            jedis.set(key, Integer.toString(value));
            history.add(Operation.ok(client, key, op, null, call, clock.nanos()));
          }
          s = Status.OK;
        } catch (RuntimeException e) {
          s = Outcomes.ofRedisWrite(e);
          if (errorSamples.size() < 5) {
            errorSamples.add(s + " " + e.getClass().getSimpleName() + ": " + e.getMessage());
          }
          if (!read) { // a read that failed changed nothing: left out of the history
            history.add(s == Status.FAIL ? Operation.fail(client, key, op, call, clock.nanos())
                : Operation.indeterminate(client, key, op, call));
          }
          // A lost connection, or CLUSTERDOWN: this node is cut off from a majority of the key's
          // replicas (Redis on several replicas); a client then tries another node, as a client
          // of a Redis Cluster does, instead of failing for the whole partition.
          if (e instanceof redis.clients.jedis.exceptions.JedisConnectionException || s == Status.FAIL) {
            if (jedis != null) {
              jedis.close();
            }
            jedis = null;
            host = (host + 1) % hosts.size();
          }
        }
        records.add(new OpRecord(name(), call, clock.nanos(), s));
        Thread.sleep(thinkMillis);
      }
    } finally {
      if (jedis != null) {
        jedis.close();
      }
    }
  }

  /** The final GETs through every node join the history as reads after everything else. */
  @Override
  public void finish() {
    int client = 10_000;
    for (String h : hosts) {
      try (Jedis jedis = new Jedis(h, port, 10_000)) {
        jedis.auth(LabRing.REDIS_PASSWORD);
        for (int k = 0; k < keys; k++) {
          long call = clock.nanos();
          String v = jedis.get(key(k));
          history.add(Operation.ok(client, key(k), new CasRegister.Read(), v == null ? null : Integer.valueOf(v),
              call, clock.nanos()));
        }
      }
      client++;
    }
  }

  @Override
  public Verdict check() {
    List<Operation<Op, Object>> h;
    synchronized (history) {
      h = new ArrayList<>(history);
    }
    LinearizabilityChecker<Optional<Integer>, Op, Object> checker = new LinearizabilityChecker<>(new CasRegister(0));
    long start = System.nanoTime();
    List<CheckResult> results = checker.checkByKey(h);
    long ms = (System.nanoTime() - start) / 1_000_000;
    List<String> details = new ArrayList<>();
    details.add(results.size() + " keys, " + h.size() + " operations (final reads through every node included), "
        + "checked in " + ms + " ms");
    for (CheckResult r : results) {
      details.add(r.key() + ": " + r.verdict() + " (" + r.operations() + " operations searched)");
      details.addAll(r.explanation());
    }
    synchronized (errorSamples) {
      for (String e : errorSamples) {
        details.add("error seen: " + e);
      }
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

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }
}
