package io.cassette.tools.ring;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 17's {@code nodetool netstats} and {@code stream_throughput_outbound}, with real
 * processes: three nodes hold ~2 MB at RF=3; their streaming cap is set live to 1 Mb/s
 * ({@code nodetool setstreamthroughput 1}) and a fourth node joins. While it joins, the
 * sources' netstats totals of bytes sent grow from sample to sample, at
 * no more than about the cap; then the cap is lifted live ({@code setstreamthroughput 0}) and
 * the rest streams in less time than the cap would have allowed. Figures are printed.
 */
@Tag("slow")
class StreamingProgressProcessTest {
  private static final int ROWS = 4_000;
  /** 1 Mb/s, in bytes per second (nodetool's unit is megabits). */
  private static final long CAP = 125_000;
  private static final Duration CHANGE_TIMEOUT = Duration.ofSeconds(240);
  private static final Pattern SENT = Pattern.compile("Total sent: ([0-9]+) bytes");

  @RegisterExtension
  final RingProcesses ring = new RingProcesses(4);

  @Test
  void netstatsShowsABootstrapMovingAndTheCapChangesLive() throws Exception {
    ring.pickPorts(false);
    ring.startAll(3);
    ring.awaitUp(1, 3);
    try (CqlSession session = ring.session(1, "QUORUM")) {
      ring.ddl(session, "CREATE KEYSPACE s WITH replication = "
          + "{'class': 'SimpleStrategy', 'replication_factor': 3}");
      ring.ddl(session, "CREATE TABLE s.t (k int PRIMARY KEY, pad text)");
      PreparedStatement insert = session.prepare("INSERT INTO s.t (k, pad) VALUES (?, ?)");
      String pad = "p".repeat(500);
      List<CompletionStage<AsyncResultSet>> inFlight = new ArrayList<>();
      for (int k = 0; k < ROWS; k++) {
        inFlight.add(session.executeAsync(insert.bind(k, pad).setConsistencyLevel(ConsistencyLevel.QUORUM)));
        if (inFlight.size() == 32 || k == ROWS - 1) {
          for (CompletionStage<AsyncResultSet> f : inFlight) {
            f.toCompletableFuture().get();
          }
          inFlight.clear();
        }
      }
    }
    for (int i = 1; i <= 3; i++) {
      ring.nodetool(i, "flush");
      ring.nodetool(i, "setstreamthroughput", "1");
      assertThat(ring.nodetool(i, "getstreamthroughput")).isEqualTo("Current stream throughput: 1 Mb/s\n");
    }
    long before = sent();
    long t0 = System.nanoTime();
    ring.start(4);

    // Capped: sample the sources' netstats until the stream has run 4 s (or the join ended).
    List<long[]> samples = new ArrayList<>(); // {nanos, bytes sent}
    boolean sawBootstrap = false;
    String firstMoving = null;
    long firstProgress = -1;
    long deadline = System.nanoTime() + CHANGE_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      String text = netstats();
      sawBootstrap |= text.contains("Bootstrap") && text.contains("Sending s.t");
      long now = System.nanoTime();
      long bytes = total(text) - before;
      if (bytes > 0) {
        if (firstMoving == null) {
          firstMoving = text;
        }
        samples.add(new long[] {now, bytes});
        if (firstProgress < 0) {
          firstProgress = now;
        }
      }
      if (firstProgress > 0 && now - firstProgress > 4_000_000_000L
          || RingProcesses.countState(ring.status(1), "UN") == 4) {
        break;
      }
      Thread.sleep(250);
    }
    assertThat(firstProgress).as("no Bootstrap stream seen in netstats\n%s", ring.logTails()).isPositive();
    long distinct = samples.stream().mapToLong(s -> s[1]).distinct().count();
    long[] first = samples.get(0);
    long[] last = samples.get(samples.size() - 1);
    double cappedRate = (last[1] - first[1]) / ((last[0] - first[0]) / 1e9);
    System.out.printf("capped at %d B/s: %d samples, %d distinct sent totals, %d -> %d bytes, %.0f B/s%n", CAP,
        samples.size(), distinct, first[1], last[1], cappedRate);
    // Which stream lines a source lists while it sends (the totals are what must move).
    System.out.println("sources' netstats while streaming (Bootstrap listed: " + sawBootstrap + "):\n" + firstMoving);
    assertThat(distinct).as("netstats progress moves while the node joins").isGreaterThanOrEqualTo(3);
    assertThat(cappedRate).as("the cap holds").isLessThan(CAP * 2.5);

    // Uncapped, live: the rest streams faster than the cap would allow.
    long raised = System.nanoTime();
    long sentAtRaise = sent() - before;
    for (int i = 1; i <= 3; i++) {
      ring.nodetool(i, "setstreamthroughput", "0");
    }
    ring.await("4 UN", CHANGE_TIMEOUT, () -> RingProcesses.countState(ring.status(1), "UN") == 4);
    long done = System.nanoTime();
    long total = sent() - before;
    double rest = (done - raised) / 1e9;
    double atCap = (total - sentAtRaise) / (double) CAP;
    System.out.printf("uncapped: %d more bytes in %.1f s (%.1f s at the cap); join %.1f s, %d bytes in all%n",
        total - sentAtRaise, rest, atCap, (done - t0) / 1e9, total);
    if (atCap > 4) {
      assertThat(rest).as("lifting the cap live speeds the running stream").isLessThan(atCap);
    }
  }

  private String netstats() {
    StringBuilder b = new StringBuilder();
    for (int i = 1; i <= 3; i++) {
      b.append(ring.nodetool(i, "netstats"));
    }
    return b.toString();
  }

  private long sent() {
    return total(netstats());
  }

  private static long total(String netstats) {
    Matcher m = SENT.matcher(netstats);
    long sum = 0;
    while (m.find()) {
      sum += Long.parseLong(m.group(1));
    }
    return sum;
  }
}
