package io.cassette.resp.ring;

import io.cassette.resp.session.Session;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.util.function.Consumer;

/**
 * A client of another node, on the node that executes its command: a {@link Session} like a
 * socket's, served by the same command dispatcher (so blocking, MULTI/EXEC, replies and
 * statistics are the door's own), whose "socket" is an in-memory channel that collects the
 * reply bytes for the answer message. Ids are negative, so it is never forwarded again.
 *
 * <p>The reply is complete when the dispatcher has run the request ({@link #ran()}, called
 * right after {@code CommandRunner.runNow}) and the session is not blocked; a blocked one
 * (BLPOP) completes with the write that serves or times it out. Command thread only.
 */
final class RemoteClient {
  /** The answer when the dispatcher wrote no reply (see {@link #completeIfDone}). */
  static final byte[] NOT_RUN = "-ERR the node that owns the key did not run the command\r\n"
      .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
  final Session session;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private Consumer<byte[]> answer;
  private boolean ran;
  private boolean answered;

  /** A client whose first request is answered to {@code answer} (null: none yet, see {@link #next}). */
  RemoteClient(long id, Consumer<byte[]> answer) {
    this.answer = answer;
    EmbeddedChannel channel = new EmbeddedChannel(new ChannelOutboundHandlerAdapter() {
      @Override
      public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf b) {
          try {
            byte[] bytes = new byte[b.readableBytes()];
            b.readBytes(bytes);
            out.writeBytes(bytes);
          } finally {
            b.release();
          }
        }
        promise.setSuccess();
        completeIfDone();
      }
    });
    this.session = new Session(id, channel);
    session.authenticated = true;
    session.noEvict = true; // the client's own node enforces its output limits
  }

  /** Serves one more request of the same client (its EXEC after its WATCH), answered to {@code to}. */
  void next(Consumer<byte[]> to) {
    out.reset();
    answer = to;
    ran = false;
    answered = false;
    session.closed = false;
  }

  /** The dispatcher has run the request (the reply is written unless the session blocked). */
  void ran() {
    ran = true;
    completeIfDone();
  }

  /** The client is gone: a blocked command stops waiting and nothing is answered. */
  void cancel() {
    answered = true;
    session.closed = true;
  }

  boolean answered() {
    return answered;
  }

  private void completeIfDone() {
    if (ran && !answered && answer != null && session.blocked == null) {
      answered = true;
      session.closed = true;
      // Every command the dispatcher runs writes a reply; none means it was not run (serving
      // the session failed and closed it): an error, never an empty answer a client waits on.
      answer.accept(out.size() > 0 ? out.toByteArray() : NOT_RUN);
    }
  }
}
