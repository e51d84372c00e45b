package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Bytes waiting for a peer are bounded: past the budget, senders get an overload signal. */
class BackPressureTest {
  static final int KiB = 1024;

  @Test
  void anUnreachablePeerCostsAtMostItsBudgetThenSendsAreRefused() throws Exception {
    try (TestRing ring = new TestRing(1, b -> b.sendQueueEndpointCapacity(64 * KiB)
        .sendQueueGlobalCapacity(100 * KiB).maxMessageSize(16 * KiB))) {
      MessagingService ms = ring.node(0);
      InetSocketAddress gone = new InetSocketAddress(TestRing.address(9), ring.port());
      InetSocketAddress alsoGone = new InetSocketAddress(TestRing.address(10), ring.port());
      byte[] kib = new byte[KiB];
      int accepted = 0;
      OverloadedException refused = null;
      for (int i = 0; i < 1000 && refused == null; i++) {
        try {
          ms.send(gone, Message.out(Verb.MUTATION_REQ, kib).withTimeoutMillis(1_500));
          accepted++;
        } catch (OverloadedException e) {
          refused = e;
        }
      }
      int perMessage = KiB + OutboundConnection.QUEUED_MESSAGE_OVERHEAD_BYTES;
      assertThat(accepted).isEqualTo(64 * KiB / perMessage);
      assertThat(refused).hasMessageContaining("internode_application_send_queue_reserve_endpoint_capacity");
      assertThat(ms.queuedMessages(gone)).isEqualTo(accepted);
      // A request is refused the same way, through its future.
      assertThatThrownBy(() -> ms.sendWithCallback(gone, Message.out(Verb.READ_REQ, kib)).get(1, TimeUnit.SECONDS))
          .isInstanceOf(ExecutionException.class).cause().isInstanceOf(OverloadedException.class);
      // The node-wide budget (100 KiB) stops a second dead peer earlier than its own budget would.
      int second = 0;
      try {
        for (int i = 0; i < 1000; i++) {
          ms.send(alsoGone, Message.out(Verb.MUTATION_REQ, kib).withTimeoutMillis(1_500));
          second++;
        }
      } catch (OverloadedException e) {
        assertThat(e).hasMessageContaining("global_capacity");
      }
      assertThat(second).isEqualTo((100 * KiB - accepted * perMessage) / perMessage);
      assertThat(ms.stats().overloaded()).isGreaterThanOrEqualTo(3);

      // Queued messages expire (1.5 s) and are pruned at the next reconnect attempt: budget returns.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(8);
      while (ms.queuedMessages(gone) > 0 && System.nanoTime() < deadline) TestRing.sleep(50);
      assertThat(ms.queuedMessages(gone)).isZero();
      ms.send(gone, Message.out(Verb.MUTATION_REQ, kib).withTimeoutMillis(1_500));
    }
  }

  @Test
  void aSlowReceiverStopsReadingAndTheSenderIsToldItIsOverloaded() throws Exception {
    try (TestRing ring = new TestRing(2, b -> b.sendQueueEndpointCapacity(256 * KiB)
        .receiveQueueEndpointCapacity(64 * KiB).maxMessageSize(64 * KiB).handlerThreads(1))) {
      CountDownLatch release = new CountDownLatch(1);
      AtomicInteger handled = new AtomicInteger();
      ring.node(1).registerHandler(Verb.TEST_REQ, m -> {
        release.await(20, TimeUnit.SECONDS); // a stuck handler: storage stalled
        handled.incrementAndGet();
      });
      byte[] chunk = new byte[8 * KiB];
      int sent = 0;
      boolean overloaded = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      // Kernel socket buffers on loopback absorb a few MB before the sender's queue fills.
      while (!overloaded && sent < 20_000 && System.nanoTime() < deadline) {
        try {
          ring.node(0).send(ring.peer(1), Message.out(Verb.TEST_REQ, chunk));
          sent++;
        } catch (OverloadedException e) {
          overloaded = true;
        }
        if (sent % 100 == 0) TestRing.sleep(1);
      }
      assertThat(overloaded).as("sender overloaded after " + sent + " messages").isTrue();
      release.countDown();
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
      while (handled.get() < sent && System.nanoTime() < until) TestRing.sleep(50);
      assertThat(handled.get()).as("every accepted message is delivered once reading resumes").isEqualTo(sent);
    }
  }
}
