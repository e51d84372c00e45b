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
 * One MGET, DEL, EXISTS or MSET of tens of thousands of keys (a 64 MiB node accepts half a million
 * arguments) ran in one go on the command thread, each key a storage read or commit: every other
 * client waited for all of it (issue 13). Now such commands go in turns (command/KeysInTurns), and
 * a witness is served many times while one runs; the big command's own reply is whole and in order.
 */
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class MultiKeyTurnsTest {
  @TempDir
  Path dir;

  private static String[] command(String name, int keys, boolean withValues) {
    List<String> args = new ArrayList<>(List.of(name));
    for (int i = 0; i < keys; i++) {
      args.add("key:" + i);
      if (withValues) {
        args.add("v" + i);
      }
    }
    return args.toArray(new String[0]);
  }

  /**
   * Sends {@code args} on {@code big}, then counts the witness's PINGs answered before the big
   * reply arrives. Returns {count, big reply}.
   */
  private static Object[] witnessWhile(RawClient big, RawClient witness, String[] args) throws Exception {
    big.command(args);
    CompletableFuture<String> reply = CompletableFuture.supplyAsync(() -> {
      try {
        return big.reply();
      } catch (java.io.IOException e) {
        throw new java.io.UncheckedIOException(e);
      }
    });
    int served = 0;
    long worst = 0;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!reply.isDone() && System.nanoTime() < deadline) {
      long t0 = System.nanoTime();
      witness.command("PING");
      assertThat(witness.reply()).isEqualTo("+PONG\r\n");
      worst = Math.max(worst, (System.nanoTime() - t0) / 1_000_000);
      if (!reply.isDone()) {
        served++;
      }
    }
    String r = reply.get(120, TimeUnit.SECONDS);
    System.out.printf("%s of %d keys: witness served %d times meanwhile, worst %d ms%n", args[0],
        args[0].equals("MSET") ? (args.length - 1) / 2 : args.length - 1, served, worst);
    return new Object[] {served, r};
  }

  @Test
  void hugeMultiKeyCommandsLetOtherClientsInAndStayWhole() throws Exception {
    int keys = 30_000; // thirty turns of a thousand keys
    try (TestServer server = TestServer.start(dir);
         RawClient big = new RawClient(server.address).readTimeout(120_000);
         RawClient witness = new RawClient(server.address).readTimeout(120_000)) {
      Object[] mset = witnessWhile(big, witness, command("MSET", keys, true));
      assertThat(mset[1]).isEqualTo("+OK\r\n");
      assertThat((int) mset[0]).as("witness PINGs answered during MSET").isGreaterThanOrEqualTo(3);

      Object[] mget = witnessWhile(big, witness, command("MGET", keys, false));
      String values = (String) mget[1];
      assertThat(values).startsWith("*" + keys + "\r\n$2\r\nv0\r\n$2\r\nv1\r\n");
      assertThat(values).endsWith("$6\r\nv" + (keys - 1) + "\r\n");
      assertThat((int) mget[0]).as("witness PINGs answered during MGET").isGreaterThanOrEqualTo(3);

      // EXISTS is the cheapest of the three (metadata answered from memory): 30 turns passed
      // between two PINGs on a loaded CI run, so it asks about every key ten times (300 turns)
      String[] existsArgs = new String[1 + keys * 10];
      existsArgs[0] = "EXISTS";
      for (int i = 1; i < existsArgs.length; i++) {
        existsArgs[i] = "key:" + ((i - 1) % keys);
      }
      Object[] exists = witnessWhile(big, witness, existsArgs);
      assertThat(exists[1]).isEqualTo(":" + (keys * 10) + "\r\n");
      assertThat((int) exists[0]).as("witness PINGs answered during EXISTS").isGreaterThanOrEqualTo(1);

      // SCAN's COUNT is a hint: a huge one visits at most one KEYS turn (10,000 keys)
      big.command("SCAN", "0", "COUNT", "1000000000");
      String[] scan = big.reply().split("\r\n");
      assertThat(scan[2]).as("cursor").isNotEqualTo("0");
      assertThat(Integer.parseInt(scan[3].substring(1))).isBetween(1, 10_000);

      // pipelined behind a big DEL: answered after it, in order
      big.command(command("DEL", keys, false));
      big.command("EXISTS", "key:0", "key:" + (keys - 1));
      int served = 0;
      for (int i = 0; i < 3; i++) {
        witness.command("PING");
        assertThat(witness.reply()).isEqualTo("+PONG\r\n");
        served++;
      }
      assertThat(big.reply()).isEqualTo(":" + keys + "\r\n");
      assertThat(big.reply()).isEqualTo(":0\r\n");
      assertThat(served).isEqualTo(3);

      // inside EXEC a big command runs whole, as before
      big.command("MULTI");
      assertThat(big.reply()).isEqualTo("+OK\r\n");
      big.command(command("MSET", 2000, true));
      assertThat(big.reply()).isEqualTo("+QUEUED\r\n");
      big.command(command("EXISTS", 2000, false));
      assertThat(big.reply()).isEqualTo("+QUEUED\r\n");
      big.command("EXEC");
      assertThat(big.reply()).isEqualTo("*2\r\n+OK\r\n:2000\r\n");
    }
  }
}
