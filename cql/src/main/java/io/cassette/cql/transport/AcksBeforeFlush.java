package io.cassette.cql.transport;

import io.cassette.storage.AckBatch;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;

/**
 * Before any answer leaves a CQL connection, the writes it may acknowledge reach the OS: the
 * workers' periodic-mode commit-log records wait in the log's buffer
 * ({@link AckBatch#deferOnThisThread}) until a flush of some connection hands them over, in one
 * call for all the answers of that moment instead of one per write. Every answer of this door
 * leaves through a flush that passes here (it sits between the connection handler and the
 * socket). Stateless: one instance serves every connection.
 */
@ChannelHandler.Sharable
final class AcksBeforeFlush extends ChannelOutboundHandlerAdapter {
  static final AcksBeforeFlush INSTANCE = new AcksBeforeFlush();

  private AcksBeforeFlush() {}

  @Override
  public void flush(ChannelHandlerContext ctx) {
    AckBatch.beforeReplies();
    ctx.flush();
  }
}
