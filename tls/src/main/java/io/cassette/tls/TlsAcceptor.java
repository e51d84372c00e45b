package io.cassette.tls;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.ssl.OptionalSslHandler;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

/**
 * What a listening door does with TLS: puts the TLS handler first in each accepted channel's
 * pipeline, with the context current at accept time (so a renewed certificate serves the next
 * connection). With {@code optional} (Cassandra's {@code client_encryption_options.optional},
 * internode {@code dc} mode) the first bytes decide: a TLS ClientHello gets TLS, anything else
 * is served in plain text on the same port.
 */
public final class TlsAcceptor {
  /** The pipeline name of the TLS (or TLS-or-plain) handler. */
  public static final String HANDLER_NAME = "tls";

  private final ReloadingTlsContext context;
  private final boolean optional;

  public TlsAcceptor(ReloadingTlsContext context, boolean optional) {
    this.context = context;
    this.optional = optional;
  }

  /** Adds the handler at the head of {@code ch}'s pipeline; call from the channel initializer. */
  public void addTo(Channel ch) {
    SslContext ctx = context.current();
    ch.pipeline().addFirst(HANDLER_NAME, optional ? new Detector(ctx) : ctx.newHandler(ch.alloc()));
  }

  public boolean optional() {
    return optional;
  }

  public ReloadingTlsContext context() {
    return context;
  }

  /** TLS when the client starts with a TLS record, plain text otherwise. */
  private static final class Detector extends OptionalSslHandler {
    Detector(SslContext ctx) {
      super(ctx);
    }

    @Override
    protected String newSslHandlerName() {
      return HANDLER_NAME;
    }

    @Override
    protected SslHandler newSslHandler(ChannelHandlerContext ctx, SslContext sslContext) {
      return sslContext.newHandler(ctx.alloc());
    }
  }
}
