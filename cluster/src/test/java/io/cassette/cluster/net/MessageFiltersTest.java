package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The transport's fault injection: drop, delay, duplicate, reorder, by verb and by peer. */
class MessageFiltersTest {
  static TestRing ring;
  static final AtomicInteger reads = new AtomicInteger();
  static final List<Integer> arrivals = new CopyOnWriteArrayList<>();

  @BeforeAll
  static void start() {
    ring = new TestRing(3, b -> b.timeouts(VerbTimeouts.defaults().with(TimeoutKind.READ, Duration.ofMillis(1500))));
    for (int i = 0; i < 3; i++) {
      MessagingService ms = ring.node(i);
      ms.registerHandler(Verb.READ_REQ, m -> {
        reads.incrementAndGet();
        ms.respond(m, m.payload());
      });
      ms.registerHandler(Verb.TEST_REQ, m -> arrivals.add(Integer.parseInt(m.payloadAsString())));
    }
  }

  @AfterAll
  static void stop() {
    ring.close();
  }

  @AfterEach
  void reset() {
    ring.filters().reset();
    arrivals.clear();
  }

  static Object read(int from, int to) throws Exception {
    return read(from, to, 1_500);
  }

  /** The answer, or the exception the request failed with. */
  static Object read(int from, int to, int timeoutMillis) throws Exception {
    CompletableFuture<Message> f = ring.node(from).sendWithCallback(ring.peer(to),
        Message.out(Verb.READ_REQ, "r").withTimeoutMillis(timeoutMillis));
    try {
      return f.get(5, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  @Test
  void dropCutsOneDirectionOfOnePairOnly() throws Exception {
    MessageFilters.Rule cut = ring.filters().verbs(Verb.READ_REQ).from(TestRing.address(0)).to(TestRing.address(1)).drop();
    assertThat(read(0, 1, 400)).isInstanceOf(RequestTimeoutException.class);
    assertThat(read(0, 2)).isInstanceOf(Message.class);
    assertThat(read(1, 0)).isInstanceOf(Message.class);
    assertThat(cut.matched()).isEqualTo(1);
    cut.off();
    assertThat(read(0, 1)).isInstanceOf(Message.class);
  }

  @Test
  void droppingTheResponseAlsoTimesTheRequestOut() throws Exception {
    ring.filters().verbs(Verb.READ_RSP).from(TestRing.address(2)).drop();
    int before = reads.get();
    assertThat(read(0, 2, 400)).isInstanceOf(RequestTimeoutException.class);
    assertThat(reads.get()).isEqualTo(before + 1); // the request did arrive
  }

  @Test
  void delayHoldsMessagesBack() throws Exception {
    ring.filters().allVerbs().to(TestRing.address(2)).delay(Duration.ofMillis(250));
    long t0 = System.nanoTime();
    assertThat(read(1, 2)).isInstanceOf(Message.class);
    assertThat((System.nanoTime() - t0) / 1_000_000).isGreaterThanOrEqualTo(250);
  }

  @Test
  void duplicateDeliversTwiceButAnswersOnce() throws Exception {
    ring.filters().verbs(Verb.READ_REQ).to(TestRing.address(1)).duplicate();
    int before = reads.get();
    assertThat(read(2, 1)).isInstanceOf(Message.class);
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
    while (reads.get() < before + 2 && System.nanoTime() < until) TestRing.sleep(10);
    assertThat(reads.get()).isEqualTo(before + 2);
  }

  @Test
  void reorderShufflesAndLosesNothing() {
    ring.filters().verbs(Verb.TEST_REQ).reorder(Duration.ofMillis(60));
    for (int i = 0; i < 40; i++) ring.node(0).send(ring.peer(1), Message.out(Verb.TEST_REQ, Integer.toString(i)));
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (arrivals.size() < 40 && System.nanoTime() < until) TestRing.sleep(10);
    List<Integer> sorted = new ArrayList<>(arrivals);
    sorted.sort(null);
    assertThat(arrivals).hasSize(40).isNotEqualTo(sorted);
    assertThat(sorted).startsWith(0, 1, 2).endsWith(38, 39);
  }

  @Test
  void withoutRulesOrderIsKept() {
    for (int i = 0; i < 40; i++) ring.node(0).send(ring.peer(1), Message.out(Verb.TEST_REQ, Integer.toString(i)));
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (arrivals.size() < 40 && System.nanoTime() < until) TestRing.sleep(10);
    List<Integer> expected = new ArrayList<>();
    for (int i = 0; i < 40; i++) expected.add(i);
    // One handler thread per message may overtake another: order is per connection, not per handler.
    assertThat(arrivals).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void probabilisticDropLosesSomeNotAll() throws Exception {
    ring.filters().verbs(Verb.TEST_REQ).from(TestRing.address(2)).probability(0.5).drop();
    for (int i = 0; i < 200; i++) ring.node(2).send(ring.peer(0), Message.out(Verb.TEST_REQ, Integer.toString(i)));
    // A read on the same (SMALL) connection behind them: once it is answered they have all arrived.
    assertThat(read(2, 0)).isInstanceOf(Message.class);
    TestRing.sleep(100);
    assertThat(arrivals.size()).isBetween(50, 150);
  }
}
