package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** KEYS over more keys than one turn visits: every key once, replies still in order. */
@Timeout(120)
class KeysInTurnsTest {
  @TempDir
  Path dir;

  @Test
  void keysOverSeveralTurnsListsEveryKeyOnceAndKeepsPipelineOrder() throws Exception {
    int keys = 25_000; // three turns of 10,000
    try (TestServer server = TestServer.start(dir);
         RawClient c = new RawClient(server.address);
         RawClient other = new RawClient(server.address)) {
      for (int i = 0; i < keys; i += 1000) {
        List<String> mset = new ArrayList<>(List.of("MSET"));
        for (int j = i; j < i + 1000; j++) {
          mset.add("key:" + j);
          mset.add("v");
        }
        c.command(mset.toArray(new String[0]));
        assertThat(c.reply()).isEqualTo("+OK\r\n");
      }
      c.command("KEYS", "key:*");
      c.command("KEYS", "key:1?");
      c.command("PING");
      other.command("PING");
      assertThat(other.reply()).isEqualTo("+PONG\r\n");
      String all = c.reply();
      assertThat(all).startsWith("*" + keys + "\r\n");
      java.util.Set<String> distinct = new java.util.HashSet<>();
      for (String line : all.split("\r\n")) {
        if (line.startsWith("key:")) {
          distinct.add(line);
        }
      }
      assertThat(distinct).hasSize(keys);
      assertThat(c.reply()).startsWith("*10\r\n");
      assertThat(c.reply()).isEqualTo("+PONG\r\n");
      // inside EXEC it runs whole (atomic)
      c.command("MULTI");
      c.reply();
      c.command("KEYS", "key:*");
      c.reply();
      c.command("EXEC");
      assertThat(c.reply()).startsWith("*1\r\n*" + keys + "\r\n");
    }
  }
}
