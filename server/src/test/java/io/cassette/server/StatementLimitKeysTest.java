package io.cassette.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cql.ClientState;
import io.cassette.cql.Consistency;
import io.cassette.cql.CqlException;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.ReplicaException;
import io.cassette.cql.Result;
import io.cassette.cql.language.CqlLanguage;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: the token, element, nesting, multibulk and read-size bounds have config keys
 * (Cassandra's and Redis's names where they exist) and a node started with them holds to them.
 */
class StatementLimitKeysTest {
  @TempDir Path dir;

  static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  @Test
  void aNodeHoldsToTheConfiguredBounds() throws Exception {
    int resp = freePort();
    Map<String, FlagValue> flags = new HashMap<>();
    flags.put("data_directory", new FlagValue(dir.toString(), "test"));
    flags.put("native_transport_port", new FlagValue(Integer.toString(freePort()), "test"));
    flags.put("resp_port", new FlagValue(Integer.toString(resp), "test"));
    flags.put("http_port", new FlagValue("0", "test"));
    flags.put("coordinator_read_size_fail_threshold", new FlagValue("4KiB", "test"));
    flags.put("items_per_collection_fail_threshold", new FlagValue("10", "test"));
    flags.put("cql_max_statement_tokens", new FlagValue("200", "test"));
    flags.put("cql_max_nesting_depth", new FlagValue("5", "test"));
    flags.put("proto_max_multibulk_len", new FlagValue("16", "test"));
    Config config = ConfigLoader.load(null, Map.of(), flags);
    assertThat(config.warnings()).isEmpty();
    try (CassetteNode node = new CassetteNode(config, ResourceSizing.forThisJvm(null, null))) {
      node.start();
      CqlLanguage cql = node.cqlLanguage();
      ClientState state = new ClientState(new InetSocketAddress("127.0.0.1", 40000));
      QueryOptions unpaged = QueryOptions.defaults(5);
      cql.query("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}",
          unpaged, state);
      cql.query("CREATE TABLE ks.t (k int, c int, v text, l list<int>, PRIMARY KEY (k, c))", unpaged, state);
      for (int c = 0; c < 60; c++) {
        cql.query("INSERT INTO ks.t (k, c, v) VALUES (1, " + c + ", 'value " + c + "')", unpaged, state);
      }
      assertThatThrownBy(() -> cql.query("SELECT * FROM ks.t", unpaged, state))
          .isInstanceOf(ReplicaException.ReadFailure.class)
          .hasMessageContaining("exceeded the size failure threshold of 4,096 bytes");
      QueryOptions paged = new QueryOptions(Consistency.ONE, List.of(), null, false, 5000, null,
          Consistency.SERIAL, Long.MIN_VALUE, null, Integer.MIN_VALUE, 5);
      Result.Rows page = (Result.Rows) cql.query("SELECT * FROM ks.t", paged, state);
      assertThat(page.rows().size()).as("a page ends at half the threshold").isBetween(1, 59);
      assertThat(page.pagingState()).isNotNull();
      assertThatThrownBy(() -> cql.query("UPDATE ks.t SET l = [1,2,3,4,5,6,7,8,9,10,11] WHERE k = 1 AND c = 1",
          unpaged, state)).isInstanceOf(CqlException.class).hasMessageContaining("Collection too large: 11 elements");
      cql.query("UPDATE ks.t SET l = [1,2,3,4,5,6,7,8,9,10] WHERE k = 1 AND c = 1", unpaged, state);
      assertThatThrownBy(() -> cql.query("SELECT k FROM ks.t WHERE k IN (" + "1,".repeat(150) + "1)",
          unpaged, state)).isInstanceOf(CqlException.class).hasMessageContaining("Statement too large");
      assertThatThrownBy(() -> cql.query("SELECT abs(abs(abs(abs(abs(abs(k)))))) FROM ks.t WHERE k = 1",
          unpaged, state)).isInstanceOf(CqlException.class).hasMessageContaining("nested too deeply");
      cql.query("SELECT abs(abs(abs(abs(k)))) FROM ks.t WHERE k = 1 AND c = 1", unpaged, state);

      try (Socket s = new Socket("127.0.0.1", resp)) {
        s.setSoTimeout(10_000);
        s.getOutputStream().write("*17\r\n".getBytes(StandardCharsets.US_ASCII));
        assertThat(line(s.getInputStream())).isEqualTo("-ERR Protocol error: invalid multibulk length");
      }
      try (Socket s = new Socket("127.0.0.1", resp)) {
        s.setSoTimeout(10_000);
        s.getOutputStream().write(("*16\r\n$4\r\nECHO\r\n" + "$1\r\nx\r\n".repeat(15)).getBytes(StandardCharsets.US_ASCII));
        assertThat(line(s.getInputStream())).startsWith("-ERR wrong number of arguments");
      }
    }
  }

  private static String line(InputStream in) throws Exception {
    StringBuilder sb = new StringBuilder();
    for (int b; (b = in.read()) != -1 && b != '\r'; ) {
      sb.append((char) b);
    }
    return sb.toString();
  }
}
