package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Request/response across a ring of three nodes on 127.0.0.1-3, one port. */
class MessagingServiceTest {
  static TestRing ring;
  static final AtomicInteger silentRequests = new AtomicInteger();

  @BeforeAll
  static void startRing() {
    ring = new TestRing(3, b -> b
        .epoch(() -> 42)
        .timeouts(VerbTimeouts.defaults()
            .with("write_request_timeout", Duration.ofMillis(200))
            .with("read_request_timeout", Duration.ofMillis(500))));
    for (int i = 0; i < 3; i++) {
      MessagingService ms = ring.node(i);
      String self = ms.address().getAddress().getHostAddress();
      // READ_REQ: echo "<self> saw <from>: <payload>"
      ms.registerHandler(Verb.READ_REQ, m -> ms.respond(m,
          (self + " saw " + m.from().getAddress().getHostAddress() + " epoch " + m.epoch() + ": " + m.payloadAsString())
              .getBytes(StandardCharsets.UTF_8)));
      // MUTATION_REQ and RANGE_REQ: never answered (timeouts)
      ms.registerHandler(Verb.MUTATION_REQ, m -> silentRequests.incrementAndGet());
      ms.registerHandler(Verb.RANGE_REQ, m -> silentRequests.incrementAndGet());
      ms.registerHandler(Verb.HINT_REQ, m -> ms.respondFailure(m, RequestFailureReason.READ_TOO_MANY_TOMBSTONES, "too many"));
      ms.registerHandler(Verb.TRUNCATE_REQ, m -> { throw new IllegalStateException("boom"); });
      ms.registerHandler(Verb.COUNTER_MUTATION_REQ, m -> ms.respond(m, m.payload())); // echo bytes
    }
  }

  @AfterAll
  static void stopRing() {
    ring.close();
  }

  static Message get(CompletableFuture<Message> f) throws Exception {
    return f.get(5, TimeUnit.SECONDS);
  }

  @Test
  void everyNodeAnswersEveryNodeAndSeesItsRealAddress() throws Exception {
    for (int from = 0; from < 3; from++) {
      for (int to = 0; to < 3; to++) {
        Message rsp = get(ring.node(from).sendWithCallback(ring.peer(to), Message.out(Verb.READ_REQ, "hello")));
        assertThat(rsp.verb()).isEqualTo(Verb.READ_RSP);
        assertThat(rsp.from()).isEqualTo(ring.peer(to));
        assertThat(rsp.epoch()).isEqualTo(42);
        assertThat(rsp.payloadAsString()).isEqualTo("127.0.0." + (to + 1) + " saw 127.0.0." + (from + 1) + " epoch 42: hello");
      }
    }
  }

  @Test
  void manyConcurrentRequestsAreMatchedById() throws Exception {
    List<CompletableFuture<Message>> futures = new ArrayList<>();
    for (int i = 0; i < 500; i++) {
      futures.add(ring.node(i % 3).sendWithCallback(ring.peer((i + 1) % 3), Message.out(Verb.READ_REQ, "n" + i).withTimeoutMillis(5_000)));
    }
    for (int i = 0; i < 500; i++) {
      assertThat(get(futures.get(i)).payloadAsString()).endsWith(": n" + i);
    }
  }

  @Test
  void timeoutsFollowTheVerb() throws Exception {
    long t0 = System.nanoTime();
    CompletableFuture<Message> write = ring.node(0).sendWithCallback(ring.peer(1), Message.out(Verb.MUTATION_REQ, "w"));
    CompletableFuture<Message> range = ring.node(0).sendWithCallback(ring.peer(1), Message.out(Verb.RANGE_REQ, "r"));
    CompletableFuture<Message> own = ring.node(0).sendWithCallback(ring.peer(1),
        Message.out(Verb.RANGE_REQ, "r").withTimeoutMillis(300));
    assertThatThrownBy(() -> write.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(RequestTimeoutException.class)
        .hasMessageContaining("write_request_timeout").hasMessageContaining("200 ms");
    long writeMillis = (System.nanoTime() - t0) / 1_000_000;
    assertThat(writeMillis).isBetween(190L, 2_000L); // generous top: a loaded 2-core machine
    assertThatThrownBy(() -> own.get(5, TimeUnit.SECONDS)).cause().isInstanceOf(RequestTimeoutException.class)
        .hasMessageContaining("300 ms");
    // range_request_timeout is still Cassandra's default 10 s: not expired yet.
    assertThat(range).isNotDone();
    RequestTimeoutException e = (RequestTimeoutException) catchCause(write);
    assertThat(e.verb()).isEqualTo(Verb.MUTATION_REQ);
    assertThat(e.peer()).isEqualTo(ring.peer(1));
    range.cancel(true);
  }

  static Throwable catchCause(CompletableFuture<?> f) {
    try {
      f.get(5, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    } catch (Exception e) {
      return e;
    }
  }

  @Test
  void failureResponsesCarryTheReason() {
    Throwable hint = catchCause(ring.node(0).sendWithCallback(ring.peer(2), Message.out(Verb.HINT_REQ, "h")));
    assertThat(hint).isInstanceOf(RequestFailureException.class);
    assertThat(((RequestFailureException) hint).reason()).isEqualTo(RequestFailureReason.READ_TOO_MANY_TOMBSTONES);
    assertThat(((RequestFailureException) hint).detail()).isEqualTo("too many");

    Throwable thrown = catchCause(ring.node(0).sendWithCallback(ring.peer(2), Message.out(Verb.TRUNCATE_REQ, "t")));
    assertThat(((RequestFailureException) thrown).reason()).isEqualTo(RequestFailureReason.UNKNOWN);
    assertThat(thrown).hasMessageContaining("boom");

    Throwable unknown = catchCause(ring.node(0).sendWithCallback(ring.peer(2), Message.out(Verb.PAXOS2_PREPARE_REQ, "p")));
    assertThat(((RequestFailureException) unknown).reason()).isEqualTo(RequestFailureReason.UNKNOWN_VERB);
  }

  @Test
  void largeMessagesAreSplitIntoFramesAndReassembled() throws Exception {
    byte[] big = new byte[1_000_000];
    for (int i = 0; i < big.length; i++) big[i] = (byte) (i * 31 + (i >> 8));
    Message rsp = get(ring.node(1).sendWithCallback(ring.peer(2), Message.out(Verb.COUNTER_MUTATION_REQ, big)));
    assertThat(rsp.payload()).isEqualTo(big);
  }

  @Test
  void oversizedMessagesAreRefusedAtSend() {
    byte[] tooBig = new byte[ring.node(0).config().maxMessageSize()];
    assertThatThrownBy(() -> ring.node(0).send(ring.peer(1), Message.out(Verb.MUTATION_REQ, tooBig)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("internode_max_message_size");
  }

  @Test
  void pingAndEchoAreBuiltIn() throws Exception {
    assertThat(get(ring.node(2).sendWithCallback(ring.peer(0), Message.out(Verb.PING_REQ, new byte[0]))).verb())
        .isEqualTo(Verb.PING_RSP);
    assertThat(get(ring.node(2).sendWithCallback(ring.peer(0), Message.out(Verb.ECHO_REQ, new byte[0]))).verb())
        .isEqualTo(Verb.ECHO_RSP);
  }

  @Test
  void oneWayVerbsNeedSend() {
    assertThat(catchCause(ring.node(0).sendWithCallback(ring.peer(1), Message.out(Verb.METADATA_REPLICATION, "x"))))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void outgoingConnectionsComeFromTheListenAddress() throws Exception {
    try (java.net.ServerSocket listener = new java.net.ServerSocket()) {
      listener.bind(new InetSocketAddress(TestRing.address(6), 0));
      listener.setSoTimeout(5000);
      ring.node(1).send(new InetSocketAddress(TestRing.address(6), listener.getLocalPort()), Message.out(Verb.MUTATION_REQ, "x"));
      try (java.net.Socket s = listener.accept()) {
        assertThat(s.getInetAddress()).isEqualTo(TestRing.address(1)); // 127.0.0.2, not 127.0.0.1
      }
    }
  }

  @Test
  void messagesToAnUnreachablePeerTimeOut() {
    InetSocketAddress nobody = new InetSocketAddress(TestRing.address(9), ring.port());
    Throwable t = catchCause(ring.node(0).sendWithCallback(nobody, Message.out(Verb.MUTATION_REQ, "w")));
    assertThat(t).isInstanceOf(RequestTimeoutException.class);
  }
}
