package io.cassette.tools.stress;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The servers' garbage collection per interval, as cassandra-stress collects it: over JMX, from
 * Cassandra's GCInspector MXBean ({@code getAndResetStats}: interval, max, total, sum of squares,
 * bytes reclaimed, count). When no node answers on the JMX port (Cassette has no JMX), the
 * columns stay zero and one line says so, as cassandra-stress prints.
 *
 * <p>Thread-safe: called from the reporting thread only, but the connections are shared.
 */
public final class JmxGcCollector implements Supplier<GcStats>, AutoCloseable {
  static final String GC_INSPECTOR = "org.apache.cassandra.service:type=GCInspector";
  /** getAndResetStats() of an MXBean is exposed as the attribute "AndResetStats" (reading resets). */
  static final String GET_AND_RESET = "AndResetStats";
  /** How long to wait for a JMX connection: a filtered port must not stall the run. */
  static final long CONNECT_TIMEOUT_MILLIS = 3000;

  private final List<JMXConnector> connectors = new ArrayList<>();
  private final List<MBeanServerConnection> servers = new ArrayList<>();

  private JmxGcCollector() {}

  /**
   * Connects to every node's JMX port; returns null (after printing cassandra-stress's
   * message to {@code errors}) when any node cannot be reached.
   */
  public static JmxGcCollector connect(List<String> nodes, int jmxPort, java.io.PrintStream errors) {
    JmxGcCollector c = new JmxGcCollector();
    try {
      for (String node : nodes) {
        String host = CqlConnection.address(node, jmxPort).getHostString();
        JMXServiceURL url = new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":" + jmxPort + "/jmxrmi");
        JMXConnector connector = CompletableFuture.supplyAsync(() -> {
          try {
            return JMXConnectorFactory.connect(url);
          } catch (java.io.IOException e) {
            throw new java.util.concurrent.CompletionException(e);
          }
        }).get(CONNECT_TIMEOUT_MILLIS, TimeUnit.MILLISECONDS);
        c.connectors.add(connector);
        MBeanServerConnection server = connector.getMBeanServerConnection();
        server.getAttribute(new ObjectName(GC_INSPECTOR), GET_AND_RESET);
        c.servers.add(server);
      }
      return c;
    } catch (Exception | LinkageError e) {
      c.close();
      errors.println("Failed to connect over JMX; not collecting these stats");
      return null;
    }
  }

  /** The collections since the previous call, summed over the nodes; zeros if a node fails. */
  @Override
  public GcStats get() {
    double count = 0;
    double bytes = 0;
    double max = 0;
    double sum = 0;
    double sumSquares = 0;
    try {
      for (MBeanServerConnection server : servers) {
        double[] s = (double[]) server.getAttribute(new ObjectName(GC_INSPECTOR), GET_AND_RESET);
        max += s[1];
        sum += s[2];
        sumSquares += s[3];
        bytes += s[4];
        count += s[5];
      }
    } catch (Exception e) {
      return GcStats.NONE;
    }
    return GcStats.of(count, bytes, max, sum, sumSquares);
  }

  @Override
  public void close() {
    for (JMXConnector connector : connectors) {
      try {
        connector.close();
      } catch (Exception ignored) {
        // the run is over; a connection that will not close is the server's business
      }
    }
    connectors.clear();
  }
}
