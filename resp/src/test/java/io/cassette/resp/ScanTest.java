package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/** SCAN and HSCAN cursors visit every element exactly once. */
class ScanTest {
  @TempDir
  Path dir;

  @Test
  void scanVisitsEveryKeyOnceAcrossManyCursors() {
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port())) {
      Pipeline p = j.pipelined();
      for (int i = 0; i < 1000; i++) {
        p.set("key:" + i, "v");
      }
      p.hset("a-hash", "f", "v");
      p.sync();
      List<String> seen = new ArrayList<>();
      String cursor = "0";
      int rounds = 0;
      do {
        ScanResult<String> r = j.scan(cursor, new ScanParams().count(10).match("key:*"));
        seen.addAll(r.getResult());
        cursor = r.getCursor();
        rounds++;
      } while (!cursor.equals("0"));
      assertThat(rounds).isGreaterThan(50);
      assertThat(seen).hasSize(1000).doesNotHaveDuplicates();
      ScanResult<String> hashes = j.scan("0", new ScanParams().count(2000), "hash");
      assertThat(hashes.getResult()).containsExactly("a-hash");
    }
  }

  @Test
  void hscanPagesThroughALargeHash() {
    try (TestServer s = TestServer.start(dir); Jedis j = new Jedis("127.0.0.1", s.port())) {
      Pipeline p = j.pipelined();
      for (int i = 0; i < 1500; i++) {
        p.hset("h", "f" + i, Integer.toString(i));
      }
      p.sync();
      Set<String> fields = new HashSet<>();
      String cursor = "0";
      do {
        ScanResult<Map.Entry<String, String>> r = j.hscan("h", cursor,
            new ScanParams().count(100));
        for (Map.Entry<String, String> e : r.getResult()) {
          assertThat(fields.add(e.getKey())).isTrue();
          assertThat(e.getValue()).isEqualTo(e.getKey().substring(1));
        }
        cursor = r.getCursor();
      } while (!cursor.equals("0"));
      assertThat(fields).hasSize(1500);
    }
  }
}
