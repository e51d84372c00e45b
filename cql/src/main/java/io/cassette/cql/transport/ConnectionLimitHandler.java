package io.cassette.cql.transport;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Bounds open CQL connections, node-wide and per client address
 * ({@code native_transport_max_concurrent_connections}, {@code ..._per_ip}). As Cassandra 5.0
 * does, a connection over a limit is closed as soon as it is accepted, before any frame is
 * read (the client sees the connection closed or reset), and a warning is logged (at most one
 * per second here, so a flood does not flood the log).
 *
 * <p>Thread-safety: shared by all connections (it must be: it counts them); lock-free.
 */
@ChannelHandler.Sharable
final class ConnectionLimitHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionLimitHandler.class);
  private static final long WARN_INTERVAL_NANOS = 1_000_000_000L;

  private final int maxConnections;
  private final int maxConnectionsPerIp;
  private final AtomicInteger open = new AtomicInteger();
  private final ConcurrentHashMap<InetAddress, AtomicInteger> openPerIp = new ConcurrentHashMap<>();
  private final AtomicLong refused = new AtomicLong();
  private final AtomicLong lastWarnNanos = new AtomicLong(System.nanoTime() - WARN_INTERVAL_NANOS);

  /** Limits of -1 mean none. */
  ConnectionLimitHandler(int maxConnections, int maxConnectionsPerIp) {
    this.maxConnections = maxConnections;
    this.maxConnectionsPerIp = maxConnectionsPerIp;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    int count = open.incrementAndGet();
    ctx.channel().closeFuture().addListener(f -> open.decrementAndGet());
    if (maxConnections > 0 && count > maxConnections) {
      refuse(ctx, "Exceeded maximum native connection limit of " + maxConnections + " by using " + count
          + " connections (see native_transport_max_concurrent_connections)");
      return;
    }
    if (maxConnectionsPerIp > 0 && ctx.channel().remoteAddress() instanceof InetSocketAddress remote) {
      InetAddress ip = remote.getAddress();
      AtomicInteger perIp = openPerIp.compute(ip, (k, v) -> {
        AtomicInteger c = v == null ? new AtomicInteger() : v;
        c.incrementAndGet();
        return c;
      });
      ctx.channel().closeFuture().addListener(f -> openPerIp.computeIfPresent(ip,
          (k, v) -> v.decrementAndGet() <= 0 ? null : v));
      if (perIp.get() > maxConnectionsPerIp) {
        refuse(ctx, "Exceeded maximum native connection limit per ip of " + maxConnectionsPerIp + " by using "
            + perIp.get() + " connections (see native_transport_max_concurrent_connections_per_ip)");
        return;
      }
    }
    ctx.fireChannelActive();
  }

  /** Refused connections never became active for the handlers behind: they are not told it ended either. */
  @Override
  public void channelInactive(ChannelHandlerContext ctx) throws Exception {
    if (ctx.channel().hasAttr(REFUSED)) {
      return;
    }
    ctx.fireChannelInactive();
  }

  private static final io.netty.util.AttributeKey<Boolean> REFUSED =
      io.netty.util.AttributeKey.valueOf("cassette.cql.refused");

  private void refuse(ChannelHandlerContext ctx, String why) {
    ctx.channel().attr(REFUSED).set(Boolean.TRUE);
    long n = refused.incrementAndGet();
    long now = System.nanoTime();
    long last = lastWarnNanos.get();
    if (now - last >= WARN_INTERVAL_NANOS && lastWarnNanos.compareAndSet(last, now)) {
      LOG.warn("{} ({} connections refused so far)", why, n);
    }
    // SO_LINGER 0 would send RST; a plain close is what Cassandra does.
    ctx.close();
  }

  /** Connections open now, refused ones included until they are closed. */
  int openConnections() {
    return open.get();
  }

  long refusedConnections() {
    return refused.get();
  }
}
