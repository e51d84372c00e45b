package io.cassette.coordinator.ring.membership;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.MessagingService;
import io.cassette.cluster.net.RequestFailureReason;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.ConsistencyLevel;
import io.cassette.coordinator.CoordinatorException;
import io.cassette.coordinator.Request;
import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.Range;
import io.cassette.coordinator.ring.RingCoordinator;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.coordinator.ring.paxos.PaxosStore;
import io.cassette.coordinator.ring.repair.RepairException;
import io.cassette.storage.Murmur3Token;
import io.cassette.storage.ReadQuery;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Paxos repair for a ring change (Cassandra 5.0's topology-change paxos repair, CASSANDRA-17164):
 * before a new replica serves a range, every Paxos round in progress on the range's current
 * replicas is completed, so a proposal accepted by a quorum of the old replicas (and perhaps
 * committed nowhere) cannot be missed by a quorum of the new ones.
 *
 * <p>How: each live current replica of the moving ranges is asked ({@link Verb#PAXOS2_CLEANUP_REQ})
 * for its partitions there with an accepted, uncommitted proposal; a majority of each range's
 * replicas must answer (every accepted-by-a-quorum value is then seen). For each partition
 * found, a serial read runs through the ring coordinator while the change is STARTED: its round
 * includes the pending replicas (natural + pending quorum), completes the round in progress
 * with a new ballot and commits it to every replica, the new one included. Rounds accepted after
 * the START need nothing: their quorum already counted the pending replica.
 *
 * <p>Also {@code nodetool repair --paxos-only}: the same for the ranges this node replicates.
 * Thread-safe; runs on the caller's thread.
 */
public final class PaxosTopologyRepair {
  /** How long the replicas have to list their rounds in progress. */
  static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);
  /** Tries per partition: a serial read may time out under contention or on a loaded board. */
  static final int ATTEMPTS = 5;

  private final LocalCoordinator local;
  private final MessagingService messaging;
  private final RingCoordinator coordinator;
  private final PaxosStore store;

  /** What a repair did. */
  public record Summary(int ranges, int replicasAsked, int partitions, long millis) {
    @Override
    public String toString() {
      return partitions + " Paxos rounds in progress completed in " + ranges + " ranges (" + replicasAsked
          + " replica answers) in " + millis + " ms";
    }
  }

  public PaxosTopologyRepair(LocalCoordinator local, MessagingService messaging, RingCoordinator coordinator) {
    this.local = local;
    this.messaging = messaging;
    this.coordinator = coordinator;
    this.store = coordinator.paxosStore();
  }

  /** Serves PAXOS2_CLEANUP_REQ: lists this replica's rounds in progress in the asked ranges. */
  public PaxosTopologyRepair registerHandlers() {
    messaging.registerHandler(Verb.PAXOS2_CLEANUP_REQ, m -> {
      try {
        messaging.respond(m, answer(m.payload()));
      } catch (RuntimeException e) {
        messaging.respondFailure(m, RequestFailureReason.UNKNOWN, e.toString());
      }
    });
    return this;
  }

  /** Completes the rounds in progress in the ranges that move from {@code now} to {@code now.future()}. */
  public Summary run(TokenRing now, String purpose, Consumer<String> log) {
    TokenRing future = now.future();
    if (future == null) {
      return new Summary(0, 0, 0, 0);
    }
    Map<String, Map<Range, List<Endpoint>>> byKeyspace = new TreeMap<>();
    for (String ks : local.metadata().current().keyspaces().keySet()) {
      if (local.strategy(ks) instanceof LocalStrategy) {
        continue;
      }
      Map<Range, List<Endpoint>> ranges = new LinkedHashMap<>();
      for (RangeMovements.Movement m : RangeMovements.between(now, future, local.strategy(ks))) {
        ranges.putIfAbsent(m.range(), m.sources());
      }
      if (!ranges.isEmpty()) {
        byKeyspace.put(ks, ranges);
      }
    }
    return repair(now, byKeyspace, purpose, log);
  }

  /** {@code nodetool repair --paxos-only}: the rounds in progress in every range this node replicates. */
  public Summary repairLocalRanges(TokenRing now, Consumer<String> log) {
    Map<String, Map<Range, List<Endpoint>>> byKeyspace = new TreeMap<>();
    for (String ks : local.metadata().current().keyspaces().keySet()) {
      if (local.strategy(ks) instanceof LocalStrategy) {
        continue;
      }
      Map<Range, List<Endpoint>> ranges = new LinkedHashMap<>();
      for (TokenRing.Owned o : now.rangesInTokenOrder()) {
        List<Endpoint> replicas = now.replicas(o.range().end(), local.strategy(ks));
        if (replicas.contains(now.self())) {
          ranges.put(o.range(), replicas);
        }
      }
      byKeyspace.put(ks, ranges);
    }
    return repair(now, byKeyspace, "Paxos repair", log);
  }

  private Summary repair(TokenRing now, Map<String, Map<Range, List<Endpoint>>> byKeyspace, String purpose,
                         Consumer<String> log) {
    long started = System.nanoTime();
    int rangeCount = 0;
    int asked = 0;
    int partitions = 0;
    for (Map.Entry<String, Map<Range, List<Endpoint>>> ks : byKeyspace.entrySet()) {
      String keyspace = ks.getKey();
      Map<Endpoint, List<Range>> perReplica = new LinkedHashMap<>();
      for (Map.Entry<Range, List<Endpoint>> r : ks.getValue().entrySet()) {
        for (Endpoint e : r.getValue()) {
          if (now.isAlive(e)) {
            perReplica.computeIfAbsent(e, x -> new ArrayList<>()).add(r.getKey());
          }
        }
      }
      Map<Endpoint, CompletableFuture<byte[]>> sent = new LinkedHashMap<>();
      for (Map.Entry<Endpoint, List<Range>> e : perReplica.entrySet()) {
        byte[] payload = request(keyspace, e.getValue());
        sent.put(e.getKey(), e.getKey().equals(now.self()) ? CompletableFuture.completedFuture(answer(payload))
            : messaging.sendWithCallback(messaging.peer(e.getKey().address()), Message.out(Verb.PAXOS2_CLEANUP_REQ,
                payload)).thenApply(Message::payload));
      }
      Set<Endpoint> answered = new LinkedHashSet<>();
      Map<String, Map<ByteBuffer, byte[]>> keys = new TreeMap<>(); // table -> key
      for (Map.Entry<Endpoint, CompletableFuture<byte[]>> e : sent.entrySet()) {
        try {
          byte[] a = e.getValue().get(ASK_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
          answered.add(e.getKey());
          readAnswer(a, keys);
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new RepairException(purpose + ": Paxos repair interrupted");
        } catch (Exception ex) {
          log.accept(purpose + ": Paxos repair: no answer from " + e.getKey().address().getHostAddress() + " (" + ex
              + ")");
        }
      }
      asked += answered.size();
      for (Map.Entry<Range, List<Endpoint>> r : ks.getValue().entrySet()) {
        rangeCount++;
        int have = 0;
        List<String> down = new ArrayList<>();
        List<String> silent = new ArrayList<>();
        for (Endpoint e : r.getValue()) {
          if (answered.contains(e)) {
            have++;
          } else {
            (now.isAlive(e) ? silent : down).add(e.address().getHostAddress());
          }
        }
        if (!enoughAnswered(r.getValue().size(), have)) {
          throw new RepairException(purpose + ": Paxos repair of range " + r.getKey() + " of keyspace " + keyspace
              + ": " + have + " of " + r.getValue().size() + " replicas answered, a majority (or all but one) is needed"
              + (down.isEmpty() ? "" : "; down: " + String.join(", ", down))
              + (silent.isEmpty() ? "" : "; up but no answer: " + String.join(", ", silent)));
        }
      }
      for (Map.Entry<String, Map<ByteBuffer, byte[]>> t : keys.entrySet()) {
        for (byte[] key : t.getValue().values()) {
          complete(keyspace, t.getKey(), key, purpose);
          partitions++;
        }
      }
    }
    Summary s = new Summary(rangeCount, asked, partitions, (System.nanoTime() - started) / 1_000_000);
    log.accept(purpose + ": " + s);
    return s;
  }

  /**
   * Whether {@code answered} of a range's {@code replicas} (its natural replicas before the
   * change, the dead node being replaced or removed among them) are enough: a majority, so
   * every value accepted by a quorum is seen; or all but one, as Cassandra 5.0 allows unless
   * {@code paxos_topology_repair_strict_each_quorum} (RF=2 or RF=1 with its one node being
   * replaced: no majority can answer, yet a quorum there is every replica, so what one accepted
   * the survivor holds; from RF=3 to 4 all-but-one is a majority anyway).
   */
  static boolean enoughAnswered(int replicas, int answered) {
    return answered >= replicas / 2 + 1 || answered >= replicas - 1;
  }

  /** A serial read of the partition: it completes (proposes again and commits) any round in progress. */
  private void complete(String keyspace, String table, byte[] key, String purpose) {
    Request serial = new Request(ConsistencyLevel.SERIAL, ConsistencyLevel.SERIAL, Duration.ofSeconds(5), null);
    for (int attempt = 1; ; attempt++) {
      try {
        coordinator.read(keyspace, table, key, ReadQuery.all((int) (System.currentTimeMillis() / 1000)), serial);
        return;
      } catch (CoordinatorException.Timeout | CoordinatorException.Unavailable e) {
        if (attempt == ATTEMPTS) {
          throw new RepairException(purpose + ": Paxos repair of a partition of " + keyspace + "." + table
              + " failed after " + attempt + " attempts: " + e.getMessage());
        }
      }
    }
  }

  // ------------------------------------------------------------------ messages

  /** keyspace:str ranges:i32 (start:i64 end:i64)* */
  static byte[] request(String keyspace, List<Range> ranges) {
    byte[] ks = keyspace.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(4 + ks.length + 4 + 16 * ranges.size());
    b.putInt(ks.length).put(ks).putInt(ranges.size());
    for (Range r : ranges) {
      b.putLong(r.start()).putLong(r.end());
    }
    return b.array();
  }

  /** The answer: count:i32 (table:str key:bytes)* of this replica's rounds in progress in the ranges. */
  byte[] answer(byte[] payload) {
    ByteBuffer in = ByteBuffer.wrap(payload);
    String keyspace = string(in);
    int n = in.getInt();
    List<Range> ranges = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      ranges.add(new Range(in.getLong(), in.getLong()));
    }
    List<PaxosStore.InProgress> found = store.inProgress(keyspace, key -> {
      long token = Murmur3Token.of(key);
      for (Range r : ranges) {
        if (r.contains(token)) {
          return true;
        }
      }
      return false;
    });
    int size = 4;
    for (PaxosStore.InProgress p : found) {
      size += 8 + p.table().getBytes(StandardCharsets.UTF_8).length + p.key().length;
    }
    ByteBuffer out = ByteBuffer.allocate(size).putInt(found.size());
    for (PaxosStore.InProgress p : found) {
      byte[] t = p.table().getBytes(StandardCharsets.UTF_8);
      out.putInt(t.length).put(t).putInt(p.key().length).put(p.key());
    }
    return out.array();
  }

  private static void readAnswer(byte[] a, Map<String, Map<ByteBuffer, byte[]>> keys) {
    ByteBuffer in = ByteBuffer.wrap(a);
    int n = in.getInt();
    for (int i = 0; i < n; i++) {
      String table = string(in);
      byte[] key = new byte[in.getInt()];
      in.get(key);
      keys.computeIfAbsent(table, t -> new HashMap<>()).putIfAbsent(ByteBuffer.wrap(key), key);
    }
  }

  private static String string(ByteBuffer in) {
    byte[] s = new byte[in.getInt()];
    in.get(s);
    return new String(s, StandardCharsets.UTF_8);
  }
}
