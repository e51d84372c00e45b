package io.cassette.tools.cqlsh;

import io.cassette.server.CassetteNode;
import io.cassette.server.ResourceSizing;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.Map;

/** A Cassette node serving CQL on a free loopback port, for the shell's tests. */
final class TestNode implements AutoCloseable {
  final CassetteNode node;
  final int cqlPort;

  private TestNode(CassetteNode node, int cqlPort) {
    this.node = node;
    this.cqlPort = cqlPort;
  }

  static TestNode start(Path dataDirectory) throws Exception {
    int port = freePort();
    Config config = ConfigLoader.load(null, Map.of(), Map.of(
        "data_directory", new FlagValue(dataDirectory.toString(), "test"),
        "native_transport_port", new FlagValue(Integer.toString(port), "test"),
        "resp_port", new FlagValue("0", "test"), "http_port", new FlagValue("0", "test")));
    CassetteNode node = new CassetteNode(config, ResourceSizing.forThisJvm(null, null));
    node.start();
    return new TestNode(node, port);
  }

  static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Override
  public void close() {
    node.close();
  }
}
