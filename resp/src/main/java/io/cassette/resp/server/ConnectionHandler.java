package io.cassette.resp.server;

import io.cassette.resp.command.Errors;
import io.cassette.resp.protocol.Request;
import io.cassette.resp.protocol.RespDecoder;
import io.cassette.resp.session.Session;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last inbound handler of a client's pipeline: queues decoded requests on the client's
 * {@link Session} and hands the session to the {@link CommandDispatcher} once per read burst,
 * so a pipeline is executed in one go. Applies protected mode, maxclients and back-pressure
 * (stops reading while the client does not read its replies). One instance per channel.
 */
public final class ConnectionHandler extends ChannelInboundHandlerAdapter {
  private static final Logger LOG = LoggerFactory.getLogger(ConnectionHandler.class);

  private final ServerContext server;
  private final CommandDispatcher dispatcher;
  private final AtomicLong ids;
  private final boolean protectedMode;
  private final RespDecoder decoder;
  private Session session;

  public ConnectionHandler(ServerContext server, CommandDispatcher dispatcher, AtomicLong ids,
                           boolean protectedMode, RespDecoder decoder) {
    this.server = server;
    this.dispatcher = dispatcher;
    this.ids = ids;
    this.protectedMode = protectedMode;
    this.decoder = decoder;
  }

  @Override
  public void channelActive(ChannelHandlerContext ctx) {
    server.stats.connectionsReceived.incrementAndGet();
    session = new Session(ids.incrementAndGet(), ctx.channel());
    session.authenticated = !server.requiresPassword();
    session.onAuthenticated = () -> decoder.setAuthenticated(true);
    if (protectedMode && !server.requiresPassword()
        && "yes".equals(server.config.get("protected-mode"))
        && ctx.channel().remoteAddress() instanceof InetSocketAddress a
        && !a.getAddress().isLoopbackAddress()) {
      server.stats.connectionsRejected.incrementAndGet();
      ByteBuf b = ctx.alloc().buffer();
      ByteBufUtil.writeUtf8(b, "-" + Errors.DENIED_PROTECTED + "\r\n");
      ctx.writeAndFlush(b).addListener(ChannelFutureListener.CLOSE);
      session.closed = true;
      return;
    }
    if (server.clients.size() >= server.maxClients) {
      // Redis answers before closing; the count lags closes by one command-thread turn.
      server.stats.connectionsRejected.incrementAndGet();
      LOG.debug("refusing client: {} clients connected (maxclients {})", server.clients.size(),
          server.maxClients);
      ByteBuf b = ctx.alloc().buffer();
      ByteBufUtil.writeUtf8(b, "-" + Errors.MAX_CLIENTS + "\r\n");
      ctx.writeAndFlush(b).addListener(f -> CommandDispatcher.closeGracefully(ctx.channel()));
      session.closed = true;
      return;
    }
    server.clients.put(session.id, session);
    server.requests.connectionOpened();
    ctx.fireChannelActive();
  }

  @Override
  public void channelRead(ChannelHandlerContext ctx, Object msg) {
    if (session.closed) {
      if (msg instanceof Request r) {
        server.requestBudget.release(r.budgetBytes());
      }
      return;
    }
    session.inbox.add(msg);
  }

  @Override
  public void channelReadComplete(ChannelHandlerContext ctx) {
    if (!session.inbox.isEmpty()) {
      dispatcher.schedule(session);
    }
    ctx.fireChannelReadComplete();
  }

  @Override
  public void channelWritabilityChanged(ChannelHandlerContext ctx) {
    // A client that does not read its replies stops being read from, bounding its buffer.
    ctx.channel().config().setAutoRead(ctx.channel().isWritable());
    ctx.fireChannelWritabilityChanged();
  }

  @Override
  public void channelInactive(ChannelHandlerContext ctx) {
    if (session != null) {
      if (server.clients.containsKey(session.id)) {
        server.requests.connectionClosed();
      }
      session.closed = true;
      dispatcher.closed(session);
    }
    ctx.fireChannelInactive();
  }

  @Override
  public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
    if (cause instanceof IOException) {
      LOG.debug("client connection error: {}", cause.toString());
    } else {
      LOG.warn("client pipeline failed", cause);
    }
    ctx.close();
  }
}
