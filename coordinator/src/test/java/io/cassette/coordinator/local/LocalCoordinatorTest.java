package io.cassette.coordinator.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.coordinator.BatchType;
import io.cassette.coordinator.ClientContext;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.metadata.MetadataChange;
import io.cassette.storage.Cell;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import io.cassette.storage.KeyRange;
import io.cassette.storage.Mutation;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.Row;
import io.cassette.storage.Table;
import io.cassette.storage.TableSpec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The single-node coordinator on a real engine in a temporary directory. */
class LocalCoordinatorTest {
  @TempDir
  Path dir;
  Engine engine;
  LocalCoordinator coordinator;

  static final Map<String, String> RF1 = Map.of("class", "SimpleStrategy", "replication_factor", "1");
  static final Map<String, String> RF3 = Map.of("class", "SimpleStrategy", "replication_factor", "3");
  static final Map<String, String> NTS3 = Map.of("class", "NetworkTopologyStrategy", "datacenter1", "3");

  @BeforeEach
  void open() {
    engine = Engine.open(EngineOptions.defaults(dir));
    coordinator = LocalCoordinator.open(engine, null);
    keyspace("rf1", RF1);
    keyspace("rf3", RF3);
    keyspace("nts3", NTS3);
  }

  @AfterEach
  void close() {
    engine.close();
  }

  private void keyspace(String name, Map<String, String> replication) {
    coordinator.metadata().commit(MetadataChange.put(new KeyspaceDefinition(name, replication,
        List.of(TableSpec.withDefaults(name, "t", UUID.nameUUIDFromBytes((name + ".t").getBytes()))), null)));
  }

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static PartitionUpdate put(String ks, String key, String value, long ts) {
    return PartitionUpdate.builder(ks, "t", b(key))
        .row(Row.of(new byte[0], List.of(Cell.live("v", b(value), ts)))).build();
  }

  private static String value(PartitionView p) {
    Row r = p.rows().isEmpty() ? p.staticRow() : p.rows().get(0);
    return r == null ? null : new String(r.cell("v").value(), StandardCharsets.UTF_8);
  }

  private static Request at(ConsistencyLevel cl) {
    return Request.of(cl);
  }

  @Test
  void writesReadsAndScansThroughTheEngine() {
    coordinator.write(Mutation.of(put("rf1", "a", "1", 1)), at(ConsistencyLevel.ONE));
    coordinator.batch(List.of(put("rf1", "b", "2", 1), put("rf1", "c", "3", 1)), BatchType.LOGGED,
        at(ConsistencyLevel.QUORUM));
    assertThat(value(coordinator.read("rf1", "t", b("a"), ReadQuery.all(0), at(ConsistencyLevel.ALL)))).isEqualTo("1");
    List<String> seen = new ArrayList<>();
    try (Table.CloseableIterator<PartitionView> it = coordinator.scan("rf1", "t", KeyRange.ALL, ReadQuery.all(0),
        at(ConsistencyLevel.LOCAL_QUORUM))) {
      it.forEachRemaining(p -> seen.add(value(p)));
    }
    assertThat(seen).containsExactlyInAnyOrder("1", "2", "3");
    // The same data is in storage: the coordinator is a local call.
    assertThat(value(engine.table("rf1", "t").orElseThrow().read(b("b"), ReadQuery.all(0)))).isEqualTo("2");
    coordinator.truncate("rf1", "t", at(ConsistencyLevel.ALL));
    assertThat(coordinator.read("rf1", "t", b("a"), ReadQuery.all(0), at(ConsistencyLevel.ONE)).rows()).isEmpty();
  }

  @Test
  void replicationFactorThreeOnOneNodeIsUnavailableAboveOne() {
    for (String ks : List.of("rf3", "nts3")) {
      for (ConsistencyLevel ok : List.of(ConsistencyLevel.ONE, ConsistencyLevel.LOCAL_ONE, ConsistencyLevel.ANY)) {
        coordinator.write(Mutation.of(put(ks, "k", "v", 1)), at(ok));
      }
      assertUnavailable(() -> coordinator.write(Mutation.of(put(ks, "k", "v", 2)), at(ConsistencyLevel.QUORUM)),
          ConsistencyLevel.QUORUM, 2, 1, "Cannot achieve consistency level QUORUM");
      assertUnavailable(() -> coordinator.read(ks, "t", b("k"), ReadQuery.all(0), at(ConsistencyLevel.ALL)),
          ConsistencyLevel.ALL, 3, 1, "Cannot achieve consistency level ALL");
      assertUnavailable(() -> coordinator.read(ks, "t", b("k"), ReadQuery.all(0), at(ConsistencyLevel.LOCAL_QUORUM)),
          ConsistencyLevel.LOCAL_QUORUM, 2, 1, "Cannot achieve consistency level LOCAL_QUORUM");
      assertUnavailable(() -> coordinator.scan(ks, "t", KeyRange.ALL, ReadQuery.all(0), at(ConsistencyLevel.TWO)),
          ConsistencyLevel.TWO, 2, 1, "Cannot achieve consistency level TWO");
      assertUnavailable(() -> coordinator.batch(List.of(put(ks, "k", "v", 3)), BatchType.UNLOGGED,
          at(ConsistencyLevel.THREE)), ConsistencyLevel.THREE, 3, 1, "Cannot achieve consistency level THREE");
      // A serial read is a Paxos round: Cassandra names its quorum.
      assertUnavailable(() -> coordinator.read(ks, "t", b("k"), ReadQuery.all(0), at(ConsistencyLevel.SERIAL)),
          ConsistencyLevel.QUORUM, 2, 1, "Cannot achieve consistency level QUORUM");
      assertUnavailable(() -> coordinator.scan(ks, "t", KeyRange.ALL, ReadQuery.all(0), at(ConsistencyLevel.SERIAL)),
          ConsistencyLevel.SERIAL, 2, 1, "Cannot achieve consistency level SERIAL");
      Request lwt = new Request(ConsistencyLevel.ONE, ConsistencyLevel.LOCAL_SERIAL, null, null);
      assertUnavailable(() -> coordinator.compareAndSet(ks, "t", b("k"), (r, w) -> true, lwt),
          ConsistencyLevel.LOCAL_QUORUM, 2, 1, "Cannot achieve consistency level LOCAL_QUORUM");
    }
    assertUnavailable(() -> coordinator.write(Mutation.of(put("rf3", "k", "v", 4)), at(ConsistencyLevel.EACH_QUORUM)),
        ConsistencyLevel.EACH_QUORUM, 2, 1, "Cannot achieve consistency level EACH_QUORUM");
    // Cassandra 5.0 names the data centre and reports alive = 0 for NetworkTopologyStrategy.
    assertUnavailable(() -> coordinator.write(Mutation.of(put("nts3", "k", "v", 4)), at(ConsistencyLevel.EACH_QUORUM)),
        ConsistencyLevel.EACH_QUORUM, 2, 0, "Cannot achieve consistency level EACH_QUORUM in DC datacenter1");
    // Nothing was written by a refused request.
    assertThat(value(coordinator.read("rf3", "t", b("k"), ReadQuery.all(0), at(ConsistencyLevel.ONE)))).isEqualTo("v");
  }

  @Test
  void levelsInvalidForTheOperationAreRefusedWithCassandrasMessages() {
    assertThatThrownBy(() -> coordinator.read("rf1", "t", b("k"), ReadQuery.all(0), at(ConsistencyLevel.ANY)))
        .isInstanceOf(CoordinatorException.Invalid.class).hasMessage("ANY ConsistencyLevel is only supported for writes");
    assertThatThrownBy(() -> coordinator.write(Mutation.of(put("rf1", "k", "v", 1)), at(ConsistencyLevel.SERIAL)))
        .isInstanceOf(CoordinatorException.Invalid.class).hasMessage("You must use conditional updates for serializable writes");
    assertThatThrownBy(() -> coordinator.readModifyWrite("rf1", "t", b("k"), true, (r, w) -> null, at(ConsistencyLevel.ANY)))
        .isInstanceOf(CoordinatorException.Invalid.class).hasMessage("Consistency level ANY is not yet supported for counter table t");
    assertThatThrownBy(() -> coordinator.readModifyWrite("rf1", "t", b("k"), true, (r, w) -> null, at(ConsistencyLevel.SERIAL)))
        .isInstanceOf(CoordinatorException.Invalid.class).hasMessage("Counter operations are inherently non-serializable");
    assertThatThrownBy(() -> coordinator.compareAndSet("rf1", "t", b("k"), (r, w) -> null, at(ConsistencyLevel.SERIAL)))
        .isInstanceOf(CoordinatorException.Invalid.class).hasMessageStartingWith("SERIAL is not supported as conditional update commit consistency.");
    assertThatThrownBy(() -> coordinator.read("rf1", "nope", b("k"), ReadQuery.all(0), at(ConsistencyLevel.ONE)))
        .isInstanceOf(CoordinatorException.UnknownTable.class);
    // RF 1: every level is met by the one node.
    for (ConsistencyLevel cl : List.of(ConsistencyLevel.QUORUM, ConsistencyLevel.ALL, ConsistencyLevel.LOCAL_QUORUM,
        ConsistencyLevel.EACH_QUORUM)) {
      coordinator.write(Mutation.of(put("rf1", "k", cl.name(), 10 + cl.ordinal())), at(cl));
      assertThat(coordinator.read("rf1", "t", b("k"), ReadQuery.all(0), at(cl)).rows()).isNotNull();
    }
  }

  @Test
  void compareAndSetIsAtomicPerPartition() throws Exception {
    int threads = 4;
    int perThread = 200;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    Request request = new Request(ConsistencyLevel.ONE, ConsistencyLevel.SERIAL, Duration.ofSeconds(10),
        ClientContext.INTERNAL);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < perThread; i++) {
            coordinator.compareAndSet("rf1", "t", b("counter"), (current, writes) -> {
              PartitionView p = current.read(ReadQuery.all(0));
              long n = p.staticRow() == null ? 0 : ByteBuffer.wrap(p.staticRow().cell("v").value()).getLong();
              writes.add(PartitionUpdate.builder("rf1", "t", b("counter")).row(Row.of(new byte[0],
                  List.of(Cell.live("v", ByteBuffer.allocate(8).putLong(n + 1).array(), n + 1)))).build());
              return n + 1;
            }, request);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
    PartitionView p = coordinator.read("rf1", "t", b("counter"), ReadQuery.all(0), Request.INTERNAL);
    assertThat(ByteBuffer.wrap(p.staticRow().cell("v").value()).getLong()).isEqualTo((long) threads * perThread);
  }

  @Test
  void aConditionThatFailsWritesNothing() {
    String answer = coordinator.compareAndSet("rf1", "t", b("x"), (current, writes) ->
        current.read(ReadQuery.all(0)).staticRow() == null ? "absent" : "present", Request.INTERNAL);
    assertThat(answer).isEqualTo("absent");
    assertThat(coordinator.read("rf1", "t", b("x"), ReadQuery.all(0), Request.INTERNAL).staticRow()).isNull();
  }

  private static void assertUnavailable(Runnable call, ConsistencyLevel cl, int required, int alive, String message) {
    assertThatThrownBy(call::run).isInstanceOfSatisfying(CoordinatorException.Unavailable.class, e -> {
      assertThat(e.consistency).isEqualTo(cl);
      assertThat(e.required).isEqualTo(required);
      assertThat(e.alive).isEqualTo(alive);
      assertThat(e.getMessage()).isEqualTo(message);
    });
  }
}
