package io.cassette.cql.language.system;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.TraceSession;
import io.cassette.cql.language.NodeInfo;
import java.net.InetAddress;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The trace store stays within its bounds: sessions and characters, oldest evicted first. */
class TraceStoreTest {
  private static TraceStore store() throws Exception {
    return new TraceStore(NodeInfo.singleNode("c", InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(),
        List.of(0L)));
  }

  private static TraceSession session(String query) {
    TraceSession s = new TraceSession(null, "QUERY", "Execute CQL3 query", true);
    s.parameter("query", query);
    s.event("Parsing " + query);
    s.finish();
    return s;
  }

  @Test
  void keepsAtMostMaxSessions() throws Exception {
    TraceStore store = store();
    UUID first = store.add(session("SELECT 1"));
    for (int i = 0; i < TraceStore.MAX_SESSIONS + 50; i++) {
      store.add(session("SELECT " + i));
    }
    assertThat(store.size()).isEqualTo(TraceStore.MAX_SESSIONS);
    assertThat(store.rows(SystemKeyspaces.builtIn().get("system_traces").tables().get("sessions"), first)).isEmpty();
  }

  @Test
  void hugeTracedStatementsEvictOlderSessionsByTheirSize() throws Exception {
    TraceStore store = store();
    String big = "x".repeat(1 << 20); // 1 Mi characters, twice in each session (query and activity)
    for (int i = 0; i < 10; i++) {
      store.add(session(big));
    }
    assertThat(store.size()).isEqualTo(1); // two would pass MAX_CHARS (4 Mi)
    UUID last = store.add(session("SELECT 1"));
    assertThat(store.rows(SystemKeyspaces.builtIn().get("system_traces").tables().get("events"), last)).hasSize(1);
  }
}
