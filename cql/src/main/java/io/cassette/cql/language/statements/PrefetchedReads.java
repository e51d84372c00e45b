package io.cassette.cql.language.statements;

import io.cassette.coordinator.Coordinator;
import io.cassette.coordinator.Request;
import io.cassette.storage.PartitionView;
import io.cassette.storage.ReadQuery;
import io.cassette.storage.ReadStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The partition reads of a SELECT that answers without a thread waiting for the replicas. The
 * statement runs; its first read that has no answer yet starts the read
 * ({@link Coordinator#readAsync}) and stops the run with {@link Pending}; when the answer
 * arrives, the statement runs again from the start and its reads are answered, in call order,
 * from what arrived. A run is a pure function of its answers, so each run repeats the reads of
 * the one before and adds at most one. Only for statements that read single partitions (no
 * scans, no index): those make no other call that could wait. One per request; not
 * thread-safe (one run at a time).
 */
final class PrefetchedReads {
  /** A read was started: the run stops here and goes on when {@link #read} completes. */
  static final class Pending extends RuntimeException {
    final CompletableFuture<PartitionView> read;

    Pending(CompletableFuture<PartitionView> read) {
      super(null, null, false, false); // control flow, no stack trace
      this.read = read;
    }
  }

  private final List<byte[]> keys = new ArrayList<>(1);
  private final List<PartitionView> views = new ArrayList<>(1);
  /**
   * What this node's own part of each read counted ({@link ReadStats}: tombstones, SSTables),
   * done on the thread of the run that started it: counted again on each later run, so the
   * tombstone thresholds see it as a waiting read would.
   */
  private final List<long[]> counted = new ArrayList<>(1);
  private int next;

  /** Starts a run: reads are answered from the first again. */
  void rewind() {
    next = 0;
  }

  /** Adds the answer of the read that stopped the last run. */
  void arrived(PartitionView view) {
    views.add(view);
  }

  /** The answer of this run's next read, or {@link Pending} with the read started. */
  PartitionView read(Coordinator coordinator, String keyspace, String table, byte[] key, ReadQuery query,
                     Request request) {
    if (next < views.size()) {
      if (!Arrays.equals(keys.get(next), key)) {
        throw new IllegalStateException("a run read another partition than the run before it");
      }
      long[] c = counted.get(next);
      ReadStats.countTombstones((int) Math.min(Integer.MAX_VALUE, c[0]));
      ReadStats.countSstables((int) c[1]);
      return views.get(next++);
    }
    CompletableFuture<PartitionView> read = coordinator.readAsync(keyspace, table, key, query, request);
    keys.add(key);
    ReadStats stats = ReadStats.current();
    counted.add(stats == null ? new long[2] : new long[] {stats.tombstones(), stats.sstables()});
    if (!read.isDone()) {
      next++;
      throw new Pending(read);
    }
    // Answered at once (one node, a local read): no second run for it.
    try {
      PartitionView view = read.join();
      views.add(view);
      next++;
      return view;
    } catch (java.util.concurrent.CompletionException e) {
      keys.remove(keys.size() - 1);
      counted.remove(counted.size() - 1);
      throw e.getCause() instanceof RuntimeException re ? re : e;
    }
  }
}
