package io.cassette.resp.ring;

import io.cassette.coordinator.ring.RingHarness;
import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.NodeMetrics;
import io.cassette.resp.RespServer;
import io.cassette.resp.RespServerOptions;
import io.cassette.resp.keyspace.RedisReplication;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/**
 * Not a test: SET and INCR throughput on a 3-node ring with the redis keyspace on 3 replicas (one
 * JVM, RingHarness), three clients (one per node) at once. Run by name:
 * {@code -Dtest=RedisRf3ThroughputProbe}; the figures are printed (PROBE lines).
 */
class RedisRf3ThroughputProbe {
  @TempDir
  Path dir;

  @Test
  void probe() throws Exception {
    try (RingHarness ring = new RingHarness(dir, 3, 16, b -> b)) {
      List<RespServer> servers = new ArrayList<>();
      List<InetSocketAddress> addresses = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        RedisReplication.apply(ring.node(i).local(), 3);
        new io.cassette.resp.keyspace.Keyspace(ring.node(i).local(), 0);
      }
      for (int i = 0; i < 3; i++) {
        RespServer s = new RespServer(RespServerOptions.ephemeral().withCommandThread(1),
            ring.node(i).coordinator(), new NodeMetrics(new LatencyMonitor()));
        s.ring(ring.node(i).messaging());
        addresses.add(s.start());
        servers.add(s);
      }
      try {
        for (int round = 0; round < 3; round++) {
          for (String op : new String[] {"set", "incr"}) {
            int n = round == 0 ? 300 : 1500;
            long start = System.nanoTime();
            Thread[] t = new Thread[3];
            for (int c = 0; c < 3; c++) {
              InetSocketAddress a = addresses.get(c);
              int client = c;
              t[c] = new Thread(() -> {
                try (Jedis j = new Jedis(a.getHostString(), a.getPort(), 30_000)) {
                  for (int i = 0; i < n; i++) {
                    String key = "k" + client + ":" + (i % 100);
                    if (op.equals("set")) {
                      j.set(key, "v" + i);
                    } else {
                      j.incr("n" + key);
                    }
                  }
                }
              });
              t[c].start();
            }
            for (Thread x : t) {
              x.join();
            }
            double secs = (System.nanoTime() - start) / 1e9;
            System.out.printf("PROBE round %d %s: %d ops in %.2f s = %.0f ops/s%n", round, op, 3 * n, secs, 3 * n / secs);
          }
        }
      } finally {
        servers.forEach(RespServer::close);
      }
    }
  }
}
