package io.cassette.lab.workload;

import io.cassette.lab.check.CounterChecker;
import io.cassette.lab.check.Status;
import io.cassette.lab.ring.LabRing;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;
import redis.clients.jedis.Jedis;

/**
 * Redis INCR through every node's RESP door (at the ring's {@code resp_consistency}); each
 * client talks to one node and moves to another when its connection fails. After the run every
 * key is read (GET) through every node and checked as a counter ({@link CounterChecker}).
 */
public final class RedisIncrWorkload implements Workload {
  private static final int TIMEOUT_MILLIS = 5_000;
  private final List<String> hosts;
  private final int port;
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
  /** The first distinct error texts, for the report: a run whose every INCR failed must say why. */
  private final java.util.Set<String> errorSamples = Collections.synchronizedSet(new java.util.LinkedHashSet<>());

  public RedisIncrWorkload(List<String> hosts, int port, LabClock clock, int keys, long operations, long thinkMillis,
                           long seed) {
    this.hosts = hosts;
    this.port = port;
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
    return "redis-incr";
  }

  /** The Redis key of counter {@code k}. */
  public static String key(int k) {
    return "lab:incr:" + k;
  }

  @Override
  public void setup() {}

  @Override
  public void runClient(int client, long deadlineNanos) throws InterruptedException {
    Random random = new Random(seed * 7 + client);
    int host = client % hosts.size();
    Jedis jedis = null;
    try {
      while (clock.nanos() < deadlineNanos && budget.take()) {
        int k = random.nextInt(keys);
        long call = clock.nanos();
        Status s;
        try {
          if (jedis == null) {
            jedis = new Jedis(hosts.get(host), port, TIMEOUT_MILLIS);
            jedis.auth(LabRing.REDIS_PASSWORD);
          }
          jedis.incr(key(k));
          s = Status.OK;
        } catch (RuntimeException e) {
          s = Outcomes.ofRedisWrite(e);
          if (errorSamples.size() < 5) {
            errorSamples.add(s + " " + e.getClass().getSimpleName() + ": " + e.getMessage());
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
        (s == Status.OK ? ok : s == Status.FAIL ? failed : indeterminate).incrementAndGet(k);
        records.add(new OpRecord(name(), call, clock.nanos(), s));
        Thread.sleep(thinkMillis);
      }
    } finally {
      if (jedis != null) {
        jedis.close();
      }
    }
  }

  @Override
  public void finish() {
    for (String h : hosts) {
      try (Jedis jedis = new Jedis(h, port, 10_000)) {
        jedis.auth(LabRing.REDIS_PASSWORD);
        for (int k = 0; k < keys; k++) {
          String v = jedis.get(key(k));
          results.add(CounterChecker.check(key(k) + " via " + h, ok.get(k), failed.get(k),
              indeterminate.get(k), v == null ? 0 : Long.parseLong(v)));
        }
      }
    }
  }

  @Override
  public Verdict check() {
    Verdict v = CounterWorkload.counterVerdict(name(), "counter (acknowledged <= final <= acknowledged + indeterminate)",
        results);
    List<String> details = new ArrayList<>(v.details());
    synchronized (errorSamples) {
      for (String e : errorSamples) {
        details.add("error seen: " + e);
      }
    }
    return new Verdict(v.workload(), v.checker(), v.verdict(), details);
  }

  @Override
  public List<OpRecord> records() {
    synchronized (records) {
      return new ArrayList<>(records);
    }
  }
}
