package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: SMEMBERS, SUNION/SINTER/SDIFF (+STORE), HGETALL and LRANGE of a huge collection, and
 * MSETNX of many keys, big SADD/SREM/HSET/HMSET/HDEL and SORT (+STORE), ran in one go on the command thread: every other client waited for all
 * of it. Now they go in turns (command/CollectionInTurns, KeysInTurns.steps): a witness's PINGs
 * are answered while one runs, and the big reply is whole and in order.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class CollectionTurnsTest {
  static final int N = 6_000; // six chunks of a thousand: several turns each

  @TempDir
  Path dir;

  private static String[] command(String name, String key, String prefix, boolean pairs, int from, int n) {
    List<String> args = new ArrayList<>(List.of(name));
    if (key != null) {
      args.add(key);
    }
    for (int i = from; i < from + n; i++) {
      args.add(prefix + i);
      if (pairs) {
        args.add("v" + i);
      }
    }
    return args.toArray(new String[0]);
  }

  /** Sends {@code args} on {@code big}; returns {PINGs answered before its reply, the reply}. */
  private static Object[] witnessWhile(RawClient big, RawClient witness, String... args) throws Exception {
    long t0 = System.nanoTime();
    big.command(args);
    CompletableFuture<String> reply = CompletableFuture.supplyAsync(() -> {
      try {
        return big.reply();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    int served = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!reply.isDone() && System.nanoTime() < deadline) {
      witness.command("PING");
      assertThat(witness.reply()).isEqualTo("+PONG\r\n");
      if (!reply.isDone()) {
        served++;
      }
    }
    String r = reply.get(120, TimeUnit.SECONDS);
    System.out.printf("%s: witness served %d times meanwhile, %d ms%n", args[0], served,
        (System.nanoTime() - t0) / 1_000_000);
    return new Object[] {served, r};
  }

  @Test
  void hugeCollectionsAreReadInTurns() throws Exception {
    long start = System.nanoTime();
    try (TestServer server = TestServer.start(dir);
         RawClient big = new RawClient(server.address).readTimeout(120_000);
         RawClient witness = new RawClient(server.address).readTimeout(120_000)) {
      // big variadic writes go in turns too: each chunk its own commit, the counts added up
      Object[] sadd = witnessWhile(big, witness, command("SADD", "s1", "m", false, 0, N));
      assertThat(sadd[1]).isEqualTo(":" + N + "\r\n");
      int writesServed = (int) sadd[0];
      big.command(command("SADD", "s2", "m", false, N / 2, N));
      assertThat(big.reply()).isEqualTo(":" + N + "\r\n");
      Object[] hset = witnessWhile(big, witness, command("HSET", "h", "f", true, 0, N));
      assertThat(hset[1]).isEqualTo(":" + N + "\r\n");
      writesServed += (int) hset[0];
      Object[] again = witnessWhile(big, witness, command("SADD", "s1", "m", false, 0, N));
      assertThat(again[1]).as("members already present are not counted").isEqualTo(":0\r\n");
      writesServed += (int) again[0];
      big.command(command("RPUSH", "l", "e", false, 0, N));
      assertThat(big.reply()).isEqualTo(":" + N + "\r\n");

      System.out.printf("setup: %d ms%n", (System.nanoTime() - start) / 1_000_000);
      Object[] members = witnessWhile(big, witness, "SMEMBERS", "s1");
      assertThat((String) members[1]).startsWith("*" + N + "\r\n$2\r\nm0\r\n$2\r\nm1\r\n");
      int servedTotal = (int) members[0];

      Object[] union = witnessWhile(big, witness, "SUNION", "s1", "s2");
      assertThat((String) union[1]).startsWith("*" + (N + N / 2) + "\r\n");
      servedTotal += (int) union[0];

      Object[] inter = witnessWhile(big, witness, "SINTERSTORE", "s3", "s1", "s2");
      assertThat(inter[1]).isEqualTo(":" + (N / 2) + "\r\n");
      big.command("SCARD", "s3");
      assertThat(big.reply()).isEqualTo(":" + (N / 2) + "\r\n");
      servedTotal += (int) inter[0];

      Object[] diff = witnessWhile(big, witness, "SDIFF", "s1", "s2");
      assertThat((String) diff[1]).startsWith("*" + (N / 2) + "\r\n");
      servedTotal += (int) diff[0];

      Object[] hash = witnessWhile(big, witness, "HGETALL", "h");
      assertThat((String) hash[1]).startsWith("*" + (2 * N) + "\r\n$2\r\nf0\r\n$2\r\nv0\r\n");
      servedTotal += (int) hash[0];

      Object[] range = witnessWhile(big, witness, "LRANGE", "l", "0", "-1");
      assertThat((String) range[1]).startsWith("*" + N + "\r\n$2\r\ne0\r\n$2\r\ne1\r\n")
          .endsWith("$" + ("e" + (N - 1)).length() + "\r\ne" + (N - 1) + "\r\n");
      servedTotal += (int) range[0];

      Object[] msetnx = witnessWhile(big, witness, command("MSETNX", null, "nx:", true, 0, N));
      assertThat(msetnx[1]).isEqualTo(":1\r\n");
      servedTotal += (int) msetnx[0];
      Object[] nxAgain = witnessWhile(big, witness, command("MSETNX", null, "nx:", true, 1, N));
      assertThat(nxAgain[1]).isEqualTo(":0\r\n");
      big.command("EXISTS", "nx:" + N);
      assertThat(big.reply()).as("nothing set when one key exists").isEqualTo(":0\r\n");

      // Each of the seven ran many turns; at least four PINGs in all (before: none; a race may let one in).
      assertThat(servedTotal).as("witness PINGs answered during the seven").isGreaterThanOrEqualTo(4);

      // inside EXEC they run whole, as before
      long t0 = System.nanoTime();
      big.command("MULTI");
      assertThat(big.reply()).isEqualTo("+OK\r\n");
      big.command("SINTER", "s1", "s2");
      assertThat(big.reply()).isEqualTo("+QUEUED\r\n");
      big.command("EXEC");
      assertThat(big.reply()).startsWith("*1\r\n*" + (N / 2) + "\r\n");
      System.out.printf("SINTER whole in EXEC: %d ms%n", (System.nanoTime() - t0) / 1_000_000);

      // SORT reads, weighs, sorts and stores in stages on turns; STORE shows the new list at once
      Object[] sortStore = witnessWhile(big, witness, "SORT", "l", "ALPHA", "DESC", "STORE", "sorted");
      assertThat(sortStore[1]).isEqualTo(":" + N + "\r\n");
      writesServed += (int) sortStore[0];
      big.command("LRANGE", "sorted", "0", "1");
      assertThat(big.reply()).isEqualTo("*2\r\n$4\r\ne999\r\n$4\r\ne998\r\n");
      Object[] sort = witnessWhile(big, witness, "SORT", "s1", "ALPHA", "LIMIT", "0", "2");
      assertThat(sort[1]).isEqualTo("*2\r\n$2\r\nm0\r\n$2\r\nm1\r\n");
      Object[] srem = witnessWhile(big, witness, command("SREM", "s1", "m", false, N / 2, N));
      assertThat(srem[1]).as("m3000..m5999 of those named").isEqualTo(":" + (N / 2) + "\r\n");
      writesServed += (int) srem[0];
      big.command("SCARD", "s1");
      assertThat(big.reply()).isEqualTo(":" + (N / 2) + "\r\n");
      Object[] hdel = witnessWhile(big, witness, command("HDEL", "h", "f", false, 0, N + 1));
      assertThat(hdel[1]).isEqualTo(":" + N + "\r\n");
      writesServed += (int) hdel[0];
      big.command("EXISTS", "h");
      assertThat(big.reply()).as("the last chunk removed the emptied hash").isEqualTo(":0\r\n");
      Object[] hmset = witnessWhile(big, witness, command("HMSET", "h2", "f", true, 0, N));
      assertThat(hmset[1]).isEqualTo("+OK\r\n");
      big.command("HLEN", "h2");
      assertThat(big.reply()).isEqualTo(":" + N + "\r\n");
      writesServed += (int) hmset[0];
      assertThat(writesServed).as("witness PINGs answered during the big writes and SORT STORE")
          .isGreaterThanOrEqualTo(4);

      // Random picks and geo searches need the whole collection: read in turns as well
      List<String> geoadd = new ArrayList<>(List.of("GEOADD", "g"));
      for (int i = 0; i < N; i++) {
        geoadd.add(Integer.toString(-170 + i % 340)); // longitude
        geoadd.add(Integer.toString(-80 + i % 160)); // latitude
        geoadd.add("p" + i);
      }
      big.command(geoadd.toArray(new String[0]));
      assertThat(big.reply()).isEqualTo(":" + N + "\r\n");
      Object[] srand = witnessWhile(big, witness, "SRANDMEMBER", "s1");
      assertThat((String) srand[1]).startsWith("$").contains("\r\nm");
      Object[] hrand = witnessWhile(big, witness, "HRANDFIELD", "h2", "-3", "WITHVALUES");
      assertThat((String) hrand[1]).startsWith("*6\r\n$");
      Object[] zrand = witnessWhile(big, witness, "ZRANDMEMBER", "g", "2");
      assertThat((String) zrand[1]).startsWith("*2\r\n$");
      // every point is within 20,000 km of (0, 0): the search reads the whole set
      Object[] search = witnessWhile(big, witness, "GEOSEARCHSTORE", "near", "g", "FROMLONLAT", "0", "0",
          "BYRADIUS", "20000", "km");
      assertThat(search[1]).isEqualTo(":" + N + "\r\n");
      int picksServed = (int) srand[0] + (int) hrand[0] + (int) zrand[0] + (int) search[0];
      assertThat(picksServed).as("witness PINGs answered during the random picks and the geo search")
          .isGreaterThanOrEqualTo(2);

      // The elements such commands hold count against one node-wide budget: four HGETALLs of
      // 100,000 fields at once took a 64 MiB node's heap. Past it the command gets -OOM, the
      // count is given back, and the node serves on.
      io.cassette.resp.server.ServerContext ctx = server.server.context();
      long budget = ctx.heldInTurnsBudget;
      ctx.heldInTurnsBudget = 100_000;
      try {
        big.command("HGETALL", "h2");
        assertThat(big.reply()).startsWith("-OOM HGETALL result does not fit the node's memory");
        witness.command("PING");
        assertThat(witness.reply()).isEqualTo("+PONG\r\n");
      } finally {
        ctx.heldInTurnsBudget = budget;
      }
      big.command("HGETALL", "h2");
      assertThat(big.reply()).startsWith("*" + (2 * N) + "\r\n");
      // (given back just after the reply is written: wait for it, bounded)
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (ctx.heldInTurns != 0 && System.nanoTime() < deadline) {
        Thread.sleep(10);
      }
      assertThat(ctx.heldInTurns).as("every command gave its count back").isZero();
    }
  }
}
