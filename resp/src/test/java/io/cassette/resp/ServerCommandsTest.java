package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;

/** INFO, CLIENT, CONFIG, SLOWLOG, LATENCY, COMMAND, MULTI with blocking commands. */
class ServerCommandsTest {
  @TempDir
  Path dir;

  @Test
  void infoReportsSectionsAndKeyspace() {
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port())) {
      j.set("a", "1");
      j.set("b", "2");
      String info = j.info();
      assertThat(info).contains("# Server", "redis_version:7.0.15", "tcp_port:" + s.port(),
          "# Clients", "connected_clients:1", "# Memory", "# Persistence", "aof_fsync:everysec",
          "# Stats", "# Keyspace", "db0:keys=2");
      assertThat(j.info("keyspace")).doesNotContain("# Server").contains("db0:keys=2");
      assertThat(j.info("latencystats")).contains("# Latencystats");
    }
  }

  @Test
  void clientListKillAndNames() throws Exception {
    try (TestServer s = TestServer.start(dir); Jedis a = new Jedis("127.0.0.1", s.port());
         RawClient b = new RawClient(s.address)) {
      a.clientSetname("worker-a");
      b.command("CLIENT", "ID");
      String idLine = b.reply();
      long idB = Long.parseLong(idLine.substring(1).trim());
      String list = a.clientList();
      assertThat(list).contains("name=worker-a").contains("id=" + idB + " ");
      assertThat(a.clientInfo()).contains("name=worker-a").contains("cmd=client");
      assertThat(a.clientKill(redis.clients.jedis.params.ClientKillParams.clientKillParams()
          .id(Long.toString(idB)))).isEqualTo(1);
      assertThat(b.closedByServer()).isTrue();
      assertThat(a.ping()).isEqualTo("PONG");
    }
  }

  @Test
  void configSetAppendfsyncReachesTheLauncher() {
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port())) {
      List<String> modes = new CopyOnWriteArrayList<>();
      s.server.onAppendfsyncChange(modes::add);
      assertThat(j.configSet("appendfsync", "always")).isEqualTo("OK");
      assertThat(j.configGet("appendfsync")).containsEntry("appendfsync", "always");
      assertThat(modes).containsExactly("always");
      assertThat(j.configResetStat()).isEqualTo("OK");
    }
  }

  @Test
  void slowlogAndLatency() {
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port())) {
      j.configSet("slowlog-log-slower-than", "0");
      j.set("x", "y");
      assertThat(j.slowlogLen()).isGreaterThanOrEqualTo(1);
      assertThat(j.slowlogGet(10).stream().map(e -> String.join(" ", e.getArgs())))
          .contains("SET x y");
      assertThat(j.slowlogReset()).isEqualTo("OK");
      assertThat(j.slowlogLen()).isLessThanOrEqualTo(1);
      assertThat(j.latencyDoctor()).contains("No latency spike was observed");
      j.configSet("latency-monitor-threshold", "1");
      for (int i = 0; i < 300; i++) {
        j.rpush("biglist", "x".repeat(100)); // no command is slow here; only the reset matters
      }
      // Monitoring off first (threshold 0, as in Redis), so a loaded machine's slow request
      // cannot add an event between RESET and LATEST.
      j.configSet("latency-monitor-threshold", "0");
      assertThat(j.sendCommand(redis.clients.jedis.Protocol.Command.LATENCY, "RESET"))
          .isInstanceOf(Long.class);
      assertThat(j.sendCommand(redis.clients.jedis.Protocol.Command.LATENCY, "LATEST"))
          .isEqualTo(List.of());
      assertThat(j.info("commandstats")).contains("cmdstat_rpush:calls=300,");
      assertThat(j.info("latencystats")).contains("latency_percentiles_usec_rpush:p50=");
      Object histogram = j.sendCommand(redis.clients.jedis.Protocol.Command.LATENCY,
          "HISTOGRAM", "rpush");
      assertThat(histogram.toString()).isNotEmpty();
      // CONFIG RESETSTAT zeroes commandstats and errorstats; only commands called since are listed
      assertThat(j.configResetStat()).isEqualTo("OK");
      assertThat(j.info("commandstats")).doesNotContain("cmdstat_rpush");
      j.rpush("after-reset", "x");
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> j.get("after-reset"));
      assertThat(j.info("commandstats")).contains("cmdstat_rpush:calls=1,")
          .contains("cmdstat_get:calls=1,").contains("failed_calls=1");
      assertThat(j.info("errorstats")).contains("errorstat_WRONGTYPE:count=1");
    }
  }

  @Test
  void blockingPopInsideMultiDoesNotBlock() throws Exception {
    try (TestServer s = TestServer.start(dir); RawClient c = new RawClient(s.address)) {
      c.command("MULTI");
      assertThat(c.reply()).isEqualTo("+OK\r\n");
      c.command("BLPOP", "empty", "0");
      assertThat(c.reply()).isEqualTo("+QUEUED\r\n");
      c.command("EXEC");
      assertThat(c.reply()).isEqualTo("*1\r\n*-1\r\n");
    }
  }

  @Test
  void commandInfoAndDocs() throws Exception {
    try (TestServer s = TestServer.start(dir); RawClient c = new RawClient(s.address)) {
      c.command("COMMAND", "INFO", "get", "nosuch");
      String info = c.reply();
      assertThat(info).startsWith("*2\r\n*10\r\n$3\r\nget\r\n:2\r\n").endsWith("*-1\r\n");
      c.command("COMMAND", "DOCS", "get");
      assertThat(c.reply()).startsWith("*2\r\n$3\r\nget\r\n");
    }
  }
}
