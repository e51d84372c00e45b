package io.cassette.server.ring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.cassette.server.CassetteNode;
import io.cassette.server.ResourceSizing;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A ring node whose metadata_port is taken stops starting with the cause, instead of waiting
 * to REGISTER forever behind a Raft server that never started (seen in a loaded test run:
 * "metadata service is not running" every 10 s, and no cause in the log).
 */
@Timeout(120)
class MetadataPortTakenTest {
  @TempDir
  Path dir;

  @Test
  void aTakenMetadataPortFailsTheStartAndNamesThePort() throws Exception {
    try (ServerSocket taken = bindBelowEphemeral()) {
      Map<String, FlagValue> flags = new LinkedHashMap<>();
      flags.put("data_directory", new FlagValue(dir.toString(), "test"));
      flags.put("listen_address", new FlagValue("127.0.0.1", "test"));
      flags.put("seed_provider", new FlagValue("127.0.0.1", "test"));
      flags.put("native_transport_port", new FlagValue("0", "test"));
      flags.put("http_port", new FlagValue("0", "test"));
      flags.put("resp_port", new FlagValue("0", "test"));
      flags.put("storage_port", new FlagValue(Integer.toString(taken.getLocalPort() + 1), "test"));
      flags.put("metadata_port", new FlagValue(Integer.toString(taken.getLocalPort()), "test"));
      CassetteNode node = new CassetteNode(ConfigLoader.load(null, Map.of(), flags),
          ResourceSizing.forThisJvm(null, null));
      try {
        Throwable t = catchThrowable(node::start);
        assertThat(t).isInstanceOf(CassetteNode.StartException.class)
            .hasMessageContaining("Cannot start the metadata service on 127.0.0.1 (metadata_port "
                + taken.getLocalPort() + ")")
            .hasMessageContaining("in use");
      } finally {
        node.close();
      }
    }
  }

  private static ServerSocket bindBelowEphemeral() throws IOException {
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(10_000, 32_000);
      try {
        return new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"));
      } catch (IOException busy) {
        // another
      }
    }
    throw new IOException("no free port");
  }
}
