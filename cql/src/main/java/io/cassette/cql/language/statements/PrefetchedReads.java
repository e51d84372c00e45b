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

  /** One read: its partition, what this node counted for it, and its answer once arrived. */
  private static final class Slot {
    final byte[] key;
    /**
     * What this node's own part of the read counted ({@link ReadStats}: tombstones, SSTables),
     * done on the thread of the run that started it: counted again on each later run, so the
     * tombstone thresholds see it as a waiting read would.
     */
    final long tombstones;
    final long sstables;
    PartitionView view;

    Slot(byte[] key, long tombstones, long sstables) {
      this.key = key;
      this.tombstones = tombstones;
      this.sstables = sstables;
    }
  }

  /** The reads started, in call order (one list of one object per read: a point read makes one). */
  private final List<Slot> slots = new ArrayList<>(1);
  /** How many of {@link #slots} have their answer. */
  private int answered;
  private int next;

  /** Starts a run: reads are answered from the first again. */
  void rewind() {
    next = 0;
  }

  /** Adds the answer of the read that stopped the last run. */
  void arrived(PartitionView view) {
    slots.get(answered++).view = view;
  }

  /** The answer of this run's next read, or {@link Pending} with the read started. */
  PartitionView read(Coordinator coordinator, String keyspace, String table, byte[] key, ReadQuery query,
                     Request request) {
    if (next < answered) {
      Slot slot = slots.get(next);
      if (!Arrays.equals(slot.key, key)) {
        throw new IllegalStateException("a run read another partition than the run before it");
      }
      ReadStats.countTombstones((int) Math.min(Integer.MAX_VALUE, slot.tombstones));
      ReadStats.countSstables((int) slot.sstables);
      next++;
      return slot.view;
    }
    CompletableFuture<PartitionView> read = coordinator.readAsync(keyspace, table, key, query, request);
    ReadStats stats = ReadStats.current();
    Slot slot = stats == null ? new Slot(key, 0, 0) : new Slot(key, stats.tombstones(), stats.sstables());
    slots.add(slot);
    if (!read.isDone()) {
      next++;
      throw new Pending(read);
    }
    // Answered at once (one node, a local read): no second run for it.
    try {
      PartitionView view = read.join();
      slot.view = view;
      answered++;
      next++;
      return view;
    } catch (java.util.concurrent.CompletionException e) {
      slots.remove(slots.size() - 1);
      throw e.getCause() instanceof RuntimeException re ? re : e;
    }
  }
}
