package io.cassette.server.http;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.function.Function;

/**
 * The node's admin HTTP port: small JSON or text endpoints registered by path (health and
 * version now; metrics, the dashboard and nodetool's endpoints register here later).
 * Handlers run on the event loop and must be quick. State changes from web pages are refused
 * before any handler runs ({@link CrossOriginGuard}).
 */
public final class AdminHttpServer implements AutoCloseable {
  /** A request body larger than this is refused: the admin API takes small JSON only. */
  static final int MAX_REQUEST_BYTES = 64 << 10;

  /** What an endpoint answers. */
  public record Response(int status, String contentType, String body) {
    public static Response json(String body) {
      return new Response(200, "application/json", body);
    }

    public static Response text(String body) {
      return new Response(200, "text/plain; charset=utf-8", body);
    }
  }

  /** A request as an endpoint sees it. */
  public record Request(String method, String path, Map<String, java.util.List<String>> parameters,
                        String body) {}

  private final String host;
  private final int port;
  private final EventLoopGroup group;
  private final Map<String, Function<Request, Response>> endpoints = new ConcurrentHashMap<>();
  /** Endpoints registered with {@link #registerBlocking}, by path. */
  private final Map<String, Executor> blockingExecutors = new ConcurrentHashMap<>();
  private final CrossOriginGuard crossOrigin;
  private volatile AdminCredentials credentials = new AdminCredentials("", null);
  private Channel channel;
  private volatile io.cassette.tls.TlsAcceptor tls;

  /** @param group the event loops shared with the other front doors; not closed here */
  public AdminHttpServer(String host, int port, EventLoopGroup group) {
    this.host = host;
    this.port = port;
    this.group = group;
    this.crossOrigin = new CrossOriginGuard(host);
  }

  /** Who may change the node (POST, PUT, DELETE); by default loopback clients only. */
  public void setCredentials(AdminCredentials credentials) {
    this.credentials = credentials;
  }

  /** The endpoint registered at {@code path}, or null (to wrap it). */
  public Function<Request, Response> endpoint(String path) {
    return endpoints.get(path);
  }

  public void register(String path, Function<Request, Response> endpoint) {
    endpoints.put(path, endpoint);
  }

  /**
   * Registers an endpoint whose work may take long (flush, compact): it runs on
   * {@code executor}, not the event loop, and is answered when done, so health, metrics and
   * the dashboard keep answering meanwhile.
   */
  public void registerBlocking(String path, Function<Request, Response> endpoint, Executor executor) {
    endpoints.put(path, endpoint);
    blockingExecutors.put(path, executor);
  }

  /** Serves https with {@code acceptor} (http_encryption_options); null: plain http. Before start. */
  public AdminHttpServer tls(io.cassette.tls.TlsAcceptor acceptor) {
    this.tls = acceptor;
    return this;
  }

  public InetSocketAddress start() throws InterruptedException {
    ServerBootstrap b = new ServerBootstrap()
        .group(group)
        .channel(NioServerSocketChannel.class)
        .childHandler(new ChannelInitializer<SocketChannel>() {
          @Override
          protected void initChannel(SocketChannel ch) {
            if (tls != null) {
              tls.addTo(ch);
            }
            ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(MAX_REQUEST_BYTES),
                new Dispatcher());
          }
        });
    channel = b.bind(host, port).sync().channel();
    return (InetSocketAddress) channel.localAddress();
  }

  @Override
  public void close() {
    if (channel != null) {
      channel.close().syncUninterruptibly();
    }
  }

  private final class Dispatcher extends SimpleChannelInboundHandler<FullHttpRequest> {
    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest req) {
      QueryStringDecoder uri = new QueryStringDecoder(req.uri());
      Function<Request, Response> endpoint = endpoints.get(uri.path());
      boolean keepAlive = HttpUtil.isKeepAlive(req);
      boolean head = req.method() == HttpMethod.HEAD;
      String refused = crossOrigin.refusal(req, ((InetSocketAddress) ctx.channel().localAddress()).getPort());
      if (refused != null) {
        write(ctx, new Response(403, "application/json", JsonWriter.error(refused)), keepAlive, head);
        return;
      }
      AdminCredentials.Refusal denied = credentials.check(req,
          ctx.channel().remoteAddress() instanceof InetSocketAddress r ? r : null);
      if (denied != null) {
        write(ctx, new Response(denied.status(), "application/json", JsonWriter.error(denied.message())), keepAlive, head);
        return;
      }
      if (endpoint == null) {
        write(ctx, new Response(404, "application/json",
            "{\"error\":\"no such endpoint: " + uri.path().replace("\"", "") + "\"}"), keepAlive, head);
        return;
      }
      Request request = new Request(req.method().name(), uri.path(), uri.parameters(),
          req.content().toString(StandardCharsets.UTF_8));
      Executor blocking = blockingExecutors.get(uri.path());
      if (blocking == null) {
        write(ctx, apply(endpoint, request), keepAlive, head);
      } else {
        blocking.execute(() -> {
          Response response = apply(endpoint, request);
          ctx.executor().execute(() -> write(ctx, response, keepAlive, head));
        });
      }
    }

    private Response apply(Function<Request, Response> endpoint, Request request) {
      try {
        return endpoint.apply(request);
      } catch (RuntimeException e) {
        return new Response(500, "application/json",
            "{\"error\":\"" + String.valueOf(e.getMessage()).replace("\"", "'") + "\"}");
      }
    }

    private void write(ChannelHandlerContext ctx, Response response, boolean keepAlive, boolean head) {
      byte[] body = response.body().getBytes(StandardCharsets.UTF_8);
      FullHttpResponse res = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
          HttpResponseStatus.valueOf(response.status()),
          head ? Unpooled.EMPTY_BUFFER : Unpooled.wrappedBuffer(body));
      res.headers().set(HttpHeaderNames.CONTENT_TYPE, response.contentType());
      res.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, body.length);
      if (response.status() == 401) {
        res.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Basic realm=\"cassette admin\", charset=\"UTF-8\"");
      }
      HttpUtil.setKeepAlive(res, keepAlive);
      var f = ctx.writeAndFlush(res);
      if (!keepAlive) {
        f.addListener(ChannelFutureListener.CLOSE);
      }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
      ctx.close();
    }
  }
}
