package io.cassette.cluster.net;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.channel.nio.NioEventLoopGroup;
import java.net.ConnectException;
import java.net.Socket;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Nodes may share the server's event loops; stopping messaging leaves them running. */
class SharedEventLoopTest {

  @Test
  void aSharedGroupCarriesMessagesAndOutlivesTheService() throws Exception {
    NioEventLoopGroup shared = new NioEventLoopGroup(1);
    try {
      int port;
      try (TestRing ring = new TestRing(2, b -> b.eventLoopGroup(shared))) {
        port = ring.port();
        assertThat(ring.node(0).sendWithCallback(ring.peer(1), Message.out(Verb.PING_REQ, new byte[0]))
            .get(5, TimeUnit.SECONDS).verb()).isEqualTo(Verb.PING_RSP);
        long internodeThreads = Thread.getAllStackTraces().keySet().stream()
            .filter(t -> t.getName().startsWith("cassette-internode-127")).count();
        assertThat(internodeThreads).isZero();
      }
      assertThat(shared.isShuttingDown()).isFalse();
      // The listening socket closes on the shared loop, not in close(): allow it a moment
      // (a clean-clone run connected once right after close).
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (System.nanoTime() < deadline && accepts(port)) {
        Thread.sleep(50);
      }
      assertThatThrownBy(() -> new Socket(TestRing.address(1), port).close()).isInstanceOf(ConnectException.class);
    } finally {
      shared.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }
  }

  private static boolean accepts(int port) {
    try (Socket s = new Socket(TestRing.address(1), port)) {
      return true;
    } catch (java.io.IOException e) {
      return false;
    }
  }
}
