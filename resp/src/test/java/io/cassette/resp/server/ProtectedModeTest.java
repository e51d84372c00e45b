package io.cassette.resp.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.metrics.LatencyMonitor;
import io.cassette.metrics.NodeMetrics;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.config.RedisConfig;
import io.cassette.resp.keyspace.Keyspace;
import io.cassette.resp.protocol.RespDecoder;
import io.cassette.resp.protocol.RespLimits;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Protected mode: with no password, a client from beyond loopback gets Redis's DENIED error
 * and is disconnected; loopback clients and password-protected servers are unaffected.
 * (Real sockets stay on 127.0.0.1, so the remote address is simulated.)
 */
class ProtectedModeTest {
  /** A channel that appears to come from {@code remote}. */
  private static final class RemoteChannel extends EmbeddedChannel {
    private final SocketAddress remote;

    RemoteChannel(SocketAddress remote) {
      super(false, false);
      this.remote = remote;
    }

    @Override
    protected SocketAddress remoteAddress0() {
      return remote;
    }
  }

  @TempDir Path dir;
  private int servers;

  private String connect(String address, String requirePass) throws Exception {
    ScheduledThreadPoolExecutor thread = new ScheduledThreadPoolExecutor(1);
    try (Engine engine = Engine.open(EngineOptions.defaults(dir.resolve("server" + servers++)))) {
      RedisConfig config = new RedisConfig();
      config.init("requirepass", requirePass);
      ServerContext server = new ServerContext(new Keyspace(io.cassette.coordinator.local.LocalCoordinator.open(engine, null)),
          CommandTable.standard(), config, thread, 1 << 20,
          new NodeMetrics(new LatencyMonitor()));
      CommandDispatcher dispatcher = new CommandDispatcher(server, thread);
      server.runner = dispatcher;
      RespDecoder decoder = new RespDecoder(RespLimits.forHeap(64 << 20), true);
      RemoteChannel ch = new RemoteChannel(new InetSocketAddress(address, 50000));
      ch.pipeline().addLast(decoder, new ConnectionHandler(server, dispatcher, new AtomicLong(),
          true, decoder));
      ch.register();
      ch.runPendingTasks();
      ByteBuf out = ch.readOutbound();
      String reply = out == null ? "" : out.toString(StandardCharsets.UTF_8);
      if (out != null) {
        out.release();
      }
      return reply + (ch.isOpen() ? "" : "<closed>");
    } finally {
      thread.shutdownNow();
    }
  }

  @Test
  void remoteClientWithoutPasswordIsDenied() throws Exception {
    String reply = connect("10.1.2.3", "");
    assertThat(reply).startsWith("-DENIED Redis is running in protected mode").endsWith("<closed>");
  }

  @Test
  void loopbackOrPasswordIsAllowed() throws Exception {
    assertThat(connect("127.0.0.1", "")).isEmpty();
    assertThat(connect("10.1.2.3", "secret")).isEmpty();
  }
}
