package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;

/**
 * The "data set four times larger than the heap": a server JVM with a 64 MB heap
 * takes 256 MB of incompressible values through Jedis and returns every one intact,
 * also after a restart. Slow (minutes on a small machine): run with -Pslow.
 */
@Tag("slow")
class LargerThanHeapTest {
  private static final int HEAP_MB = 64;
  private static final int VALUE_BYTES = 4096;
  private static final int KEYS = HEAP_MB * 4 * 1024 * 1024 / VALUE_BYTES;
  private static final Pattern LISTENING = Pattern.compile("listening on .*:(\\d+) ");

  @TempDir
  Path dir;

  private static byte[] value(int i) {
    byte[] v = new byte[VALUE_BYTES];
    new Random(i).nextBytes(v);
    return v;
  }

  private Process startServer() throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Process p = new ProcessBuilder(List.of(java, "-Xmx" + HEAP_MB + "m", "-cp",
        System.getProperty("java.class.path"), RespMain.class.getName(), "0", dir.toString()))
        .redirectErrorStream(true).start();
    return p;
  }

  private static int port(Process p) throws Exception {
    BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
        StandardCharsets.UTF_8));
    String line;
    while ((line = r.readLine()) != null) {
      Matcher m = LISTENING.matcher(line);
      if (m.find()) {
        Thread drain = new Thread(() -> {
          try {
            while (r.readLine() != null) {
              // keep the pipe from filling
            }
          } catch (Exception ignored) {
            // process ended
          }
        });
        drain.setDaemon(true);
        drain.start();
        return Integer.parseInt(m.group(1));
      }
    }
    throw new IllegalStateException("server did not start");
  }

  @Test
  void writesAndReadsBackFourTimesTheHeap() throws Exception {
    Process server = startServer();
    try {
      int port = port(server);
      try (Jedis j = new Jedis("127.0.0.1", port, 30_000)) {
        Pipeline p = j.pipelined();
        for (int i = 0; i < KEYS; i++) {
          p.set(("big:" + i).getBytes(StandardCharsets.US_ASCII), value(i));
          if (i % 256 == 255) {
            p.sync();
          }
        }
        p.sync();
        assertThat(j.dbSize()).isEqualTo(KEYS);
        for (int i = 0; i < KEYS; i += 7) {
          assertThat(j.get(("big:" + i).getBytes(StandardCharsets.US_ASCII)))
              .as("big:%d", i).isEqualTo(value(i));
        }
      }
    } finally {
      server.destroy();
      assertThat(server.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }
    Process again = startServer();
    try (Jedis j = new Jedis("127.0.0.1", port(again), 30_000)) {
      for (int i = 3; i < KEYS; i += 101) {
        assertThat(j.get(("big:" + i).getBytes(StandardCharsets.US_ASCII)))
            .as("big:%d after restart", i).isEqualTo(value(i));
      }
    } finally {
      again.destroy();
      again.waitFor(30, TimeUnit.SECONDS);
    }
  }
}
