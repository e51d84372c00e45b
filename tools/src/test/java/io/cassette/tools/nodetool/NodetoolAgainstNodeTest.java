package io.cassette.tools.nodetool;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.cassette.tools.nodetool.NodetoolMainTest.Run;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** nodetool against a whole node started by the test, with data written through CQL. */
class NodetoolAgainstNodeTest {
  @TempDir Path dir;

  @Test
  void tablesWrittenThroughCqlAreFlushedSnapshottedAndReported() throws Exception {
    try (TestNode node = TestNode.start(dir, Map.of())) {
      String hostId;
      try (CqlSession s = node.session()) {
        s.execute("CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE shop.orders (id int PRIMARY KEY, item text)");
        for (int i = 0; i < 50; i++) {
          s.execute("INSERT INTO shop.orders (id, item) VALUES (" + i + ", 'item " + i + "')");
        }
        hostId = s.execute("SELECT host_id FROM system.local").one().getUuid(0).toString();
      }

      assertThat(node.nodetool("status").out()).contains("UN  127.0.0.1", hostId);
      assertThat(node.nodetool("flush", "shop").exit()).isZero();
      Run stats = node.nodetool("tablestats", "shop.orders");
      assertThat(stats.out()).contains("Keyspace : shop", "\t\tTable: orders", "\t\tSSTable count: 1",
          "\t\tLocal write count: 50");
      assertThat(node.nodetool("snapshot", "-t", "nightly", "shop").exit()).isZero();
      assertThat(node.nodetool("listsnapshots").out()).containsPattern("nightly +shop +orders ");
      Run unknown = node.nodetool("flush", "shop", "invoices");
      assertThat(unknown.exit()).isEqualTo(1);
      assertThat(unknown.err()).isEqualTo("nodetool: Unknown table 'invoices' in keyspace 'shop'\n");
    }
  }

  /** Sends one RESP command on a fresh connection and returns the first reply line. */
  private static String redis(int port, String... args) throws Exception {
    try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
      s.setSoTimeout(10_000);
      StringBuilder cmd = new StringBuilder("*" + args.length + "\r\n");
      for (String a : args) {
        cmd.append('$').append(a.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(a).append("\r\n");
      }
      s.getOutputStream().write(cmd.toString().getBytes(StandardCharsets.UTF_8));
      java.io.BufferedReader in = new java.io.BufferedReader(
          new java.io.InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
      String line = in.readLine();
      return line.startsWith("$") && !line.equals("$-1") ? in.readLine() : line;
    }
  }

  /** nodetool settraceprobability: requests nobody asked to trace land in system_traces. */
  @Test
  void settraceprobabilityTracesRequestsIntoSystemTraces() throws Exception {
    try (TestNode node = TestNode.start(dir, Map.of())) {
      try (CqlSession s = node.session()) {
        assertThat(node.nodetool("gettraceprobability").out()).isEqualTo("Current trace probability: 0.0\n");
        assertThat(node.nodetool("settraceprobability", "1").exit()).isZero();
        try {
          assertThat(node.nodetool("gettraceprobability").out()).isEqualTo("Current trace probability: 1.0\n");
          for (int i = 0; i < 3; i++) {
            s.execute("SELECT release_version FROM system.local WHERE key = 'local'");
          }
        } finally {
          assertThat(node.nodetool("settraceprobability", "0").exit()).isZero();
        }
        long traced = s.execute("SELECT parameters FROM system_traces.sessions").all().stream()
            .filter(r -> r.getMap(0, String.class, String.class).getOrDefault("query", "")
                .equals("SELECT release_version FROM system.local WHERE key = 'local'")).count();
        assertThat(traced).isGreaterThanOrEqualTo(3);
        Run bad = node.nodetool("settraceprobability", "2");
        assertThat(bad.exit()).isEqualTo(1);
        assertThat(bad.err()).isEqualTo("nodetool: Trace probability must be between 0 and 1\n");
      }
    }
  }

  /** Cassandra's drain stops writes: after it both doors refuse writes clearly and still serve reads. */
  @Test
  void afterDrainCqlAndRedisWritesFailAndReadsAreServed() throws Exception {
    try (TestNode node = TestNode.start(dir, true, Map.of())) {
      int resp = node.resp;
      try (CqlSession s = node.session()) {
        s.execute("CREATE KEYSPACE shop WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        s.execute("CREATE TABLE shop.orders (id int PRIMARY KEY, item text)");
        s.execute("INSERT INTO shop.orders (id, item) VALUES (1, 'one')");
        assertThat(redis(resp, "SET", "k", "v")).isEqualTo("+OK");

        assertThat(node.nodetool("drain").exit()).isZero();
        assertThat(node.nodetool("info").out()).contains("Mode                   : DRAINED");

        // CQL answers a refused write as Cassandra answers a replica's failure: WriteFailure.
        org.assertj.core.api.Assertions.assertThatThrownBy(
                () -> s.execute("INSERT INTO shop.orders (id, item) VALUES (2, 'two')"))
            .isInstanceOf(com.datastax.oss.driver.api.core.servererrors.WriteFailureException.class);
        assertThat(redis(resp, "SET", "k", "w")).startsWith("-").contains("drained");
        assertThat(s.execute("SELECT item FROM shop.orders WHERE id = 1").one().getString(0)).isEqualTo("one");
        assertThat(s.execute("SELECT item FROM shop.orders WHERE id = 2").one()).isNull();
        assertThat(redis(resp, "GET", "k")).isEqualTo("v");
      }
    }
  }
}
