package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.driver.core.Cluster;
import com.datastax.driver.core.ConsistencyLevel;
import com.datastax.driver.core.PreparedStatement;
import com.datastax.driver.core.Row;
import com.datastax.driver.core.Session;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java driver 3.11 (cassandra-stress's driver) with default configuration against our
 * transport and the real language: connect, metadata, and the statements cassandra-stress
 * sends on start, verbatim, then its prepared writes and reads at LOCAL_ONE.
 */
class JavaDriver3Test {
  @TempDir
  static Path dir;
  static Engine engine;
  static CqlServer server;
  static InetSocketAddress address;

  @BeforeAll
  static void start() throws Exception {
    engine = Engine.open(EngineOptions.defaults(dir));
    CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null), NodeInfo.singleNode("Test Cluster",
        InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(0L)));
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
    address = server.start();
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
    if (engine != null) {
      engine.close();
    }
  }

  @Test
  void cassandraStressStatementsWork() {
    try (Cluster cluster = Cluster.builder().addContactPointsWithPorts(address).build();
         Session session = cluster.connect()) {
      assertThat(cluster.getConfiguration().getProtocolOptions().getProtocolVersion())
          .isEqualTo(com.datastax.driver.core.ProtocolVersion.V5);
      assertThat(cluster.getMetadata().getAllHosts()).hasSize(1);
      assertThat(cluster.getMetadata().getAllHosts().iterator().next().getCassandraVersion().toString())
          .startsWith("5.0.4");
      assertThat(cluster.getMetadata().getKeyspace("system")).isNotNull();
      session.execute("CREATE KEYSPACE IF NOT EXISTS \"keyspace1\" WITH replication = {'class': "
          + "'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor' : '1'} AND durable_writes = true;");
      session.execute("USE \"keyspace1\"");
      session.execute("CREATE TABLE IF NOT EXISTS standard1 (key blob PRIMARY KEY \n, \"C0\" blob\n, \"C1\" blob\n, "
          + "\"C2\" blob\n, \"C3\" blob\n, \"C4\" blob) WITH compression = {};");
      session.execute("CREATE TABLE IF NOT EXISTS counter1 (key blob PRIMARY KEY,\n, \"C0\" counter\n, "
          + "\"C1\" counter\n, \"C2\" counter\n, \"C3\" counter\n, \"C4\" counter) WITH compression = {};");
      PreparedStatement update = session.prepare(
          "UPDATE \"standard1\" SET \"C0\" = ?,\"C1\" = ?,\"C2\" = ?,\"C3\" = ?,\"C4\" = ? WHERE KEY=?");
      update.setConsistencyLevel(ConsistencyLevel.LOCAL_ONE);
      PreparedStatement select = session.prepare("SELECT \"C0\",\"C1\",\"C2\",\"C3\",\"C4\" FROM \"standard1\" WHERE KEY=?");
      select.setConsistencyLevel(ConsistencyLevel.LOCAL_ONE);
      for (int i = 0; i < 200; i++) {
        ByteBuffer key = ByteBuffer.wrap(("key" + i).getBytes());
        session.execute(update.bind(bytes(i, 0), bytes(i, 1), bytes(i, 2), bytes(i, 3), bytes(i, 4), key));
      }
      for (int i = 0; i < 200; i++) {
        Row row = session.execute(select.bind(ByteBuffer.wrap(("key" + i).getBytes()))).one();
        assertThat(row).isNotNull();
        assertThat(row.getBytes("C3")).isEqualTo(bytes(i, 3));
      }
      assertThat(cluster.getMetadata().getKeyspace("keyspace1").getTable("standard1").getColumns()).hasSize(6);
    }
  }

  private static ByteBuffer bytes(int i, int column) {
    return ByteBuffer.wrap(("value-" + i + "-" + column).repeat(3).getBytes());
  }
}
