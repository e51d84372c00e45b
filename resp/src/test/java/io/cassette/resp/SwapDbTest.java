package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisDataException;

/**
 * SWAPDB (issue 20): the two databases exchange their data for every client at once, the swap
 * survives a restart (it is in the metadata log), watched keys of both databases that exist on
 * either side are touched, and a client blocked in one of them is served by what arrived.
 */
class SwapDbTest {
  @TempDir
  Path dir;

  private static Jedis client(TestServer s, int db) {
    Jedis j = new Jedis("127.0.0.1", s.port(), 30_000);
    j.select(db);
    return j;
  }

  @Test
  void swapsDataDurablyAndTouchesWatchedKeys() {
    TestServer server = TestServer.start(dir);
    try {
      try (Jedis a = client(server, 0); Jedis b = client(server, 1)) {
        a.set("x", "in0");
        b.set("y", "in1");
        b.set("z", "in1");
        assertThat(a.swapDB(0, 1)).isEqualTo("OK");
        assertThat(a.get("y")).isEqualTo("in1");
        assertThat(a.get("x")).isNull();
        assertThat(a.dbSize()).isEqualTo(2);
        assertThat(b.get("x")).isEqualTo("in0");
        assertThat(b.dbSize()).isEqualTo(1);
        a.set("w", "written after");
        assertThat(a.swapDB(1, 1)).isEqualTo("OK"); // same index: nothing changes

        assertThatThrownBy(() -> a.sendCommand(redis.clients.jedis.Protocol.Command.SWAPDB, "a", "1"))
            .isInstanceOf(JedisDataException.class).hasMessage("ERR invalid first DB index");
        assertThatThrownBy(() -> a.sendCommand(redis.clients.jedis.Protocol.Command.SWAPDB, "0", "x"))
            .isInstanceOf(JedisDataException.class).hasMessage("ERR invalid second DB index");
        assertThatThrownBy(() -> a.swapDB(0, 16))
            .isInstanceOf(JedisDataException.class).hasMessage("ERR DB index is out of range");

        // A watched key that exists (db 0's y) is touched; so is a missing one the other side has.
        a.watch("y");
        a.swapDB(0, 1);
        assertThat(exec(a)).isNull();
        b.watch("y"); // b is in db 1, which now holds y; db 0 has none: touched
        b.swapDB(0, 1);
        assertThat(exec(b)).isNull();
        a.watch("nowhere"); // in neither database: untouched
        a.swapDB(0, 1);
        assertThat(exec(a)).containsExactly(false);
        a.swapDB(1, 0); // the fifth swap: db 0 holds the first db 1's data, and w
      }
      server = server.restart(dir);
      try (Jedis a = client(server, 0); Jedis b = client(server, 1)) {
        assertThat(a.get("y")).isEqualTo("in1");
        assertThat(a.get("w")).isEqualTo("written after");
        assertThat(b.get("x")).isEqualTo("in0");
        assertThat(b.dbSize()).isEqualTo(1);
      }
    } finally {
      server.close();
    }
  }

  @Test
  void wakesAClientBlockedOnAKeyTheOtherDatabaseHas() throws Exception {
    try (TestServer server = TestServer.start(dir);
         Jedis a = client(server, 1); Jedis blocked = client(server, 9)) {
      a.rpush("k", "hello");
      CompletableFuture<List<String>> pop = CompletableFuture.supplyAsync(() -> blocked.brpop(20, "k"));
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (!a.clientList().contains("cmd=brpop") && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      a.swapDB(1, 9);
      assertThat(pop.get(20, TimeUnit.SECONDS)).containsExactly("k", "hello");
      assertThat(a.exists("k")).isFalse();
    }
  }

  private static List<Object> exec(Jedis j) {
    Transaction t = j.multi();
    t.exists("never-written");
    return t.exec();
  }
}
