package io.cassette.coordinator.ring.repair;

import io.cassette.cluster.net.Message;
import io.cassette.cluster.net.Verb;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.replication.ReplicationStrategy;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.Range;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.storage.TableSpec;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * One {@code nodetool repair} on its initiating node, as Cassandra runs a full repair: per
 * keyspace a command, per token range a session; per table of a session every replica builds
 * its {@link MerkleTree} of the range (in parallel), the initiator compares every pair of trees
 * and asks replicas to stream the differing sub-ranges to the replicas that differ from them,
 * each leaf to a receiver from one source of each version ({@link #syncs}; SYNC_REQ, done
 * directly when this node is the source). Progress lines use Cassandra's
 * texts; a summary line ends each keyspace.
 *
 * <p>Every replica of every range repaired must be UP when it starts, else the command fails
 * with Cassandra's "Endpoint not alive"; a replica that goes DOWN during a session fails it
 * ("Endpoint died"). Runs on the caller's thread.
 */
final class RepairCommand {
  /** How long a replica may take to validate a range or stream a sync before the session fails. */
  static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(30);
  /** How often a wait checks that the replica it waits for is still UP. */
  private static final long LIVENESS_POLL_MILLIS = 500;

  private final RepairService service;
  private final RepairOptions options;
  private final Consumer<String> progress;

  RepairCommand(RepairService service, RepairOptions options, Consumer<String> progress) {
    this.service = service;
    this.options = options;
    this.progress = progress;
  }

  List<RepairSummary> run() {
    List<String> keyspaces = keyspaces();
    List<RepairSummary> out = new ArrayList<>();
    for (String ks : keyspaces) {
      RepairSummary s = repairKeyspace(ks);
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  private List<String> keyspaces() {
    Map<String, KeyspaceDefinition> all = service.local().metadata().current().keyspaces();
    if (options.keyspace() != null) {
      if (!all.containsKey(options.keyspace())) {
        throw new RepairException("Keyspace [" + options.keyspace() + "] does not exist.");
      }
      return List.of(options.keyspace());
    }
    List<String> out = new ArrayList<>();
    for (String ks : new TreeMap<>(all).keySet()) {
      if (!(service.local().strategy(ks) instanceof LocalStrategy)) {
        out.add(ks);
      }
    }
    return out;
  }

  /** A keyspace's command; null when there is nothing to repair (one replica). */
  private RepairSummary repairKeyspace(String ks) {
    long started = System.nanoTime();
    TokenRing ring = service.ring();
    ReplicationStrategy strategy = service.local().strategy(ks);
    Endpoint self = ring.self();
    List<Range> ranges = new ArrayList<>();
    List<List<Endpoint>> replicas = new ArrayList<>();
    int maxReplicas = 0;
    for (TokenRing.Owned o : ring.rangesInTokenOrder()) {
      List<Endpoint> r = ring.replicas(o.range(), strategy);
      maxReplicas = Math.max(maxReplicas, r.size());
      if (options.primaryRange() ? o.owner().equals(self) : r.contains(self)) {
        ranges.add(o.range());
        replicas.add(r);
      }
    }
    if (strategy instanceof LocalStrategy || maxReplicas < 2) {
      progress.accept("Replication factor is 1. No repair is needed for keyspace '" + ks + "'");
      return null;
    }
    List<String> tables = tables(ks);
    int command = service.nextCommand();
    progress.accept("Starting repair command #" + command + " (" + UUID.randomUUID() + "), repairing keyspace "
        + ks + " with " + options.describe(ranges.size()));
    try {
      for (List<Endpoint> r : replicas) {
        for (Endpoint e : r) {
          if (!ring.isAlive(e)) {
            throw new RepairException("Endpoint not alive: " + address(e));
          }
        }
      }
      long[] totals = new long[9]; // validations, outOfSync, partitions, rows, bytes, batches, retries, vMs, sMs
      long nowInSeconds = System.currentTimeMillis() / 1000;
      for (int i = 0; i < ranges.size(); i++) {
        UUID session = UUID.randomUUID();
        for (String table : tables) {
          repairTable(ks, table, ranges.get(i), replicas.get(i), nowInSeconds, totals);
        }
        int percent = (int) ((i + 1) * 100L / ranges.size());
        progress.accept("Repair session " + session + " for range " + List.of(ranges.get(i)) + " finished (progress: "
            + percent + "%)");
      }
      long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
      RepairSummary summary = new RepairSummary(ranges.size(), tables.size(), totals[0], totals[1], totals[2],
          totals[3], totals[4], totals[5], totals[6], totals[7], totals[8], millis);
      progress.accept(summary.line());
      progress.accept("Repair completed successfully");
      progress.accept("Repair command #" + command + " finished in " + words(millis));
      return summary;
    } catch (RepairException e) {
      progress.accept("Repair command #" + command + " failed with error " + e.getMessage());
      progress.accept("Repair command #" + command + " finished with error");
      throw e;
    }
  }

  private List<String> tables(String ks) {
    KeyspaceDefinition k = service.local().metadata().current().keyspace(ks);
    List<String> all = new ArrayList<>();
    for (TableSpec t : k.tables()) {
      all.add(t.name());
    }
    if (options.tables().isEmpty()) {
      return all;
    }
    for (String t : options.tables()) {
      if (!all.contains(t)) {
        throw new RepairException("Unknown keyspace/cf pair (" + ks + "." + t + ")");
      }
    }
    return options.tables();
  }

  /** Validates one table's range on every replica, then syncs every pair whose trees differ. */
  private void repairTable(String ks, String table, Range range, List<Endpoint> replicas, long nowInSeconds,
                           long[] totals) {
    long validationStart = System.nanoTime();
    RepairMessages.ValidationRequest request =
        new RepairMessages.ValidationRequest(ks, table, range, options.depth(), nowInSeconds);
    byte[] payload = RepairMessages.encode(request);
    Endpoint self = service.ring().self();
    List<CompletableFuture<Message>> asked = new ArrayList<>();
    for (Endpoint e : replicas) {
      asked.add(e.equals(self) ? null : service.messaging().sendWithCallback(peer(e),
          Message.out(Verb.VALIDATION_REQ, payload).withTimeoutMillis((int) REQUEST_TIMEOUT.toMillis())));
    }
    List<MerkleTree> trees = new ArrayList<>();
    for (int i = 0; i < replicas.size(); i++) {
      trees.add(asked.get(i) == null ? service.validator().validate(request)
          : MerkleTree.decode(await(asked.get(i), replicas.get(i), "validation").payload()));
    }
    totals[0] += trees.size();
    int n = replicas.size();
    java.util.BitSet[][] differ = new java.util.BitSet[n][n];
    for (int a = 0; a < n; a++) {
      for (int b = a + 1; b < n; b++) {
        differ[a][b] = trees.get(a).differingLeaves(trees.get(b));
        differ[b][a] = differ[a][b];
        if (!differ[a][b].isEmpty()) {
          totals[1]++;
        }
      }
    }
    List<Sync> syncs = syncs(replicas, trees.get(0), differ);
    long streamingStart = System.nanoTime();
    totals[7] += TimeUnit.NANOSECONDS.toMillis(streamingStart - validationStart);
    for (Sync s : syncs) {
      RepairMessages.SyncResult r = sync(ks, table, s.a(), s.b(), s.ranges(), nowInSeconds);
      totals[2] += r.partitions();
      totals[3] += r.rows();
      totals[4] += r.bytes();
      totals[5] += r.batches();
      totals[6] += r.retries();
    }
    totals[8] += TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - streamingStart);
  }

  /**
   * The streams that make every replica receive what it lacks, each differing leaf once: a
   * receiver {@code r} gets a leaf from source {@code s} unless an earlier source that also
   * differs from {@code r} there holds the same data as {@code s} there (equal leaf hashes), as
   * Cassandra's optimised streaming does. With one stale replica of three, it receives each
   * differing leaf from one replica, not from both; it still sends its own version of those
   * leaves to both (it may hold writes they lack; LWW keeps the newer).
   * {@code differ[a][b]}: the leaves where replicas a and b differ.
   */
  static List<Sync> syncs(List<Endpoint> replicas, MerkleTree shape, java.util.BitSet[][] differ) {
    int n = replicas.size();
    List<Sync> out = new ArrayList<>();
    for (int r = 0; r < n; r++) {
      for (int s = 0; s < n; s++) {
        if (s == r || differ[s][r].isEmpty()) {
          continue;
        }
        java.util.BitSet need = (java.util.BitSet) differ[s][r].clone();
        for (int earlier = 0; earlier < s; earlier++) {
          if (earlier == r) {
            continue;
          }
          java.util.BitSet covered = (java.util.BitSet) differ[earlier][r].clone();
          covered.andNot(differ[earlier][s]); // earlier streams there to r, and holds what s holds
          need.andNot(covered);
        }
        List<Range> ranges = shape.ranges(need);
        if (!ranges.isEmpty()) {
          out.add(new Sync(replicas.get(s), replicas.get(r), ranges));
        }
      }
    }
    // Streams run one after another, each reading its source's data when it runs: a replica
    // that differs from the most others (the stale one) sends first, before it receives, so it
    // does not send back what it was just sent.
    long[] differing = new long[n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        if (a != b) {
          differing[a] += differ[a][b].cardinality();
        }
      }
    }
    out.sort(java.util.Comparator.comparingLong(x -> -differing[replicas.indexOf(x.a())]));
    return out;
  }

  /** Streams {@code ranges} from {@code from} to {@code to}: here directly, elsewhere by SYNC_REQ. */
  private RepairMessages.SyncResult sync(String ks, String table, Endpoint from, Endpoint to, List<Range> ranges,
                                         long nowInSeconds) {
    RepairMessages.SyncRequest request =
        new RepairMessages.SyncRequest(ks, table, to.address(), ranges, nowInSeconds);
    if (from.equals(service.ring().self())) {
      return service.sender().stream(request);
    }
    return service.syncRemote(from, request, "Endpoint died: " + address(from), "sync failed on " + address(from));
  }

  /** Waits for a replica's answer, failing as soon as the replica is seen DOWN. */
  private Message await(CompletableFuture<Message> f, Endpoint replica, String what) {
    while (true) {
      try {
        return f.get(LIVENESS_POLL_MILLIS, TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        if (!service.ring().isAlive(replica)) {
          f.cancel(false);
          throw new RepairException("Endpoint died: " + address(replica));
        }
      } catch (ExecutionException e) {
        throw new RepairException(what + " failed on " + address(replica) + ": "
            + (e.getCause() == null ? e : e.getCause().getMessage()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new RepairException("interrupted");
      }
    }
  }

  private InetSocketAddress peer(Endpoint e) {
    return service.messaging().peer(e.address());
  }

  /** "/127.0.0.3:7000", as Cassandra names an endpoint. */
  private String address(Endpoint e) {
    return "/" + e.address().getHostAddress() + ":" + service.messaging().address().getPort();
  }

  /** Cassandra's DurationFormatUtils.formatDurationWords(ms, true, true): "1 minute 3 seconds". */
  static String words(long millis) {
    long seconds = millis / 1000;
    long h = seconds / 3600;
    long m = (seconds / 60) % 60;
    long s = seconds % 60;
    StringBuilder b = new StringBuilder();
    if (h > 0) {
      b.append(h).append(h == 1 ? " hour " : " hours ");
    }
    if (h > 0 || m > 0) {
      b.append(m).append(m == 1 ? " minute " : " minutes ");
    }
    b.append(s).append(s == 1 ? " second" : " seconds");
    return b.toString();
  }

  /** One stream of a session: {@code ranges} from replica {@code a} to replica {@code b}. */
  record Sync(Endpoint a, Endpoint b, List<Range> ranges) {}
}
