package io.cassette.cql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.schema.KeyspaceMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.metadata.token.TokenRange;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.data.UdtValue;
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
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java driver 4.19 with default settings against the real transport, the real language
 * and the real storage engine: metadata, tokens, DDL, prepared statements, paging, batches,
 * lightweight transactions, collections, UDTs and errors as a user sees them.
 */
class EndToEndDriverTest {
  @TempDir
  static Path dir;
  static Engine engine;
  static CqlServer server;
  static InetSocketAddress address;
  static CqlSession session;

  /** Lets the server start before the language knows the port it reports. */
  static final class Deferred implements QueryHandler {
    volatile QueryHandler target;

    public Result query(String q, QueryOptions o, ClientState s) {
      return target.query(q, o, s);
    }

    public Result.Prepared prepare(String q, String k, ClientState s) {
      return target.prepare(q, k, s);
    }

    public Result execute(byte[] id, byte[] m, QueryOptions o, ClientState s) {
      return target.execute(id, m, o, s);
    }

    public Result batch(int t, List<io.cassette.cql.BatchStatement> b, QueryOptions o, ClientState s) {
      return target.batch(t, b, o, s);
    }

    public void onSchemaChange(Consumer<Result.SchemaChange> l) {
      target.onSchemaChange(l);
    }
  }

  @BeforeAll
  static void start() throws Exception {
    engine = Engine.open(EngineOptions.defaults(dir));
    Deferred handler = new Deferred();
    CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null), NodeInfo.singleNode("Test Cluster",
        InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(-3074457345618258603L,
            3074457345618258602L, Long.MIN_VALUE + 1)));
    handler.target = language;
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), handler);
    address = server.start();
    session = CqlSession.builder().addContactPoint(address).withLocalDatacenter("datacenter1")
        .withConfigLoader(DriverConfigLoader.programmaticBuilder()
            .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10)).build())
        .build();
    session.execute("CREATE KEYSPACE IF NOT EXISTS e2e WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
  }

  @AfterAll
  static void stop() {
    if (session != null) {
      session.close();
    }
    server.close();
    engine.close();
  }

  @Test
  void metadataIsParsedByTheDriver() {
    session.execute("CREATE TABLE IF NOT EXISTS e2e.meta (k int, c text, v map<text, int>, s set<int> static,"
        + " PRIMARY KEY ((k), c)) WITH CLUSTERING ORDER BY (c DESC) AND comment = 'hello'");
    session.checkSchemaAgreement();
    session.refreshSchema();
    KeyspaceMetadata ks = session.getMetadata().getKeyspace("e2e").orElseThrow();
    TableMetadata t = ks.getTable("meta").orElseThrow();
    assertThat(t.getPartitionKey()).extracting(c -> c.getName().asInternal()).containsExactly("k");
    assertThat(t.getClusteringColumns().values()).extracting(Enum::name).containsExactly("DESC");
    assertThat(t.getColumn("v").orElseThrow().getType().asCql(true, true)).isEqualTo("map<text, int>");
    assertThat(t.getColumn("s").orElseThrow().isStatic()).isTrue();
    assertThat(t.getOptions().get(com.datastax.oss.driver.api.core.CqlIdentifier.fromCql("comment"))).isEqualTo("hello");
    assertThat(session.getMetadata().getTokenMap()).isPresent();
    Set<TokenRange> ranges = session.getMetadata().getTokenMap().orElseThrow().getTokenRanges();
    assertThat(ranges).hasSize(3);
  }

  @Test
  void preparedWritesPagingAndTokens() {
    session.execute("CREATE TABLE IF NOT EXISTS e2e.kv (k int, c int, v text, PRIMARY KEY (k, c))");
    PreparedStatement insert = session.prepare("INSERT INTO e2e.kv (k, c, v) VALUES (?, ?, ?)");
    for (int i = 0; i < 1000; i++) {
      session.execute(insert.bind(i % 10, i, "v" + i));
    }
    ResultSet rs = session.execute(SimpleStatement.newInstance("SELECT * FROM e2e.kv").setPageSize(100));
    int n = 0;
    for (Row r : rs) {
      n++;
    }
    assertThat(n).isEqualTo(1000);
    PreparedStatement select = session.prepare("SELECT c, v FROM e2e.kv WHERE k = ? AND c >= ? LIMIT 3");
    List<Row> rows = session.execute(select.bind(3, 500)).all();
    assertThat(rows).extracting(r -> r.getInt("c")).containsExactly(503, 513, 523);
    Row tok = session.execute("SELECT token(k) FROM e2e.kv WHERE k = 3 LIMIT 1").one();
    long serverToken = tok.getLong(0);
    var tokenMap = session.getMetadata().getTokenMap().orElseThrow();
    assertThat(tokenMap.newToken(com.datastax.oss.driver.api.core.type.codec.TypeCodecs.INT.encode(3,
        session.getContext().getProtocolVersion())).toString()).contains(Long.toString(serverToken));
  }

  @Test
  void batchesLwtCollectionsAndUdts() {
    session.execute("CREATE TYPE IF NOT EXISTS e2e.address (street text, zip int)");
    session.execute("CREATE TABLE IF NOT EXISTS e2e.users (id int PRIMARY KEY, name text, tags set<text>,"
        + " scores list<int>, attrs map<text, text>, home frozen<address>)");
    session.execute(BatchStatement.newInstance(BatchType.LOGGED,
        SimpleStatement.newInstance("INSERT INTO e2e.users (id, name) VALUES (1, 'ann')"),
        SimpleStatement.newInstance("INSERT INTO e2e.users (id, name) VALUES (2, 'bob')")));
    session.execute("UPDATE e2e.users SET tags = tags + {'b', 'a'}, scores = scores + [3, 1],"
        + " attrs['x'] = 'y', home = {street: 'Main', zip: 12345} WHERE id = 1");
    Row r = session.execute("SELECT * FROM e2e.users WHERE id = 1").one();
    assertThat(r.getSet("tags", String.class)).containsExactly("a", "b");
    assertThat(r.getList("scores", Integer.class)).containsExactly(3, 1);
    assertThat(r.getMap("attrs", String.class, String.class)).isEqualTo(Map.of("x", "y"));
    UdtValue home = r.getUdtValue("home");
    assertThat(home.getString("street")).isEqualTo("Main");
    assertThat(home.getInt("zip")).isEqualTo(12345);
    Row applied = session.execute("INSERT INTO e2e.users (id, name) VALUES (1, 'zed') IF NOT EXISTS").one();
    assertThat(applied.getBoolean("[applied]")).isFalse();
    assertThat(applied.getString("name")).isEqualTo("ann");
    Row cas = session.execute("UPDATE e2e.users SET name = 'anna' WHERE id = 1 IF name = 'ann'").one();
    assertThat(cas.getBoolean("[applied]")).isTrue();
    assertThat(session.execute("SELECT name FROM e2e.users WHERE id = 1").one().getString(0)).isEqualTo("anna");
  }

  @Test
  void pythonDriverReadsMetadataAndPages() throws Exception {
    DriverScript.assumePythonDriver();
    String output = DriverScript.runPython(EndToEndDriverTest.class, "python_language_check.py", dir, address, 60);
    assertThat(output).as(output).contains("OK");
  }

  @Test
  void errorsReachTheDriverWithCassandrasCodes() {
    assertThatThrownBy(() -> session.execute("SELEC * FROM e2e.kv")).isInstanceOf(SyntaxError.class)
        .hasMessageContaining("line 1:0 no viable alternative at input 'SELEC'");
    assertThatThrownBy(() -> session.execute("SELECT * FROM e2e.nope")).isInstanceOf(InvalidQueryException.class)
        .hasMessage("table nope does not exist");
  }
}
