package io.cassette.tools.nodetool;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.cassette.server.CassetteNode;
import io.cassette.server.ResourceSizing;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import io.cassette.tools.nodetool.NodetoolMainTest.Run;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A whole node on free loopback ports for the tools' tests (CQL, admin HTTP and, when asked,
 * Redis), started with the given configuration on top of those ports; closed by the test.
 */
final class TestNode implements AutoCloseable {
  final int cql;
  final int http;
  /** The Redis port, or 0 when the Redis door is off. */
  final int resp;
  private final CassetteNode node;

  private TestNode(int cql, int http, int resp, CassetteNode node) {
    this.cql = cql;
    this.http = http;
    this.resp = resp;
    this.node = node;
  }

  /** Starts a node with data in {@code dir}, the Redis door off, and {@code settings} (config keys). */
  static TestNode start(Path dir, Map<String, String> settings) throws Exception {
    return start(dir, false, settings);
  }

  static TestNode start(Path dir, boolean redis, Map<String, String> settings) throws Exception {
    int cql = freePort();
    int http = freePort();
    int resp = redis ? freePort() : 0;
    Map<String, FlagValue> flags = new LinkedHashMap<>();
    flags.put("data_directory", new FlagValue(dir.toString(), "test"));
    flags.put("native_transport_port", new FlagValue(Integer.toString(cql), "test"));
    flags.put("http_port", new FlagValue(Integer.toString(http), "test"));
    flags.put("resp_port", new FlagValue(Integer.toString(resp), "test"));
    settings.forEach((k, v) -> flags.put(k, new FlagValue(v, "test")));
    CassetteNode node = new CassetteNode(ConfigLoader.load(null, Map.of(), flags), ResourceSizing.forThisJvm(null, null));
    try {
      node.start();
    } catch (Exception | Error e) {
      node.close();
      throw e;
    }
    return new TestNode(cql, http, resp, node);
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** nodetool against this node's admin port, output captured. */
  Run nodetool(String... args) {
    String[] full = new String[args.length + 2];
    full[0] = "-p";
    full[1] = Integer.toString(http);
    System.arraycopy(args, 0, full, 2, args.length);
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = NodetoolMain.run(full, new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** A Java driver session without credentials. */
  CqlSession session() {
    return builder().build();
  }

  CqlSession session(String user, String password) {
    return builder().withAuthCredentials(user, password).build();
  }

  // The Java clock: the tools exclude JNR, and the driver would log why it cannot load it.
  private CqlSessionBuilder builder() {
    return CqlSession.builder().addContactPoint(new InetSocketAddress("127.0.0.1", cql))
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withBoolean(DefaultDriverOption.TIMESTAMP_GENERATOR_FORCE_JAVA_CLOCK, true)
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20)).build())
        .withLocalDatacenter("datacenter1");
  }

  @Override
  public void close() {
    node.close();
  }
}
