package io.cassette.resp.testing;

import io.cassette.resp.RespServer;
import io.cassette.resp.RespServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * A Cassette Redis server for one test: the real storage engine in {@code dir} and a RESP
 * server on an ephemeral loopback port.
 */
public final class TestServer implements AutoCloseable {
  public final Engine engine;
  public final RespServer server;
  public final InetSocketAddress address;

  private TestServer(Engine engine, RespServerOptions options) {
    this(engine, options, s -> { });
  }

  private TestServer(Engine engine, RespServerOptions options,
                     java.util.function.Consumer<RespServer> setup) {
    this.engine = engine;
    this.server = new RespServer(options, io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
        new io.cassette.metrics.NodeMetrics(new io.cassette.metrics.LatencyMonitor()));
    setup.accept(server);
    this.address = server.start();
  }

  /** As {@link #start(Path, UnaryOperator)}, with {@code setup} run before start (TLS, aclfile). */
  public static TestServer start(Path dir, UnaryOperator<RespServerOptions> customize,
                                 java.util.function.Consumer<RespServer> setup) {
    return new TestServer(Engine.open(EngineOptions.defaults(dir)),
        customize.apply(RespServerOptions.ephemeral()), setup);
  }

  public static TestServer start(Path dir) {
    return start(dir, o -> o);
  }

  public static TestServer start(Path dir, UnaryOperator<RespServerOptions> customize) {
    return new TestServer(Engine.open(EngineOptions.defaults(dir)),
        customize.apply(RespServerOptions.ephemeral()));
  }

  /** Restarts on the same directory (data and TTLs must survive); closes this one. */
  public TestServer restart(Path dir) {
    server.close();
    engine.close();
    return new TestServer(Engine.open(EngineOptions.defaults(dir)), RespServerOptions.ephemeral());
  }

  public int port() {
    return address.getPort();
  }

  @Override
  public void close() {
    server.close();
    engine.close();
  }
}
