package io.cassette.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class SlowLogTest {
  private final AtomicLong clock = new AtomicLong(1_700_000_000_000L);
  private final SlowLog log = new SlowLog(SlowLog.REDIS_MAX_ARG_BYTES, clock::get);

  @Test
  void onlyRequestsAtOrAboveTheThresholdAreLoggedNewestFirst() {
    log.add(9_999, List.of("GET", "a"), "127.0.0.1:5000", "");
    log.add(10_000, List.of("GET", "b"), "127.0.0.1:5000", "app");
    clock.addAndGet(2000);
    log.add(50_000, List.of("SET", "c", "1"), "127.0.0.1:5001", null);
    assertThat(log.length()).isEqualTo(2);
    List<SlowLogEntry> got = log.get(SlowLog.DEFAULT_GET_COUNT);
    assertThat(got.get(0)).isEqualTo(new SlowLogEntry(1, 1_700_000_002L, 50_000, List.of("SET", "c", "1"),
        "127.0.0.1:5001", ""));
    assertThat(got.get(1).id()).isZero();
    assertThat(got.get(1).clientName()).isEqualTo("app");
    assertThat(log.get(1)).hasSize(1);
    assertThat(log.get(-1)).hasSize(2);
  }

  @Test
  void zeroLogsEverythingAndNegativeNothing() {
    log.setSlowerThanMicros(0);
    log.add(0, List.of("PING"), "c", "");
    log.setSlowerThanMicros(-1);
    log.add(Long.MAX_VALUE, List.of("DEBUG", "SLEEP"), "c", "");
    assertThat(log.get(-1)).extracting(e -> e.args().get(0)).containsExactly("PING");
  }

  @Test
  void theLogKeepsMaxLenEntriesAndResetKeepsIdsIncreasing() {
    log.setSlowerThanMicros(0);
    for (int i = 0; i < 200; i++) {
      log.add(1, List.of("INCR", "k" + i), "c", "");
    }
    assertThat(log.length()).isEqualTo(SlowLog.DEFAULT_MAX_LEN);
    assertThat(log.get(1).get(0).id()).isEqualTo(199);
    log.setMaxLen(5);
    assertThat(log.get(-1)).extracting(SlowLogEntry::id).containsExactly(199L, 198L, 197L, 196L, 195L);
    log.reset();
    assertThat(log.length()).isZero();
    log.add(1, List.of("PING"), "c", "");
    assertThat(log.get(1).get(0).id()).isEqualTo(200);
  }

  @Test
  void argumentsAreCutAsRedisCutsThem() {
    log.setSlowerThanMicros(0);
    byte[][] argv = new byte[40][];
    argv[0] = "RPUSH".getBytes(StandardCharsets.UTF_8);
    argv[1] = "x".repeat(200).getBytes(StandardCharsets.UTF_8);
    for (int i = 2; i < 40; i++) {
      argv[i] = ("v" + i).getBytes(StandardCharsets.UTF_8);
    }
    log.add(5, argv, 40, "c", "");
    List<String> args = log.get(1).get(0).args();
    assertThat(args).hasSize(SlowLog.MAX_ARGS);
    assertThat(args.get(1)).isEqualTo("x".repeat(128) + "... (72 more bytes)");
    assertThat(args.get(30)).isEqualTo("v30");
    assertThat(args.get(31)).isEqualTo("... (9 more arguments)");
    List<String> strings = new ArrayList<>();
    for (byte[] a : argv) {
      strings.add(new String(a, StandardCharsets.UTF_8));
    }
    log.add(5, strings, "c", "");
    assertThat(log.get(1).get(0).args()).isEqualTo(args);
  }
}
