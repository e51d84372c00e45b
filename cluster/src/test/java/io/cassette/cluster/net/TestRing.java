package io.cassette.cluster.net;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.UnaryOperator;

/**
 * Several {@link MessagingService}s in one JVM on 127.0.0.1, 127.0.0.2, ... sharing one port
 * (the addresses differ), as a ring of boards on one machine would be. The port is picked at
 * random and another is tried if any node cannot bind it. Close it to stop every node.
 */
public final class TestRing implements AutoCloseable {
  private final List<MessagingConfig> configs = new ArrayList<>();
  private final List<MessagingService> nodes = new ArrayList<>();
  private final MessageFilters filters = new MessageFilters();
  private int port;

  /** {@code n} nodes with fast reconnects; {@code tweak} may change each node's config. */
  public TestRing(int n, UnaryOperator<MessagingConfig.Builder> tweak) {
    RuntimeException last = null;
    for (int attempt = 0; attempt < 20; attempt++) {
      int candidate = ThreadLocalRandom.current().nextInt(10_000, 32_000); // below the ephemeral range (32768+)
      try {
        for (int i = 0; i < n; i++) {
          MessagingConfig c = tweak.apply(MessagingConfig.builder(address(i))
              .storagePort(candidate)
              .reconnectDelays(Duration.ofMillis(20), Duration.ofMillis(200))
              .connectTimeout(Duration.ofSeconds(1))).build();
          MessagingService ms = new MessagingService(c);
          ms.useFilters(filters);
          ms.start();
          configs.add(c);
          nodes.add(ms);
        }
        port = candidate;
        return;
      } catch (IllegalStateException e) {
        last = e;
        close();
        configs.clear();
        nodes.clear();
      }
    }
    throw last;
  }

  public TestRing(int n) {
    this(n, b -> b);
  }

  public static InetAddress address(int index) {
    try {
      return InetAddress.getByAddress(new byte[] {127, 0, 0, (byte) (index + 1)});
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  public MessagingService node(int index) {
    return nodes.get(index);
  }

  public InetSocketAddress peer(int index) {
    return new InetSocketAddress(address(index), port);
  }

  public int port() {
    return port;
  }

  public MessageFilters filters() {
    return filters;
  }

  /** Stops node {@code index} (its address stays unbound until {@link #restart}). */
  public void stop(int index) {
    nodes.get(index).stop();
  }

  /** Starts a fresh service with the same config on the same address and port. */
  public MessagingService restart(int index) {
    nodes.get(index).stop();
    MessagingService ms = null;
    IllegalStateException last = null;
    for (int attempt = 0; attempt < 50; attempt++) { // the old socket may linger briefly
      try {
        ms = new MessagingService(configs.get(index));
        ms.useFilters(filters);
        ms.start();
        break;
      } catch (IllegalStateException e) {
        last = e;
        ms = null;
        sleep(50);
      }
    }
    if (ms == null) throw last;
    nodes.set(index, ms);
    return ms;
  }

  public static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    for (MessagingService ms : nodes) ms.stop();
  }
}
