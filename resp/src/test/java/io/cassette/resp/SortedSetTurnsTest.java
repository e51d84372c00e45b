package io.cassette.resp;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.resp.testing.RawClient;
import io.cassette.resp.testing.TestServer;
import io.cassette.resp.testing.TurnsWitness;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13 for sorted sets and pushes: a ZADD/RPUSH of many elements, ZRANGE/ZRANGEBYSCORE/
 * ZRANGEBYLEX/ZRANGESTORE over a large sorted set and ZUNIONSTORE of large inputs ran in one go on
 * the command thread. Now they go in turns (CollectionInTurns): a witness's PINGs are answered
 * meanwhile, and the results are whole and in order. Slow (tens of seconds on a loaded machine).
 */
@Tag("slow")
@Timeout(value = 300, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class SortedSetTurnsTest {
  static final int N = 6_000;

  @TempDir
  Path dir;

  private static String[] zadd(String key, int from, int n) {
    List<String> args = new ArrayList<>(List.of("ZADD", key));
    for (int i = from; i < from + n; i++) {
      args.add(Integer.toString(i));
      args.add(String.format("m%05d", i));
    }
    return args.toArray(new String[0]);
  }

  /** {@link TurnsWitness#whileRunning}, collecting the replies in order. */
  private static int witnessWhile(RawClient big, RawClient witness, List<String> replies,
                                  String... args) throws Exception {
    TurnsWitness w = TurnsWitness.whileRunning(big, witness, args);
    replies.add(w.reply());
    return w.served();
  }

  @Test
  void largeSortedSetsAndPushesGoInTurns() throws Exception {
    try (TestServer server = TestServer.start(dir);
         RawClient big = new RawClient(server.address).readTimeout(120_000);
         RawClient witness = new RawClient(server.address).readTimeout(120_000)) {
      List<String> r = new ArrayList<>();
      int served = witnessWhile(big, witness, r, zadd("z1", 0, N));
      served += witnessWhile(big, witness, r, zadd("z2", N / 2, N));
      assertThat(r).containsExactly(":" + N + "\r\n", ":" + N + "\r\n");
      served += witnessWhile(big, witness, r, "ZRANGE", "z1", "0", "-1");
      assertThat(r.get(2)).startsWith("*" + N + "\r\n$6\r\nm00000\r\n$6\r\nm00001\r\n")
          .endsWith("$6\r\nm05999\r\n");
      served += witnessWhile(big, witness, r, "ZREVRANGEBYSCORE", "z1", "+inf", "(10", "LIMIT", "1",
          "5000");
      assertThat(r.get(3)).startsWith("*5000\r\n$6\r\nm05998\r\n");
      served += witnessWhile(big, witness, r, "ZRANGESTORE", "z3", "z1", "[m01000", "[m05000",
          "BYLEX");
      assertThat(r.get(4)).isEqualTo(":4001\r\n");
      served += witnessWhile(big, witness, r, "ZUNIONSTORE", "u", "2", "z1", "z2", "WEIGHTS", "1", "2");
      assertThat(r.get(5)).isEqualTo(":" + (N + N / 2) + "\r\n");
      big.command("ZSCORE", "u", "m04000");
      assertThat(big.reply()).as("1 x 4000 + 2 x 4000").isEqualTo("$5\r\n12000\r\n");
      List<String> push = new ArrayList<>(List.of("RPUSH", "l"));
      for (int i = 0; i < N; i++) {
        push.add("e" + i);
      }
      served += witnessWhile(big, witness, r, push.toArray(new String[0]));
      assertThat(r.get(6)).isEqualTo(":" + N + "\r\n");
      big.command("LINDEX", "l", "-1");
      assertThat(big.reply()).isEqualTo("$5\r\ne5999\r\n");
      assertThat(served).as("witness PINGs answered during the seven").isGreaterThanOrEqualTo(4);
    }
  }
}
