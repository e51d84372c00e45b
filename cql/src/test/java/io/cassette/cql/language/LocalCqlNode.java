package io.cassette.cql.language;

import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

/**
 * One node for driver tests: a storage engine in {@code dir}, the CQL language on a local
 * coordinator, its native-protocol server on an ephemeral port of 127.0.0.1. Closing it stops
 * the server, then the engine.
 */
final class LocalCqlNode implements AutoCloseable {
  final Engine engine;
  final CqlServer server;
  final InetSocketAddress address;

  LocalCqlNode(Path dir) throws Exception {
    engine = Engine.open(EngineOptions.defaults(dir));
    try {
      CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
          NodeInfo.singleNode("test", InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(0L)),
          new io.cassette.cql.language.statements.TombstoneThresholds(1000, 100_000));
      server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
      address = server.start();
    } catch (Exception | Error e) {
      engine.close();
      throw e;
    }
  }

  @Override
  public void close() throws Exception {
    try {
      server.close();
    } finally {
      engine.close();
    }
  }
}
