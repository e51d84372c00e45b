package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A peer that stops and comes back on the same address is reached again without help. */
class ReconnectTest {

  static void answerReads(MessagingService ms, String tag) {
    ms.registerHandler(Verb.READ_REQ, m -> ms.respond(m, tag.getBytes()));
  }

  static String read(MessagingService from, TestRing ring, int to) {
    return read(from, ring, to, 300);
  }

  static String read(MessagingService from, TestRing ring, int to, int timeoutMillis) {
    try {
      return from.sendWithCallback(ring.peer(to), Message.out(Verb.READ_REQ, "?").withTimeoutMillis(timeoutMillis))
          .get(5, TimeUnit.SECONDS).payloadAsString();
    } catch (Exception e) {
      return null;
    }
  }

  @Test
  void messagesFlowAgainAfterThePeerRestarts() {
    try (TestRing ring = new TestRing(2, b -> b.timeouts(VerbTimeouts.defaults()
        .with(TimeoutKind.READ, Duration.ofMillis(300))))) {
      answerReads(ring.node(1), "first life");
      assertThat(read(ring.node(0), ring, 1, 5_000)).isEqualTo("first life"); // first contact: cold

      ring.stop(1);
      assertThat(read(ring.node(0), ring, 1)).isNull(); // times out: nobody there

      MessagingService reborn = ring.restart(1);
      answerReads(reborn, "second life");
      answerReads(ring.node(0), "node 0");
      String answer = null;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (answer == null && System.nanoTime() < deadline) answer = read(ring.node(0), ring, 1);
      assertThat(answer).isEqualTo("second life");
      assertThat(read(reborn, ring, 0, 5_000)).isEqualTo("node 0");
    }
  }
}
