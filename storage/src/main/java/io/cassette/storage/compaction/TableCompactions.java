package io.cassette.storage.compaction;

import io.cassette.storage.StorageException;
import io.cassette.storage.io.Throttle;
import io.cassette.storage.sstable.SSTableReader;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The compactions of one table: which SSTables are being compacted, which to compact next
 * (the table's strategy, else a {@link TombstoneRewrite}), and running one
 * ({@link CompactionTask}). When they run is the engine's scheduler's business. Thread-safe.
 */
public final class TableCompactions {
  /** How often a major compaction checks whether background compactions have finished. */
  private static final long MAJOR_COMPACTION_POLL_MILLIS = 20;

  private final CompactableTable table;
  private volatile CompactionStrategy strategy;
  /** SSTables in a running compaction; guarded by itself. */
  private final Set<SSTableReader> compacting = new HashSet<>();
  private final TombstoneRewrite tombstones = new TombstoneRewrite();
  /**
   * Moving average of the table's flushes' size on disk (0 before the first since start),
   * what a strategy sizes its smallest tier from: each flush weighs a quarter, so one small
   * flush (nodetool flush, a commit-log segment's forced flush) moves it little.
   */
  private volatile long flushBytes;
  /**
   * Major compactions (and cleanups) waiting for the running ones: while above 0 no background
   * compaction starts and a running one stops at its next partition, its output deleted and its
   * inputs kept, since the major compaction rewrites them anyway (as Cassandra's
   * runWithCompactionsDisabled). A background result rewritten at once cost 0.78 disk bytes
   * per user byte on bench/wear's final compaction.
   */
  private final java.util.concurrent.atomic.AtomicInteger majorsWaiting = new java.util.concurrent.atomic.AtomicInteger();

  public TableCompactions(CompactableTable table, CompactionStrategy strategy) {
    this.table = table;
    this.strategy = strategy;
  }

  /** Takes effect from the next choice of a background compaction (ALTER TABLE). */
  public void setStrategy(CompactionStrategy strategy) {
    this.strategy = strategy;
  }

  /** A flush of this table wrote an SSTable of {@code bytes} on disk. */
  public void flushed(long bytes) {
    if (bytes > 0) {
      long avg = flushBytes;
      flushBytes = avg == 0 ? bytes : avg - avg / 4 + bytes / 4;
    }
  }

  /** The moving average of the table's flush sizes on disk; 0 before the first flush since start. */
  public long flushBytes() {
    return flushBytes;
  }

  /** SSTables no compaction is using, or an empty list. */
  private List<SSTableReader> candidates() {
    List<SSTableReader> live = table.view().sstables();
    synchronized (compacting) {
      List<SSTableReader> c = new ArrayList<>(live);
      c.removeAll(compacting);
      return c;
    }
  }

  /** Marks the SSTables as compacting; false if one of them already is (or is no longer live). */
  public boolean markCompacting(List<SSTableReader> sstables) {
    synchronized (compacting) {
      for (SSTableReader s : sstables) {
        if (compacting.contains(s) || !table.view().sstables().contains(s)) {
          return false;
        }
      }
      compacting.addAll(sstables);
      return true;
    }
  }

  void unmarkCompacting(List<SSTableReader> sstables) {
    synchronized (compacting) {
      compacting.removeAll(sstables);
    }
  }

  /** The next background compaction the strategy wants, marked as compacting; empty if none. */
  public List<SSTableReader> nextBackgroundTask() {
    if (majorsWaiting.get() > 0) {
      return List.of(); // the major compaction takes every SSTable
    }
    long now = System.currentTimeMillis() / 1000;
    synchronized (compacting) {
      List<SSTableReader> candidates = candidates();
      List<SSTableReader> task = strategy.nextBackgroundTask(candidates, now, flushBytes);
      if (task.isEmpty()) {
        SSTableReader expired = tombstones.candidate(table.spec(), candidates, now);
        if (expired != null) {
          task = List.of(expired);
        }
      }
      if (!task.isEmpty() && markCompacting(task)) {
        return task;
      }
      return List.of();
    }
  }

  /**
   * For a major compaction: waits until no compaction runs, then marks every live SSTable as
   * compacting and returns them (empty when there are none).
   */
  public List<SSTableReader> markAllWhenIdle() {
    List<SSTableReader> all;
    majorsWaiting.incrementAndGet(); // running background compactions stop
    try {
      while (true) {
        synchronized (compacting) {
          all = candidates();
          if (compacting.isEmpty() && (all.isEmpty() || markCompacting(all))) {
            break;
          }
        }
        try {
          Thread.sleep(MAJOR_COMPACTION_POLL_MILLIS); // a background compaction is stopping
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          throw new StorageException("interrupted while waiting for running compactions");
        }
      }
    } finally {
      majorsWaiting.decrementAndGet();
    }
    return all;
  }

  /** True while a major compaction waits: a background compaction is to stop (see majorsWaiting). */
  boolean backgroundStopRequested() {
    return majorsWaiting.get() > 0;
  }

  /**
   * Merges {@code inputs} (marked compacting, referenced by the view) into one SSTable and
   * swaps it in. Runs on a compaction thread.
   */
  public void run(List<SSTableReader> inputs, Throttle throttle) {
    CompactionTask.run(table, this, inputs, throttle, null, false);
  }

  /**
   * As {@link #run}, for a background compaction: it stops early, leaving its inputs as they
   * were, when a major compaction asks for every SSTable.
   */
  public void runBackground(List<SSTableReader> inputs, Throttle throttle) {
    CompactionTask.run(table, this, inputs, throttle, null, true);
  }

  /** As {@link #run}, dropping the partitions whose token {@code keepToken} refuses (nodetool cleanup). */
  public void cleanup(List<SSTableReader> inputs, Throttle throttle, java.util.function.LongPredicate keepToken) {
    CompactionTask.run(table, this, inputs, throttle, keepToken, false);
  }

  /** Records that {@code output} was written by compacting one SSTable alone. */
  void wroteAlone(SSTableReader output) {
    tombstones.wroteAlone(output);
  }

  /** Roughly how many background compactions are waiting. */
  public int pendingTasks() {
    return strategy.estimatedPendingTasks(candidates(), System.currentTimeMillis() / 1000, flushBytes);
  }
}
