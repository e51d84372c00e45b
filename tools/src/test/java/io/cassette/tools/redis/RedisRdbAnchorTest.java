package io.cassette.tools.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.cassette.server.CassetteNode;
import io.cassette.server.ResourceSizing;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Redis data both ways with a real redis-server 7.0 (-Pslow): Redis SAVEs an RDB file,
 * {@code redis-import} loads it into a Cassette node, {@code redis-export} writes the node's
 * data as an RDB file, and a second Redis started on that file holds exactly the data the
 * first one had (every key, type, element, score and expiry, in four databases).
 */
@Tag("slow")
class RedisRdbAnchorTest {
  static final int STRINGS = 20_000;
  static final int EACH = 2_000;
  @TempDir
  Path dir;

  @Test
  void redisToCassetteToRedis() throws Exception {
    assumeTrue(new ProcessBuilder("redis-server", "--version").start().waitFor() == 0, "no redis-server");
    Process first = null;
    Process second = null;
    CassetteNode node = null;
    try {
      int p1 = freePort();
      first = redis(p1, dir.resolve("r1"), "dump.rdb");
      try (RespClient r = client(p1)) {
        fill(r);
        assertThat(r.call("SAVE")).isEqualTo("OK");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (((Long) r.call("EXISTS", "gone")) != 0 && System.nanoTime() < deadline) {
          Thread.sleep(200); // until 'gone' has expired
        }
      }
      Map<String, String> original = snapshot(p1);
      assertThat(original).doesNotContainKey("0/gone");
      assertThat(original).hasSizeGreaterThan(STRINGS + 4 * EACH);

      int resp = freePort();
      node = new CassetteNode(ConfigLoader.load(null, Map.of(), Map.of(
          "data_directory", new FlagValue(dir.resolve("cassette").toString(), "test"),
          "native_transport_port", new FlagValue("0", "test"),
          "resp_port", new FlagValue(Integer.toString(resp), "test"), "http_port", new FlagValue("0", "test"))),
          ResourceSizing.forThisJvm(null, null));
      node.start();

      String imported = run(RedisImportMain::run, dir.resolve("r1/dump.rdb").toString(), "-p", Integer.toString(resp));
      System.out.println("redis-import: " + imported);
      assertThat(imported).contains("imported " + String.format("%,d", original.size()) + " keys")
          .contains("0 failed").contains("1 expired skipped");
      assertThat(snapshot(resp)).isEqualTo(original);

      Path out = dir.resolve("r2/dump.rdb");
      Files.createDirectories(out.getParent());
      String exported = run(RedisExportMain::run, out.toString(), "-p", Integer.toString(resp));
      System.out.println("redis-export: " + exported);
      assertThat(exported).contains("exported " + String.format("%,d", original.size()) + " keys")
          .contains("databases [0, 1, 2, 15]");

      int p2 = freePort();
      second = redis(p2, dir.resolve("r2"), "dump.rdb"); // loads the exported file at start
      assertThat(snapshot(p2)).isEqualTo(original);
      // redis-check-rdb agrees, where installed
      if (new java.io.File("/usr/bin/redis-check-rdb").canExecute()) {
        Process check = new ProcessBuilder("redis-check-rdb", out.toString()).redirectErrorStream(true).start();
        String text = new String(check.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(check.waitFor()).as(text).isZero();
      }
    } finally {
      if (node != null) {
        node.close();
      }
      for (Process p : new Process[] {first, second}) {
        if (p != null) {
          p.destroy();
          p.waitFor(10, TimeUnit.SECONDS);
          p.destroyForcibly();
        }
      }
    }
  }

  interface Tool {
    int run(String[] args, PrintStream out, PrintStream err);
  }

  static String run(Tool tool, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    int exit = tool.run(args, new PrintStream(out, true), new PrintStream(out, true));
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(exit).as(text).isZero();
    return text;
  }

  /** Strings, every collection kind in its small and large encodings, expiries, four databases. */
  static void fill(RespClient r) throws Exception {
    int n = 0;
    for (int i = 0; i < STRINGS; i++) {
      r.send("SET", "s:" + i, i % 3 == 0 ? Integer.toString(i) : "value-" + i + "-" + "x".repeat(i % 50));
      n++;
    }
    for (int i = 0; i < EACH; i++) {
      r.send("RPUSH", "l:" + i, "a", Integer.toString(i), "-70000", "c".repeat(i % 30));
      r.send("HSET", "h:" + i, "f1", "v" + i, "n", Integer.toString(i));
      r.send("SADD", "si:" + i, "1", "2", Integer.toString(i));
      r.send("ZADD", "z:" + i, "1.5", "a", Integer.toString(i), "b", "-inf", "c");
      n += 4;
    }
    List<Object> big = new ArrayList<>(List.of("RPUSH", "bigl"));
    List<Object> bigs = new ArrayList<>(List.of("SADD", "bigs"));
    List<Object> bigh = new ArrayList<>(List.of("HSET", "bigh"));
    List<Object> bigz = new ArrayList<>(List.of("ZADD", "bigz"));
    for (int i = 0; i < 5000; i++) {
      big.add("element-" + i);
      bigs.add("member-" + i);
      bigh.add("field-" + i);
      bigh.add("v".repeat(i % 100));
      bigz.add(Double.toString(i / 7.0));
      bigz.add("m" + i);
    }
    for (List<Object> cmd : List.of(big, bigs, bigh, bigz)) {
      r.send(cmd.toArray());
      n++;
    }
    r.send("SET", "compressible", "abc".repeat(1000)); // LZF in the RDB
    r.send("SET", "ttl", "v");
    r.send("PEXPIREAT", "ttl", "4102444800000");
    r.send("SET", "gone", "v");
    r.send("PEXPIRE", "gone", "3000"); // in the file, expired by the time it is imported
    n += 5;
    for (int db : new int[] {1, 2, 15}) {
      r.send("SELECT", Integer.toString(db));
      r.send("SET", "in-db-" + db, "yes");
      r.send("RPUSH", "list-db-" + db, "x", "y");
      n += 3;
    }
    r.send("SELECT", "0");
    n++;
    r.flush();
    for (int i = 0; i < n; i++) {
      Object reply = r.read();
      assertThat(reply).isNotInstanceOf(RespClient.Error.class);
    }
  }

  /** Every key of databases 0..15 with its type, contents (sorted where unordered) and expiry. */
  static Map<String, String> snapshot(int port) throws Exception {
    Map<String, String> out = new TreeMap<>();
    try (RespClient r = client(port)) {
      for (int db = 0; db < 16; db++) {
        r.call("SELECT", Integer.toString(db));
        String cursor = "0";
        do {
          List<?> reply = (List<?>) r.call("SCAN", cursor, "COUNT", "1000");
          cursor = str(reply.get(0));
          for (Object k : (List<?>) reply.get(1)) {
            String key = str(k);
            String type = (String) r.call("TYPE", k);
            Object v = switch (type) {
              case "string" -> str(r.call("GET", k));
              case "list" -> strings(r.call("LRANGE", k, "0", "-1"), false);
              case "set" -> strings(r.call("SMEMBERS", k), true);
              case "hash" -> pairs(r.call("HGETALL", k));
              case "zset" -> strings(r.call("ZRANGE", k, "0", "-1", "WITHSCORES"), false);
              default -> type;
            };
            long expire = (Long) r.call("PEXPIRETIME", k);
            out.put(db + "/" + key, type + " " + v + (expire > 0 ? " expires " + expire : ""));
          }
        } while (!cursor.equals("0"));
      }
    }
    return out;
  }

  static String str(Object o) {
    return new String((byte[]) o, StandardCharsets.UTF_8);
  }

  static List<String> strings(Object reply, boolean sort) {
    List<String> out = new ArrayList<>();
    for (Object o : (List<?>) reply) {
      out.add(str(o));
    }
    if (sort) {
      Collections.sort(out);
    }
    return out;
  }

  static Map<String, String> pairs(Object reply) {
    List<String> l = strings(reply, false);
    Map<String, String> m = new TreeMap<>();
    for (int i = 0; i < l.size(); i += 2) {
      m.put(l.get(i), l.get(i + 1));
    }
    return m;
  }

  static RespClient client(int port) throws Exception {
    return new RespClient("127.0.0.1", port, 30_000);
  }

  static Process redis(int port, Path dir, String file) throws Exception {
    Files.createDirectories(dir);
    Process p = new ProcessBuilder("redis-server", "--port", Integer.toString(port), "--bind", "127.0.0.1",
        "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--dbfilename", file)
        .redirectErrorStream(true).redirectOutput(dir.resolve("redis.log").toFile()).start();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      try (RespClient c = client(port)) {
        Object pong = c.call("PING");
        if ("PONG".equals(pong)) {
          return p;
        }
      } catch (java.io.IOException e) {
        // not up yet (or still loading)
      }
      if (System.nanoTime() > deadline || !p.isAlive()) {
        throw new IllegalStateException("redis-server did not start: " + Files.readString(dir.resolve("redis.log")));
      }
      Thread.sleep(100);
    }
  }

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }
}
