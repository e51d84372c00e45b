package io.cassette.coordinator.ring.membership;

import io.cassette.coordinator.local.LocalCoordinator;
import io.cassette.coordinator.metadata.KeyspaceDefinition;
import io.cassette.coordinator.replication.LocalStrategy;
import io.cassette.coordinator.ring.Endpoint;
import io.cassette.coordinator.ring.Range;
import io.cassette.coordinator.ring.TokenRing;
import io.cassette.coordinator.ring.repair.RepairException;
import io.cassette.coordinator.ring.repair.RepairService;
import io.cassette.storage.TableSpec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * Moves the data of a ring change: for every keyspace that is not node-local and every table,
 * the ranges of {@link RangeMovements#between} whose target is wanted are streamed from a live
 * source (the node handing the range over when it is UP, else another current replica) with
 * repair's checksummed batches ({@link RepairService#streamRanges}). Writes meanwhile reach the
 * targets as pending replicas, so what the stream misses the writes bring.
 *
 * <p>Idempotent: every batch is applied as an ordinary write (last write wins), so a stream
 * interrupted by a crash is run again whole. Runs on the caller's thread.
 */
public final class RingChangeStreams {
  private RingChangeStreams() {}

  /** What a ring change streamed. */
  public record Summary(int keyspaces, int streams, long partitions, long bytes, long retries, long millis) {
    @Override
    public String toString() {
      return streams + " streams of " + keyspaces + " keyspaces: " + partitions + " partitions, " + bytes
          + " bytes, " + retries + " batches resent, in " + millis + " ms";
    }
  }

  /**
   * Streams the movements from {@code now} to {@code now.future()}.
   *
   * @param targets   which receiving nodes to stream to (a bootstrap: this node only)
   * @param unusable  nodes never used as sources (a dead node being removed or replaced)
   * @param purpose   the name in netstats and the log ("Bootstrap", "Unbootstrap", "Removenode", "Replace")
   * @throws RepairException when a range has no live source or a stream fails
   */
  public static Summary run(RepairService repair, LocalCoordinator local, TokenRing now, Predicate<Endpoint> targets,
                            Set<Endpoint> unusable, String purpose, Consumer<String> log) {
    long started = System.nanoTime();
    TokenRing future = now.future();
    if (future == null) {
      throw new IllegalStateException("no ring change in progress at epoch " + now.epoch());
    }
    long[] totals = new long[4]; // streams, partitions, bytes, retries
    int keyspaces = 0;
    Map<String, KeyspaceDefinition> all = new TreeMap<>(local.metadata().current().keyspaces());
    for (Map.Entry<String, KeyspaceDefinition> ks : all.entrySet()) {
      if (local.strategy(ks.getKey()) instanceof LocalStrategy) {
        continue;
      }
      Map<List<Endpoint>, List<Range>> byPair = new LinkedHashMap<>();
      for (RangeMovements.Movement m : RangeMovements.between(now, future, local.strategy(ks.getKey()))) {
        if (!targets.test(m.target())) {
          continue;
        }
        Endpoint source = null;
        for (Endpoint e : m.sources()) {
          if (!unusable.contains(e) && now.isAlive(e)) {
            source = e;
            break;
          }
        }
        if (source == null) {
          throw new RepairException("no live replica of range " + m.range() + " of keyspace " + ks.getKey()
              + " to stream to " + m.target().address().getHostAddress() + " (replicas: " + m.sources() + ")");
        }
        byPair.computeIfAbsent(List.of(source, m.target()), x -> new ArrayList<>()).add(m.range());
      }
      if (byPair.isEmpty()) {
        continue;
      }
      keyspaces++;
      for (Map.Entry<List<Endpoint>, List<Range>> pair : byPair.entrySet()) {
        Endpoint from = pair.getKey().get(0);
        Endpoint to = pair.getKey().get(1);
        for (TableSpec t : ks.getValue().tables()) {
          RepairService.StreamTotals s = repair.streamRanges(ks.getKey(), t.name(), from, to, pair.getValue(), purpose);
          totals[0]++;
          totals[1] += s.partitions();
          totals[2] += s.bytes();
          totals[3] += s.retries();
          log.accept(purpose + ": " + ks.getKey() + "." + t.name() + " " + pair.getValue().size() + " ranges from "
              + from.address().getHostAddress() + " to " + to.address().getHostAddress() + ": " + s.partitions()
              + " partitions, " + s.bytes() + " bytes");
        }
      }
    }
    return new Summary(keyspaces, (int) totals[0], totals[1], totals[2], totals[3],
        (System.nanoTime() - started) / 1_000_000);
  }
}
