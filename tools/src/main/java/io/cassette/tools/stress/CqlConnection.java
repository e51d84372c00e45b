package io.cassette.tools.stress;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Opens the Java driver session a run uses: the -node hosts on the -port native= port, the
 * local datacenter inferred from them (so no datacenter name is needed, against Cassette or
 * Cassandra alike), -mode's protocol version, credentials and connections per host.
 */
public final class CqlConnection {
  /** Request timeout: the 3.x driver's read timeout, which cassandra-stress ran with. */
  static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(12);
  /** How long to wait for the first connection. */
  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(10);

  private CqlConnection() {}

  /**
   * Connects.
   *
   * @param keyspace the keyspace to USE, or null for none
   */
  public static CqlSession open(StressSettings settings, String keyspace) {
    quietDriverLogging();
    StressSettings.ModeSettings mode = settings.mode();
    ProgrammaticDriverConfigLoaderBuilder config = DriverConfigLoader.programmaticBuilder()
        .withString(DefaultDriverOption.LOAD_BALANCING_POLICY_CLASS, "DcInferringLoadBalancingPolicy")
        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, REQUEST_TIMEOUT)
        .withDuration(DefaultDriverOption.CONNECTION_CONNECT_TIMEOUT, CONNECT_TIMEOUT)
        .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, CONNECT_TIMEOUT)
        .withDuration(DefaultDriverOption.CONTROL_CONNECTION_AGREEMENT_TIMEOUT, Duration.ofSeconds(30))
        .withInt(DefaultDriverOption.CONNECTION_POOL_LOCAL_SIZE, Math.max(1, mode.connectionsPerHost()))
        .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, Math.max(1, mode.maxPending()))
        .withString(DefaultDriverOption.REQUEST_CONSISTENCY, settings.command().consistency());
    if (mode.protocolVersion() != 0) {
      config.withString(DefaultDriverOption.PROTOCOL_VERSION, "V" + mode.protocolVersion());
    }
    CqlSessionBuilder builder = CqlSession.builder()
        .withConfigLoader(config.build())
        .withApplicationName("cassette-stress");
    for (String node : settings.nodes()) {
      builder.addContactPoint(address(node, settings.nativePort()));
    }
    if (mode.user() != null) {
      builder.withAuthCredentials(mode.user(), mode.password());
    }
    if (keyspace != null) {
      builder.withKeyspace("\"" + keyspace + "\"");
    }
    return builder.build();
  }

  /** "host" or "host:port" (an IPv6 address in brackets) to a socket address. */
  public static InetSocketAddress address(String node, int defaultPort) {
    String host = node;
    int port = defaultPort;
    int colon = node.lastIndexOf(':');
    if (colon > 0 && node.indexOf(':') == colon) {
      host = node.substring(0, colon);
      port = Integer.parseInt(node.substring(colon + 1));
    } else if (node.startsWith("[") && node.contains("]:")) {
      host = node.substring(1, node.indexOf(']'));
      port = Integer.parseInt(node.substring(node.indexOf("]:") + 2));
    }
    return new InetSocketAddress(host, port);
  }

  /** The driver logs every reconnection attempt at INFO/WARN; the interval lines matter more. */
  private static void quietDriverLogging() {
    Logger.getLogger("com.datastax.oss.driver").setLevel(Level.SEVERE);
    Logger.getLogger("com.datastax").setLevel(Level.SEVERE);
  }
}
