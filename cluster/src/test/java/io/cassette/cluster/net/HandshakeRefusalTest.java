package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Another cluster or another messaging version is refused, with the reason on both sides. */
class HandshakeRefusalTest {

  static Throwable failure(CompletableFuture<Message> f) throws Exception {
    try {
      f.get(5, TimeUnit.SECONDS);
      return null;
    } catch (ExecutionException e) {
      return e.getCause();
    }
  }

  static MessagingService stranger(TestRing ring, int index, String clusterName, int version) {
    MessagingConfig c = MessagingConfig.builder(TestRing.address(index)).storagePort(ring.port())
        .clusterName(clusterName).reconnectDelays(Duration.ofMillis(20), Duration.ofMillis(500)).build();
    return new MessagingService(c, version, version).start();
  }

  @Test
  void aDifferentClusterNameIsRefusedWithAClearReason() throws Exception {
    try (TestRing ring = new TestRing(1); LogCapture logs = new LogCapture()) {
      MessagingService other = stranger(ring, 2, "Other Ring", MessagingService.CURRENT_VERSION);
      try {
        Throwable t = failure(other.sendWithCallback(ring.peer(0), Message.out(Verb.PING_REQ, new byte[0])));
        assertThat(t).isInstanceOf(HandshakeRefusedException.class)
            .hasMessageContaining("cluster name 'Other Ring' differs from ours 'Test Cluster'");
        assertThat(((HandshakeRefusedException) t).refusal()).isEqualTo(Handshake.Refusal.CLUSTER_NAME);
        assertThat(other.lastRefusal(ring.peer(0))).isPresent();
        // While the refusal holds, sends fail at once with the same reason.
        assertThat(failure(other.sendWithCallback(ring.peer(0), Message.out(Verb.PING_REQ, new byte[0]))))
            .isInstanceOf(HandshakeRefusedException.class);
        // Both sides said why in their logs.
        assertThat(logs.has("WARNING", "Refusing internode connection from /127.0.0.3", "Other Ring")).isTrue();
        assertThat(logs.has("WARNING", "Internode connection to /127.0.0.1", "refused", "CLUSTER_NAME")).isTrue();
        // The other direction is refused too.
        Throwable back = failure(ring.node(0).sendWithCallback(other.address(), Message.out(Verb.PING_REQ, new byte[0])));
        assertThat(back).isInstanceOf(HandshakeRefusedException.class).hasMessageContaining("Other Ring");
      } finally {
        other.stop();
      }
    }
  }

  /**
   * Mixed versions during a rolling upgrade: a node of the next messaging version that still
   * speaks ours (its minimum is our version) talks at ours, both ways; one that dropped ours is
   * refused with both ranges named.
   */
  @Test
  void aNodeOfTheNextVersionInteroperatesWhileItStillSpeaksOurs() throws Exception {
    int next = MessagingService.CURRENT_VERSION + 1;
    try (TestRing ring = new TestRing(1); LogCapture logs = new LogCapture()) {
      MessagingConfig c = MessagingConfig.builder(TestRing.address(2)).storagePort(ring.port())
          .reconnectDelays(Duration.ofMillis(20), Duration.ofMillis(500)).build();
      MessagingService upgraded = new MessagingService(c, next, MessagingService.CURRENT_VERSION).start();
      try {
        assertThat(upgraded.sendWithCallback(ring.peer(0), Message.out(Verb.PING_REQ, new byte[0]))
            .get(5, TimeUnit.SECONDS).verb()).isEqualTo(Verb.PING_RSP);
        assertThat(ring.node(0).sendWithCallback(upgraded.address(), Message.out(Verb.PING_REQ, new byte[0]))
            .get(5, TimeUnit.SECONDS).verb()).isEqualTo(Verb.PING_RSP);
      } finally {
        upgraded.stop();
      }
      MessagingService only = stranger(ring, 3, MessagingConfig.DEFAULT_CLUSTER_NAME, next);
      try {
        Throwable t = failure(only.sendWithCallback(ring.peer(0), Message.out(Verb.PING_REQ, new byte[0])));
        assertThat(t).isInstanceOf(HandshakeRefusedException.class)
            .hasMessageContaining("messaging versions " + next + ".." + next + " do not overlap ours");
      } finally {
        only.stop();
      }
    }
  }

  @Test
  void anIncompatibleMessagingVersionIsRefused() throws Exception {
    try (TestRing ring = new TestRing(1); LogCapture logs = new LogCapture()) {
      MessagingService future = stranger(ring, 3, MessagingConfig.DEFAULT_CLUSTER_NAME, 99);
      try {
        Throwable t = failure(future.sendWithCallback(ring.peer(0), Message.out(Verb.PING_REQ, new byte[0])));
        assertThat(t).isInstanceOf(HandshakeRefusedException.class).hasMessageContaining("messaging versions 99..99");
        assertThat(((HandshakeRefusedException) t).refusal()).isEqualTo(Handshake.Refusal.VERSION);
        assertThat(logs.has("WARNING", "Refusing internode connection from /127.0.0.4", "VERSION".toLowerCase())).isTrue();

        Throwable back = failure(ring.node(0).sendWithCallback(future.address(), Message.out(Verb.PING_REQ, new byte[0])));
        assertThat(back).isInstanceOf(HandshakeRefusedException.class);
        assertThat(((HandshakeRefusedException) back).refusal()).isEqualTo(Handshake.Refusal.VERSION);
      } finally {
        future.stop();
      }
      // The node is fine afterwards.
      assertThat(ring.node(0).sendWithCallback(ring.peer(0), Message.out(Verb.PING_REQ, new byte[0]))
          .get(5, TimeUnit.SECONDS).verb()).isEqualTo(Verb.PING_RSP);
    }
  }
}
