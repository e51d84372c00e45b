package io.cassette.cluster.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The accepting side of {@link Handshake}: reads HELLO, refuses another cluster or a messaging
 * version we do not speak (logging why, and telling the peer why), else answers ACCEPT and
 * replaces itself with the frame decoder and the inbound message handler. A connection that
 * says nothing within the connect timeout is closed.
 */
final class InboundHandshakeHandler extends ByteToMessageDecoder {
  private static final Logger log = LoggerFactory.getLogger(InboundHandshakeHandler.class);

  private final MessagingService service;
  private boolean done;
  private ScheduledFuture<?> timeout;

  InboundHandshakeHandler(MessagingService service) {
    this.service = service;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) throws Exception {
    long millis = service.config().connectTimeout().toMillis() * 2;
    timeout = ctx.executor().schedule(() -> {
      if (!done) {
        log.debug("No internode handshake from {} in {} ms; closing", ctx.channel().remoteAddress(), millis);
        ctx.close();
      }
    }, millis, TimeUnit.MILLISECONDS);
    super.channelActive(ctx);
  }

  @Override
  protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
    if (done) {
      in.skipBytes(in.readableBytes());
      return;
    }
    Object msg;
    try {
      msg = Handshake.decode(in);
    } catch (Handshake.BadHandshakeException e) {
      done = true;
      log.warn("Refusing internode connection from {}: {}", ctx.channel().remoteAddress(), e.getMessage());
      service.metrics().refusedHandshake();
      reject(ctx, Handshake.Refusal.BAD_HANDSHAKE, e.getMessage());
      return;
    }
    if (msg == null) return;
    done = true;
    if (timeout != null) timeout.cancel(false);
    if (!(msg instanceof Handshake.Hello hello)) {
      reject(ctx, Handshake.Refusal.BAD_HANDSHAKE, "expected HELLO");
      return;
    }
    String problem = null;
    Handshake.Refusal refusal = null;
    String ours = service.config().clusterName();
    if (!hello.clusterName().equals(ours)) {
      refusal = Handshake.Refusal.CLUSTER_NAME;
      problem = "cluster name '" + hello.clusterName() + "' differs from ours '" + ours + "' (cluster_name)";
    } else if (hello.version() < service.minMessagingVersion() || hello.minVersion() > service.messagingVersion()) {
      refusal = Handshake.Refusal.VERSION;
      problem = "messaging versions " + hello.minVersion() + ".." + hello.version() + " do not overlap ours "
          + service.minMessagingVersion() + ".." + service.messagingVersion();
    }
    if (problem != null) {
      log.warn("Refusing internode connection from {} ({}, host id {}): {}", hello.address(),
          ctx.channel().remoteAddress(), hello.hostId(), problem);
      service.metrics().refusedHandshake();
      reject(ctx, refusal, problem);
      return;
    }
    int version = Math.min(hello.version(), service.messagingVersion());
    ctx.writeAndFlush(Handshake.encode(ctx.alloc(), new Handshake.Accept(version,
        service.config().epoch().getAsLong(), service.config().hostId(), ours)));
    if (!hello.address().getAddress().equals(((java.net.InetSocketAddress) ctx.channel().remoteAddress()).getAddress())) {
      log.debug("Peer {} connects from {} (it did not bind its listen address)", hello.address(), ctx.channel().remoteAddress());
    }
    log.debug("Accepted internode connection from {} ({}, version {})", hello.address(), hello.type(), version);
    ctx.pipeline().addAfter(ctx.name(), "messages", new InboundMessageHandler(service, hello.address(), hello.type()));
    ctx.pipeline().addAfter(ctx.name(), "frames",
        new FrameDecoder(hello.address(), service.config().maxMessageSize(), service.metrics()));
    ctx.pipeline().remove(this); // passes any bytes already read on to the frame decoder
  }

  private void reject(ChannelHandlerContext ctx, Handshake.Refusal refusal, String reason) {
    ctx.writeAndFlush(Handshake.encode(ctx.alloc(), new Handshake.Reject(refusal,
        service.minMessagingVersion(), service.messagingVersion(), reason))).addListener(ChannelFutureListener.CLOSE);
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    log.debug("Internode handshake from {} failed: {}", ctx.channel().remoteAddress(), cause.toString());
    ctx.close();
  }
}
