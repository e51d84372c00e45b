package io.cassette.embedded;

import io.cassette.server.CassetteNode;
import io.cassette.server.ResourceSizing;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import io.cassette.storage.io.FileTree;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A Cassette node inside the caller's JVM, for tests: storage on a temporary directory, CQL
 * (and optionally Redis and the admin HTTP port) on free loopback ports. Start it, point a
 * driver at {@link #cqlAddress()} with data centre {@link #localDatacenter()}, close it.
 *
 * <pre>{@code
 * try (Cassette cassette = Cassette.embedded().start();
 *      CqlSession session = CqlSession.builder()
 *          .addContactPoint(cassette.cqlAddress())
 *          .withLocalDatacenter(cassette.localDatacenter()).build()) {
 *   session.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
 * }
 * }</pre>
 *
 * <p>Several nodes may run in one JVM: each has its own directory and ports. Thread-safe to
 * read once started; {@link #close()} stops the node and deletes a temporary directory.
 */
public final class Cassette implements AutoCloseable {
  /** The data centre every single node reports (Cassandra's SimpleSnitch default). */
  public static final String DATACENTER = "datacenter1";
  /** Attempts to find a free port that stays free until the node binds it. */
  static final int BIND_ATTEMPTS = 5;

  private final CassetteNode node;
  private final Path dataDirectory;
  private final boolean temporary;
  private final InetSocketAddress cql;
  private final InetSocketAddress resp;
  private final InetSocketAddress http;

  private Cassette(CassetteNode node, Path dataDirectory, boolean temporary, InetSocketAddress cql,
                   InetSocketAddress resp, InetSocketAddress http) {
    this.node = node;
    this.dataDirectory = dataDirectory;
    this.temporary = temporary;
    this.cql = cql;
    this.resp = resp;
    this.http = http;
  }

  /** A builder with test defaults: temporary directory, CQL only, 127.0.0.1, free port. */
  public static Builder embedded() {
    return new Builder();
  }

  /** Where drivers connect (CQL native protocol). */
  public InetSocketAddress cqlAddress() {
    return cql;
  }

  /** The data centre name a driver's load-balancing policy needs. */
  public String localDatacenter() {
    return DATACENTER;
  }

  /** The Redis protocol address, when started {@link Builder#withRedis()}. */
  public Optional<InetSocketAddress> redisAddress() {
    return Optional.ofNullable(resp);
  }

  /** The admin HTTP address (health, metrics, nodetool), when started {@link Builder#withAdminHttp()}. */
  public Optional<InetSocketAddress> adminHttpAddress() {
    return Optional.ofNullable(http);
  }

  public Path dataDirectory() {
    return dataDirectory;
  }

  /** Stops the node (flushing storage); a temporary data directory is then deleted. */
  @Override
  public void close() {
    node.close();
    if (temporary) {
      deleteTree(dataDirectory);
    }
  }

  /** Options for an embedded node; not thread-safe. */
  public static final class Builder {
    private Path dataDirectory;
    private int cqlPort;
    private boolean redis;
    private int redisPort;
    private boolean adminHttp;
    private int adminHttpPort;
    private final Map<String, String> settings = new LinkedHashMap<>();

    private Builder() {}

    /** Keep data in {@code directory} (kept on close) instead of a temporary directory. */
    public Builder dataDirectory(Path directory) {
      this.dataDirectory = directory;
      return this;
    }

    /** A fixed CQL port; by default a free one is chosen. */
    public Builder cqlPort(int port) {
      this.cqlPort = requirePort(port);
      return this;
    }

    /** Also serve the Redis protocol, on a free port. */
    public Builder withRedis() {
      this.redis = true;
      return this;
    }

    /** Also serve the Redis protocol, on {@code port}. */
    public Builder redisPort(int port) {
      this.redis = true;
      this.redisPort = requirePort(port);
      return this;
    }

    /** Also serve the admin HTTP port (health, metrics, nodetool), on a free port. */
    public Builder withAdminHttp() {
      this.adminHttp = true;
      return this;
    }

    public Builder clusterName(String name) {
      return set("cluster_name", name);
    }

    /** Any {@code cassette.yaml} key, e.g. {@code set("commitlog_sync", "batch")}. */
    public Builder set(String key, String value) {
      settings.put(key, value);
      return this;
    }

    /**
     * Starts the node and returns once it accepts clients.
     *
     * @throws IllegalStateException when the node cannot start (the message says why)
     */
    public Cassette start() {
      boolean temporary = dataDirectory == null;
      Path dir;
      try {
        dir = temporary ? Files.createTempDirectory("cassette-embedded-") : Files.createDirectories(dataDirectory);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot create the data directory: " + e.getMessage(), e);
      }
      RuntimeException last = null;
      for (int attempt = 0; attempt < BIND_ATTEMPTS; attempt++) {
        int cql = cqlPort != 0 ? cqlPort : freePort();
        int resp = !redis ? 0 : redisPort != 0 ? redisPort : freePort();
        int http = adminHttp ? (adminHttpPort != 0 ? adminHttpPort : freePort()) : 0;
        Map<String, FlagValue> flags = new LinkedHashMap<>();
        settings.forEach((k, v) -> flags.put(k, new FlagValue(v, "Cassette.embedded().set")));
        flags.put("data_directory", new FlagValue(dir.toString(), "Cassette.embedded()"));
        flags.put("listen_address", new FlagValue("127.0.0.1", "Cassette.embedded()"));
        flags.put("native_transport_port", new FlagValue(Integer.toString(cql), "Cassette.embedded()"));
        flags.put("resp_port", new FlagValue(Integer.toString(resp), "Cassette.embedded()"));
        flags.put("http_port", new FlagValue(Integer.toString(http), "Cassette.embedded()"));
        // The environment is not read: a CASSETTE_* variable meant for a real node must not
        // change a test's node.
        Config config = ConfigLoader.load(null, Map.of(), flags);
        CassetteNode node = new CassetteNode(config, ResourceSizing.forThisJvm(null, null));
        try {
          node.start();
          return new Cassette(node, dir, temporary, new InetSocketAddress("127.0.0.1", cql),
              resp == 0 ? null : new InetSocketAddress("127.0.0.1", resp),
              http == 0 ? null : new InetSocketAddress("127.0.0.1", http));
        } catch (CassetteNode.StartException e) { // a chosen port was taken meanwhile
          node.close();
          last = e;
          if (cqlPort != 0 && (!redis || redisPort != 0) && !adminHttp) {
            break; // fixed ports: retrying changes nothing
          }
        } catch (InterruptedException e) {
          node.close();
          Thread.currentThread().interrupt();
          throw new IllegalStateException("Interrupted while starting an embedded Cassette node", e);
        } catch (Exception e) {
          node.close();
          if (temporary) {
            deleteTree(dir);
          }
          throw new IllegalStateException("Embedded Cassette node did not start: " + e.getMessage(), e);
        }
      }
      if (temporary) {
        deleteTree(dir);
      }
      throw new IllegalStateException("Embedded Cassette node did not start: " + last.getMessage(), last);
    }

    private static int requirePort(int port) {
      if (port < 1 || port > 65535) {
        throw new IllegalArgumentException("port must be 1-65535, not " + port);
      }
      return port;
    }
  }

  private static int freePort() {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("No free port: " + e.getMessage(), e);
    }
  }

  private static void deleteTree(Path dir) {
    try {
      FileTree.delete(dir);
    } catch (IOException e) {
      // a leftover temporary directory is not worth failing a test run for
    }
  }
}
