package io.cassette.cluster.net;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Hands decoded messages of one inbound connection to the service and applies receive-side
 * back-pressure: while the bytes of this connection's messages still being handled exceed
 * {@code internode_application_receive_queue_reserve_endpoint_capacity}, the node stops reading
 * from the socket (TCP then slows the sender) instead of queueing more. Corrupt frames are
 * logged with the peer and close the connection.
 */
final class InboundMessageHandler extends ChannelInboundHandlerAdapter {
  private static final Logger log = LoggerFactory.getLogger(InboundMessageHandler.class);

  private final MessagingService service;
  private final InetSocketAddress peer;
  private final ConnectionType type;
  private final long capacity;
  /**
   * Bytes of messages handed over and not yet finished. Handler threads give bytes back without
   * a task on the event loop (one wake-up less per message); only a paused connection is
   * resumed there.
   */
  private final AtomicLong inFlight = new AtomicLong();
  /** Reads are paused; written on the event loop, read by releasing threads. */
  private volatile boolean paused;
  private ChannelHandlerContext ctx;

  InboundMessageHandler(MessagingService service, InetSocketAddress peer, ConnectionType type) {
    this.service = service;
    this.peer = peer;
    this.type = type;
    this.capacity = service.config().receiveQueueEndpointCapacity();
  }

  @Override
  public void handlerAdded(ChannelHandlerContext ctx) {
    this.ctx = ctx;
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    Message m = (Message) msg;
    service.metrics().received();
    long bytes = OutboundConnection.QUEUED_MESSAGE_OVERHEAD_BYTES + m.payload().length;
    long now = inFlight.addAndGet(bytes);
    if (now > capacity && !paused) {
      log.debug("Pausing reads from {} ({}): {} bytes being handled", peer, type, now);
      paused = true;
      ctx.channel().config().setAutoRead(false);
      // A release that ran before `paused` was set did not see it: check again.
      if (inFlight.get() <= capacity) resume();
    }
    service.deliver(m, () -> release(bytes));
  }

  private void release(long bytes) {
    // Decrement, then read `paused`; the event loop sets `paused`, then reads inFlight: one of
    // the two sees the other, so a paused connection is always resumed.
    if (inFlight.addAndGet(-bytes) <= capacity && paused) {
      if (ctx.executor().inEventLoop()) resume();
      else ctx.executor().execute(this::resume);
    }
  }

  /** On the event loop: reads again if the bytes being handled are back under capacity. */
  private void resume() {
    if (paused && inFlight.get() <= capacity) {
      paused = false;
      ctx.channel().config().setAutoRead(true);
    }
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    Throwable c = cause instanceof CorruptFrameException ? cause : cause.getCause() instanceof CorruptFrameException ? cause.getCause() : cause;
    if (c instanceof CorruptFrameException) {
      log.warn("Closing internode connection from {} ({}): {}", peer, type, c.getMessage());
    } else if (c instanceof IOException) {
      log.debug("Internode connection from {} ({}) failed: {}", peer, type, c.toString());
    } else {
      log.warn("Closing internode connection from {} ({})", peer, type, c);
    }
    ctx.close();
  }
}
