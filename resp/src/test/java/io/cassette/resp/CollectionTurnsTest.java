package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import io.cassette.resp.testing.TurnsWitness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

  @Test
  void hugeCollectionsAreReadInTurns() throws Exception {
    long start = System.nanoTime();
    try (TestServer server = TestServer.start(dir);
         RawClient big = new RawClient(server.address).readTimeout(120_000);
         RawClient witness = new RawClient(server.address).readTimeout(120_000)) {
      // big variadic writes go in turns too: each chunk its own commit, the counts added up
      TurnsWitness sadd = TurnsWitness.whileRunning(big, witness, command("SADD", "s1", "m", false, 0, N));
      assertThat(sadd.reply()).isEqualTo(":" + N + "\r\n");
      int writesServed = sadd.served();
      big.command(command("SADD", "s2", "m", false, N / 2, N));
      assertThat(big.reply()).isEqualTo(":" + N + "\r\n");
      TurnsWitness hset = TurnsWitness.whileRunning(big, witness, command("HSET", "h", "f", true, 0, N));
      assertThat(hset.reply()).isEqualTo(":" + N + "\r\n");
      writesServed += hset.served();
      TurnsWitness again = TurnsWitness.whileRunning(big, witness, command("SADD", "s1", "m", false, 0, N));
      assertThat(again.reply()).as("members already present are not counted").isEqualTo(":0\r\n");
      writesServed += again.served();
      big.command(command("RPUSH", "l", "e", false, 0, N));
      assertThat(big.reply()).isEqualTo(":" + N + "\r\n");

      System.out.printf("setup: %d ms%n", (System.nanoTime() - start) / 1_000_000);
      TurnsWitness members = TurnsWitness.whileRunning(big, witness, "SMEMBERS", "s1");
      assertThat(members.reply()).startsWith("*" + N + "\r\n$2\r\nm0\r\n$2\r\nm1\r\n");
      int servedTotal = members.served();

      TurnsWitness union = TurnsWitness.whileRunning(big, witness, "SUNION", "s1", "s2");
      assertThat(union.reply()).startsWith("*" + (N + N / 2) + "\r\n");
      servedTotal += union.served();

      TurnsWitness inter = TurnsWitness.whileRunning(big, witness, "SINTERSTORE", "s3", "s1", "s2");
      assertThat(inter.reply()).isEqualTo(":" + (N / 2) + "\r\n");
      big.command("SCARD", "s3");
      assertThat(big.reply()).isEqualTo(":" + (N / 2) + "\r\n");
      servedTotal += inter.served();

      TurnsWitness diff = TurnsWitness.whileRunning(big, witness, "SDIFF", "s1", "s2");
      assertThat(diff.reply()).startsWith("*" + (N / 2) + "\r\n");
      servedTotal += diff.served();

      TurnsWitness hash = TurnsWitness.whileRunning(big, witness, "HGETALL", "h");
      assertThat(hash.reply()).startsWith("*" + (2 * N) + "\r\n$2\r\nf0\r\n$2\r\nv0\r\n");
      servedTotal += hash.served();

      TurnsWitness range = TurnsWitness.whileRunning(big, witness, "LRANGE", "l", "0", "-1");
      assertThat(range.reply()).startsWith("*" + N + "\r\n$2\r\ne0\r\n$2\r\ne1\r\n")
          .endsWith("$" + ("e" + (N - 1)).length() + "\r\ne" + (N - 1) + "\r\n");
      servedTotal += range.served();

      TurnsWitness msetnx = TurnsWitness.whileRunning(big, witness, command("MSETNX", null, "nx:", true, 0, N));
      assertThat(msetnx.reply()).isEqualTo(":1\r\n");
      servedTotal += msetnx.served();
      TurnsWitness nxAgain = TurnsWitness.whileRunning(big, witness, command("MSETNX", null, "nx:", true, 1, N));
      assertThat(nxAgain.reply()).isEqualTo(":0\r\n");
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
      TurnsWitness sortStore = TurnsWitness.whileRunning(big, witness, "SORT", "l", "ALPHA", "DESC", "STORE", "sorted");
      assertThat(sortStore.reply()).isEqualTo(":" + N + "\r\n");
      writesServed += sortStore.served();
      big.command("LRANGE", "sorted", "0", "1");
      assertThat(big.reply()).isEqualTo("*2\r\n$4\r\ne999\r\n$4\r\ne998\r\n");
      TurnsWitness sort = TurnsWitness.whileRunning(big, witness, "SORT", "s1", "ALPHA", "LIMIT", "0", "2");
      assertThat(sort.reply()).isEqualTo("*2\r\n$2\r\nm0\r\n$2\r\nm1\r\n");
      TurnsWitness srem = TurnsWitness.whileRunning(big, witness, command("SREM", "s1", "m", false, N / 2, N));
      assertThat(srem.reply()).as("m3000..m5999 of those named").isEqualTo(":" + (N / 2) + "\r\n");
      writesServed += srem.served();
      big.command("SCARD", "s1");
      assertThat(big.reply()).isEqualTo(":" + (N / 2) + "\r\n");
      TurnsWitness hdel = TurnsWitness.whileRunning(big, witness, command("HDEL", "h", "f", false, 0, N + 1));
      assertThat(hdel.reply()).isEqualTo(":" + N + "\r\n");
      writesServed += hdel.served();
      big.command("EXISTS", "h");
      assertThat(big.reply()).as("the last chunk removed the emptied hash").isEqualTo(":0\r\n");
      TurnsWitness hmset = TurnsWitness.whileRunning(big, witness, command("HMSET", "h2", "f", true, 0, N));
      assertThat(hmset.reply()).isEqualTo("+OK\r\n");
      big.command("HLEN", "h2");
      assertThat(big.reply()).isEqualTo(":" + N + "\r\n");
      writesServed += hmset.served();
      // Turns are 10 ms slices: the writes above can each finish inside one on a fast machine (3-29 ms
      // with the trie memtable and the dense metadata cache), so one write of many slices shows it.
      TurnsWitness bigWrite = TurnsWitness.whileRunning(big, witness, command("SADD", "sbig", "m", false, 0, 20 * N));
      assertThat(bigWrite.reply()).isEqualTo(":" + 20 * N + "\r\n");
      writesServed += bigWrite.served();
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
      TurnsWitness srand = TurnsWitness.whileRunning(big, witness, "SRANDMEMBER", "s1");
      assertThat(srand.reply()).startsWith("$").contains("\r\nm");
      TurnsWitness hrand = TurnsWitness.whileRunning(big, witness, "HRANDFIELD", "h2", "-3", "WITHVALUES");
      assertThat(hrand.reply()).startsWith("*6\r\n$");
      TurnsWitness zrand = TurnsWitness.whileRunning(big, witness, "ZRANDMEMBER", "g", "2");
      assertThat(zrand.reply()).startsWith("*2\r\n$");
      // every point is within 20,000 km of (0, 0): the search reads the whole set
      TurnsWitness search = TurnsWitness.whileRunning(big, witness, "GEOSEARCHSTORE", "near", "g", "FROMLONLAT", "0", "0",
          "BYRADIUS", "20000", "km");
      assertThat(search.reply()).isEqualTo(":" + N + "\r\n");
      // The picks above read 3,000-6,000 elements: on a fast machine each fits in one 10 ms
      // slice (6-7 ms in a CI run), so one pick of the 120,000-member set shows the turns.
      TurnsWitness srandBig = TurnsWitness.whileRunning(big, witness, "SRANDMEMBER", "sbig", "5");
      assertThat(srandBig.reply()).startsWith("*5\r\n$");
      int picksServed = srand.served() + hrand.served() + zrand.served() + search.served() + srandBig.served();
      // one PING answered in the middle of any of them shows the turns (without turns none can
      // be), more is the scheduler's luck
      assertThat(picksServed).as("witness PINGs answered during the random picks and the geo search")
          .isGreaterThanOrEqualTo(1);

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
