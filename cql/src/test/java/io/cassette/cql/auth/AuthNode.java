package io.cassette.cql.auth;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;

/**
 * One single-node CQL door with the given auth settings over a real engine, for the driver
 * tests of roles and permissions; {@link #session} logs in as a given role.
 */
final class AuthNode implements AutoCloseable {
  final Engine engine;
  final CqlLanguage language;
  final CqlServer server;
  final InetSocketAddress address;

  private AuthNode(Engine engine, CqlLanguage language, CqlServer server, InetSocketAddress address) {
    this.engine = engine;
    this.language = language;
    this.server = server;
    this.address = address;
  }

  static AuthNode start(Path dir, AuthSettings settings) throws Exception {
    Engine engine = Engine.open(EngineOptions.defaults(dir));
    try {
      CqlLanguage language = new CqlLanguage(LocalCoordinator.open(engine, null),
          NodeInfo.singleNode("Test Cluster", InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(),
              List.of(0L)));
      AccessControl access = language.configureAuth(settings);
      CqlServer server = new CqlServer(
          CqlServerOptions.defaults("127.0.0.1", 0).withAuthenticator(access.authenticator()), language);
      return new AuthNode(engine, language, server, server.start());
    } catch (Exception | Error e) {
      engine.close();
      throw e;
    }
  }

  /** A driver session logged in as {@code user}; generous timeouts for a loaded CI machine. */
  CqlSession session(String user, String password) {
    return CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
        .withAuthCredentials(user, password)
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(20))
            .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(20)).build())
        .build();
  }

  @Override
  public void close() {
    server.close();
    engine.close();
  }
}
