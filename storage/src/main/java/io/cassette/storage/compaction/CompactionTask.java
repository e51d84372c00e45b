package io.cassette.storage.compaction;

import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.TableSpec;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.io.Throttle;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.partition.PartitionSource;
import io.cassette.storage.partition.PeekingSource;
import io.cassette.storage.sstable.DigestFileReader;
import io.cassette.storage.sstable.SSTableDescriptor;
import io.cassette.storage.sstable.SSTableReader;
import io.cassette.storage.sstable.SSTableScanner;
import io.cassette.storage.sstable.SSTableWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * One compaction: merges its input SSTables in token order into one new SSTable
 * ({@link CompactionMerger} decides what survives), swaps the result in for the inputs, and
 * deletes whichever side lost (the inputs, or the result when the table was truncated or
 * dropped meanwhile).
 */
public final class CompactionTask {
  private CompactionTask() {}

  /**
   * Requires: {@code inputs} marked compacting in {@code compactions} (they are unmarked
   * when this returns) and referenced by the table's view. Runs on a compaction thread.
   */
  static void run(CompactableTable table, TableCompactions compactions, List<SSTableReader> inputs,
                  Throttle throttle) {
    run(table, compactions, inputs, throttle, null, false);
  }

  /**
   * As above; {@code keepToken} (nodetool cleanup) drops every partition whose token it
   * refuses: data of ranges this node no longer replicates. Null keeps everything.
   * {@code stoppable} (a background compaction): the task stops, deleting its output and
   * leaving its inputs live, when a major compaction asks for them
   * ({@link TableCompactions#backgroundStopRequested}).
   */
  static void run(CompactableTable table, TableCompactions compactions, List<SSTableReader> inputs,
                  Throttle throttle, java.util.function.LongPredicate keepToken, boolean stoppable) {
    TableSpec s = table.spec();
    long startNanos = System.nanoTime();
    long now = System.currentTimeMillis() / 1000;
    CompactionMerger merger = new CompactionMerger(now, s.gcGraceSeconds());
    long expected = 0;
    CommitLogPosition upper = CommitLogPosition.NONE;
    for (SSTableReader r : inputs) {
      expected += r.stats().partitionCount();
      upper = CommitLogPosition.max(upper, r.stats().commitLogUpperBound());
    }
    for (int i = 0; i < inputs.size(); i++) {
      if (!inputs.get(i).tryRef()) {
        // released meanwhile (truncate, drop): give back what was taken and skip this compaction
        for (int j = 0; j < i; j++) {
          inputs.get(j).release();
        }
        compactions.unmarkCompacting(inputs);
        return;
      }
    }
    SSTableReader output = null;
    List<SSTableScanner> scanners = new ArrayList<>();
    try {
      SSTableDescriptor d = table.newSSTable();
      try (SSTableWriter w = new SSTableWriter(d, Compressors.forOptions(s.compression()),
          Compressors.chunkLength(s.compression()), expected, s.bloomFilterFpChance(), throttle)) {
        if (!merge(inputs, w, merger, key -> maxPurgeableTimestamp(key, table.view(), inputs), keepToken,
            stoppable ? () -> table.dropped() || compactions.backgroundStopRequested() : table::dropped,
            scanners)) {
          return;
        }
        SSTableDescriptor done = w.finish(upper);
        output = done == null ? null : table.open(done);
      }
      if (output != null) {
        if (inputs.size() == 1) {
          compactions.wroteAlone(output);
        }
        table.written(output.bytesOnDisk());
      }
      final SSTableReader out = output;
      if (!table.swap(inputs, out)) {
        // Truncated or dropped meanwhile: the result must not come back, and the inputs' view
        // references were already given back by whoever removed them.
        if (out != null) {
          out.markObsolete();
          out.release();
        }
      } else {
        for (SSTableReader r : inputs) {
          r.markObsolete();
          r.release(); // the view's reference
        }
      }
      long bytesRead = 0;
      for (SSTableReader r : inputs) {
        bytesRead += r.bytesOnDisk();
      }
      table.compacted((System.nanoTime() - startNanos) / 1000, bytesRead, out == null ? 0 : out.bytesOnDisk());
    } finally {
      scanners.forEach(SSTableScanner::close);
      for (SSTableReader r : inputs) {
        r.release(); // ours
      }
      compactions.unmarkCompacting(inputs);
    }
  }

  /**
   * The merge loop: every partition of {@code inputs}, in token order, merged into {@code w}
   * (the caller finishes it). {@code maxPurgeable} gives the smallest timestamp outside the
   * compaction that may belong to a key; {@code keepToken} null keeps every partition. The
   * scanners opened are added to {@code scanners} for the caller to close. False when
   * {@code dropped} (the table dropped, or the compaction asked to stop) turned true meanwhile:
   * the output is then to be abandoned.
   */
  public static boolean merge(List<SSTableReader> inputs, SSTableWriter w, CompactionMerger merger,
                              java.util.function.ToLongFunction<DecoratedKey> maxPurgeable,
                              java.util.function.LongPredicate keepToken, java.util.function.BooleanSupplier dropped,
                              List<SSTableScanner> scanners) {
    int n = inputs.size();
    PeekingSource[] sources = new PeekingSource[n];
    SSTableScanner[] own = new SSTableScanner[n];
    // Each input's Digest.db, read beside it: a partition copied from one input keeps its
    // stored digest instead of hashing every row again (a fifth of a compaction's CPU).
    DigestFileReader[] digests = new DigestFileReader[n];
    try {
      for (int i = 0; i < n; i++) {
        SSTableReader r = inputs.get(i);
        own[i] = r.scanner(KeyRange.ALL);
        scanners.add(own[i]);
        sources[i] = new PeekingSource(own[i]);
        if (merger.copiesStoredRows()) {
          digests[i] = openDigests(r);
        }
      }
      List<PartitionSource> parts = new ArrayList<>(n); // reused: the merger keeps no reference
      PurgeBound purge = new PurgeBound(maxPurgeable);
      while (true) {
        DecoratedKey min = null;
        for (PeekingSource p : sources) {
          if (p.head() != null && (min == null || p.head().key().compareTo(min) < 0)) {
            min = p.head().key();
          }
        }
        if (min == null) {
          return true;
        }
        parts.clear();
        int only = -1;
        for (int i = 0; i < n; i++) {
          if (sources[i].head() != null && sources[i].head().key().equals(min)) {
            parts.add(sources[i].head());
            only = i;
          }
        }
        if (keepToken == null || keepToken.test(min.token())) {
          if (parts.size() == 1 && digests[only] != null) {
            DigestFileReader d = digests[only];
            long at = own[only].indexPosition();
            try {
              // the entries are in the index's order: skip to this partition's
              while (d.indexPosition() < at && d.next()) { }
              if (d.indexPosition() == at && d.token() == min.token() && d.hasDigest()) {
                merger.storedDigest(d.high());
              }
            } catch (io.cassette.storage.StorageException e) {
              d.close(); // a damaged Digest.db: this input's digests are computed again
              digests[only] = null;
            }
          }
          purge.key = min;
          merger.write(w, min, parts, purge);
        }
        for (PeekingSource p : sources) {
          if (p.head() != null && p.head().key().equals(min)) {
            p.advance();
          }
        }
        if (dropped.getAsBoolean()) {
          return false;
        }
      }
    } finally {
      for (DigestFileReader d : digests) {
        if (d != null) {
          d.close();
        }
      }
    }
  }

  /** The input's Digest.db, or null if it has none or it cannot be read (digests are then computed). */
  private static DigestFileReader openDigests(SSTableReader r) {
    try {
      return DigestFileReader.open(r, Long.MIN_VALUE, Long.MAX_VALUE);
    } catch (io.cassette.storage.StorageException e) {
      return null;
    }
  }

  /** {@code maxPurgeable} of the partition being merged, one object for the whole merge. */
  private static final class PurgeBound implements java.util.function.LongSupplier {
    private final java.util.function.ToLongFunction<DecoratedKey> f;
    DecoratedKey key;

    PurgeBound(java.util.function.ToLongFunction<DecoratedKey> f) {
      this.f = f;
    }

    @Override
    public long getAsLong() {
      return f.applyAsLong(key);
    }
  }

  /**
   * The smallest timestamp outside the compaction that may belong to {@code key}: from
   * SSTables whose key range and Bloom filter admit it and memtables holding it (only
   * in-memory structures are consulted, so no references are needed).
   */
  private static long maxPurgeableTimestamp(DecoratedKey key, CompactableTable.View v, List<SSTableReader> inputs) {
    long min = Long.MAX_VALUE;
    for (SSTableReader s : v.sstables()) {
      if (!inputs.contains(s) && s.stats().minTimestamp() < min && s.mightContain(key)) {
        min = s.stats().minTimestamp();
      }
    }
    for (Memtable m : v.memtables()) {
      if (m.minTimestamp() < min && m.get(key) != null) {
        min = m.minTimestamp();
      }
    }
    return min;
  }
}
