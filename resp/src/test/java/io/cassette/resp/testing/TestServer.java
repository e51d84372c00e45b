package io.cassette.resp.testing;

import io.cassette.resp.RespServer;
import io.cassette.resp.RespServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.function.UnaryOperator;

/**
 * A Cassette Redis server for one test: the real storage engine in {@code dir} (or, while the
 * engine cannot open, an in-memory stand-in) and a RESP server on an ephemeral loopback port.
 */
public final class TestServer implements AutoCloseable {
  public final Engine engine;
  public final RespServer server;
  public final InetSocketAddress address;
  public final boolean realEngine;

  private TestServer(Engine engine, boolean real, RespServerOptions options) {
    this.engine = engine;
    this.realEngine = real;
    this.server = new RespServer(options, engine,
        new io.cassette.metrics.NodeMetrics(new io.cassette.metrics.LatencyMonitor()));
    this.address = server.start();
  }

  public static TestServer start(Path dir) {
    return start(dir, o -> o);
  }

  public static TestServer start(Path dir, UnaryOperator<RespServerOptions> customize) {
    Engine e;
    boolean real;
    try {
      e = Engine.open(EngineOptions.defaults(dir));
      real = true;
    } catch (UnsupportedOperationException notYet) {
      e = new InMemoryEngine();
      real = false;
    }
    return new TestServer(e, real, customize.apply(RespServerOptions.ephemeral()));
  }

  /** Restarts on the same directory (data and TTLs must survive); closes this one. */
  public TestServer restart(Path dir) {
    server.close();
    if (!realEngine) {
      return new TestServer(engine, false, RespServerOptions.ephemeral());
    }
    engine.close();
    return new TestServer(Engine.open(EngineOptions.defaults(dir)), true,
        RespServerOptions.ephemeral());
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
