package io.cassette.storage.compaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.cassette.storage.Bytes;
import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.LivenessInfo;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.memtable.Memtable;
import io.cassette.storage.memtable.MemtableFlush;
import io.cassette.storage.partition.Reconcile;
import io.cassette.storage.sstable.SSTableDescriptor;
import io.cassette.storage.sstable.SSTableReader;
import io.cassette.storage.sstable.SSTableScanner;
import io.cassette.storage.sstable.SSTableWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Compaction copies a row it leaves unchanged as its stored bytes: the files it writes (Data,
 * Index with its row index, Digest.db, Meta.db with the Bloom filter and statistics) are byte
 * for byte those of decoding every row, over rows of every kind: static and clustered, with
 * TTLs live and expired, tombstones within and past gc grace, row and partition deletions,
 * range tombstones, collection paths, a non-ASCII column name, a partition of many row-index
 * blocks, and partitions found in one input or in both.
 */
class StoredRowCopyTest {
  private static final long NOW = 1_700_000_000L;
  private static final int GC_GRACE = 1000;
  private static final String[] COLUMNS = {"a", "b", "map", "v\u00e9"};

  @TempDir
  Path dir;

  @Test
  void copyingStoredRowsWritesTheFilesOfDecodedRows() throws Exception {
    List<SSTableReader> inputs = inputs();
    try {
      assertCopyWritesTheDecodedFiles(inputs);
    } finally {
      inputs.forEach(SSTableReader::release);
    }
  }

  /**
   * A partition copied whole takes its digest from its input's Digest.db; an input without one
   * (written before it existed) or with a damaged one still compacts, its digests computed.
   */
  @Test
  void inputsWithoutOrWithDamagedDigestFilesCompactToTheSameFiles() throws Exception {
    List<SSTableReader> inputs = inputs();
    try {
      Files.delete(inputs.get(0).descriptor().path(SSTableDescriptor.Component.DIGEST));
      Path digests = inputs.get(1).descriptor().path(SSTableDescriptor.Component.DIGEST);
      byte[] b = Files.readAllBytes(digests);
      b[b.length / 2] ^= 0x40; // inside a block: its checksum fails when it is read
      Files.write(digests, b);
      assertCopyWritesTheDecodedFiles(inputs);
    } finally {
      inputs.forEach(SSTableReader::release);
    }
  }

  private void assertCopyWritesTheDecodedFiles(List<SSTableReader> inputs) throws Exception {
    SSTableDescriptor decoded = compact(inputs, 1, false);
    SSTableDescriptor copied = compact(inputs, 2, true);
    for (SSTableDescriptor.Component c : SSTableDescriptor.Component.values()) {
      assertArrayEquals(Files.readAllBytes(decoded.path(c)), Files.readAllBytes(copied.path(c)), c.toString());
    }
    SSTableReader out = SSTableReader.open(copied);
    try {
      // partitions of no row, or whose rows were all purged, are not written
      assertTrue(out.stats().partitionCount() > 450, "partitions: " + out.stats().partitionCount());
    } finally {
      out.release();
    }
  }

  private List<SSTableReader> inputs() {
    Random r = new Random(7);
    List<SSTableReader> inputs = new ArrayList<>();
    for (int input = 0; input < 2; input++) {
      Memtable m = new Memtable();
      for (int p = 0; p < 500; p++) {
        if (input == 1 && p % 9 != 0) {
          continue; // the second input overlaps the first on every ninth key
        }
        byte[] key = ("key" + p).getBytes();
        PartitionUpdate.Builder b = PartitionUpdate.builder("ks", "t", key);
        switch (p % 23) {
          case 0 -> b.deletePartition(new DeletionTime(1_700_000_000_000_000L + p, NOW - 10));
          case 1 -> b.deleteRange(new Slice(new byte[] {1}, true, new byte[] {9}, false),
              new DeletionTime(1_700_000_000_000_500L, NOW - 5000));
          default -> { }
        }
        int rows = p % 3 == 0 ? 1 : p == 5 ? 700 : r.nextInt(12); // partition 5: several row-index blocks
        for (int i = 0; i < rows; i++) {
          byte[] clustering = p % 3 == 0 ? Bytes.EMPTY : new byte[] {(byte) r.nextInt(40), (byte) i};
          b.row(p % 4 == 0 ? liveRow(r, clustering) : randomRow(r, clustering));
        }
        m.apply(DecoratedKey.of(key), b.build());
      }
      SSTableWriter w = writer(100 + input, m.size());
      MemtableFlush.write(m, w);
      inputs.add(SSTableReader.open(w.finish(CommitLogPosition.NONE)));
    }
    return inputs;
  }

  private SSTableDescriptor compact(List<SSTableReader> inputs, int generation, boolean copy) {
    CompactionMerger merger = new CompactionMerger(NOW, GC_GRACE);
    merger.copyStoredRows = copy;
    SSTableWriter w = writer(generation, 1000);
    List<SSTableScanner> scanners = new ArrayList<>();
    try {
      CompactionTask.merge(inputs, w, merger, key -> Long.MAX_VALUE, null, () -> false, scanners);
    } finally {
      scanners.forEach(SSTableScanner::close);
    }
    return w.finish(CommitLogPosition.NONE);
  }

  private SSTableWriter writer(int generation, long keys) {
    return new SSTableWriter(new SSTableDescriptor(dir, generation), Compressors.LZ4, Compressors.DEFAULT_CHUNK_LENGTH,
        keys, 0.01, null);
  }

  /** Live cells only (copied as stored). */
  private static Row liveRow(Random r, byte[] clustering) {
    long ts = 1_700_000_000_000_000L + r.nextInt(3);
    List<Cell> cells = new ArrayList<>();
    for (String column : COLUMNS) {
      byte[] value = new byte[r.nextInt(60)];
      r.nextBytes(value);
      Cell c = Cell.live(column, value, r.nextBoolean() ? ts : ts + 1);
      cells.add(column.equals("map") ? c.withPath(new byte[] {(byte) r.nextInt(9)}) : c);
    }
    return new Row(clustering, r.nextBoolean() ? LivenessInfo.EMPTY : new LivenessInfo(ts, 0, Long.MAX_VALUE),
        DeletionTime.LIVE, Reconcile.sortCells(cells));
  }

  /** Any row: TTLs expired or not, tombstones past gc grace or not, row deletions. */
  private static Row randomRow(Random r, byte[] clustering) {
    long ts = 1_700_000_000_000_000L + r.nextInt(1000);
    LivenessInfo liveness = switch (r.nextInt(4)) {
      case 0 -> LivenessInfo.EMPTY;
      case 1 -> new LivenessInfo(ts, 0, Long.MAX_VALUE);
      case 2 -> LivenessInfo.expiring(ts, 100, NOW - 150); // expired
      default -> LivenessInfo.expiring(ts, 100_000, NOW);
    };
    DeletionTime deletion = r.nextInt(6) == 0 ? new DeletionTime(ts - 1, r.nextBoolean() ? NOW - 5000 : NOW)
        : DeletionTime.LIVE;
    List<Cell> cells = new ArrayList<>();
    for (String column : COLUMNS) {
      int kind = r.nextInt(7);
      if (kind == 0) {
        continue;
      }
      long cts = r.nextBoolean() ? ts : ts + r.nextInt(50);
      byte[] value = new byte[r.nextInt(50) == 0 ? 20_000 : r.nextInt(40)];
      r.nextBytes(value);
      Cell c = switch (kind) {
        case 1 -> Cell.tombstone(column, cts, NOW - 5000); // past gc grace
        case 2 -> Cell.tombstone(column, cts, NOW - 10);
        case 3 -> Cell.expiring(column, value, cts, 100, NOW - 150); // expired
        case 4 -> Cell.expiring(column, value, cts, 100_000, NOW);
        default -> Cell.live(column, value, cts);
      };
      if (column.equals("map")) {
        for (int e = 0; e < 3; e++) {
          cells.add(c.withPath(new byte[] {(byte) r.nextInt(200), (byte) e}));
        }
      } else {
        cells.add(c);
      }
    }
    return new Row(clustering, liveness, deletion, Reconcile.sortCells(cells));
  }
}
