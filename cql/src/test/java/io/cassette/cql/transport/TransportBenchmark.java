package io.cassette.cql.transport;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntFunction;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Requests per second and p99 of a small prepared INSERT and SELECT through the Java driver,
 * over 1 and 8 connections, 64 requests in flight. Against our server with the test handler
 * by default (transport cost only), through the real language and engine with
 * {@code -Dbench.language=true}, or any node with {@code -Dbench.contact=host:port} (these two
 * create {@code bench.kv}). Run: {@code ./mvnw -o -pl cql -am -Pslow
 * -Dtest=TransportBenchmark -Dsurefire.failIfNoSpecifiedTests=false test}.
 */
@Tag("slow")
class TransportBenchmark {
  private static final int IN_FLIGHT = 64;
  private static final long WARMUP_MILLIS = 3000;
  private static final long MEASURE_MILLIS = 5000;

  @Test
  void preparedInsertAndSelect() throws Exception {
    String contact = System.getProperty("bench.contact");
    CqlServer server = null;
    InetSocketAddress address;
    String table;
    io.cassette.storage.Engine engine = null;
    java.nio.file.Path dataDir = null;
    if (contact == null && Boolean.getBoolean("bench.language")) {
      dataDir = java.nio.file.Files.createTempDirectory("cassette-bench");
      engine = io.cassette.storage.Engine.open(io.cassette.storage.EngineOptions.defaults(dataDir));
      server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), new io.cassette.cql.language.CqlLanguage(
          io.cassette.coordinator.local.LocalCoordinator.open(engine, null), io.cassette.cql.language.NodeInfo.singleNode("Bench", java.net.InetAddress.getByName("127.0.0.1"),
              9042, java.util.UUID.randomUUID(), java.util.List.of(0L))));
      address = server.start();
      table = "bench.kv";
      contact = "language";
    } else if (contact == null) {
      server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), new StubQueryHandler());
      address = server.start();
      table = "ks.kv";
    } else {
      String[] hp = contact.split(":");
      address = new InetSocketAddress(hp[0], Integer.parseInt(hp[1]));
      table = "bench.kv";
    }
    try {
      for (int connections : new int[] {1, 8}) {
        try (CqlSession session = CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
            .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, connections)
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .build()).build()) {
          if (contact != null) {
            session.execute("CREATE KEYSPACE IF NOT EXISTS bench WITH replication = "
                + "{'class': 'SimpleStrategy', 'replication_factor': 1}");
            session.execute("CREATE TABLE IF NOT EXISTS bench.kv (k int PRIMARY KEY, v text)");
          }
          PreparedStatement insert = session.prepare("INSERT INTO " + table + " (k, v) VALUES (?, ?)");
          PreparedStatement select = session.prepare("SELECT v FROM " + table + " WHERE k = ?");
          run(session, "INSERT", connections, i -> insert.bind(i % 100_000, "value-" + i));
          run(session, "SELECT", connections, i -> select.bind(i % 100_000));
        }
      }
    } finally {
      if (server != null) {
        server.close();
      }
      if (engine != null) {
        engine.close();
      }
    }
  }

  private static void run(CqlSession session, String name, int connections, IntFunction<BoundStatement> statement)
      throws InterruptedException {
    phase(session, statement, WARMUP_MILLIS, new ConcurrentHistogram(3));
    Histogram latency = new ConcurrentHistogram(3);
    long start = System.nanoTime();
    long count = phase(session, statement, MEASURE_MILLIS, latency);
    double seconds = (System.nanoTime() - start) / 1e9;
    System.out.printf("BENCH %-6s connections=%d in_flight=%d ops/s=%.0f p50=%.2fms p99=%.2fms p999=%.2fms%n",
        name, connections, IN_FLIGHT, count / seconds, latency.getValueAtPercentile(50) / 1e6,
        latency.getValueAtPercentile(99) / 1e6, latency.getValueAtPercentile(99.9) / 1e6);
  }

  private static long phase(CqlSession session, IntFunction<BoundStatement> statement, long millis, Histogram latency)
      throws InterruptedException {
    Semaphore slots = new Semaphore(IN_FLIGHT);
    AtomicLong done = new AtomicLong();
    long end = System.currentTimeMillis() + millis;
    int i = 0;
    while (System.currentTimeMillis() < end) {
      slots.acquire();
      long t0 = System.nanoTime();
      session.executeAsync(statement.apply(i++)).whenComplete((rs, error) -> {
        latency.recordValue(System.nanoTime() - t0);
        done.incrementAndGet();
        slots.release();
      });
    }
    slots.tryAcquire(IN_FLIGHT, 20, TimeUnit.SECONDS);
    return done.get();
  }
}
