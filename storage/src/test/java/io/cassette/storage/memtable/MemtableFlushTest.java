package io.cassette.storage.memtable;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.cassette.storage.Bytes;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.PartitionUpdate;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.Compressors;
import io.cassette.storage.sstable.SSTableDescriptor;
import io.cassette.storage.sstable.SSTableReader;
import io.cassette.storage.sstable.SSTableWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flush writes the memtable's packed rows without decoding them ({@link MemtableFlush});
 * its files must be, byte for byte, those of writing the decoded rows, as flushes did before:
 * same data, index, Digest.db (repair compares digests across replicas and versions) and Meta.db.
 */
class MemtableFlushTest {
  @TempDir
  Path dir;

  @Test
  void flushingPackedRowsWritesTheFilesOfTheDecodedRows() throws Exception {
    Random r = new Random(3);
    Memtable m = new Memtable();
    int written = 0; // partitions with a row or a deletion: an empty one is not written
    for (int p = 0; p < 400; p++) {
      byte[] key = ("key" + p).getBytes();
      PartitionUpdate.Builder b = PartitionUpdate.builder("ks", "t", key);
      switch (p % 7) {
        case 0 -> b.deletePartition(new DeletionTime(1_700_000_000_000_000L + p, 1_700_000_000L));
        case 1 -> b.deleteRange(new Slice(new byte[] {1}, true, new byte[] {9}, false),
            new DeletionTime(1_700_000_000_000_500L, 1_700_000_001L));
        default -> { }
      }
      int rows = p % 3 == 0 ? 1 : p == 5 ? 600 : r.nextInt(12); // partition 5: several row-index blocks
      for (int i = 0; i < rows; i++) {
        byte[] clustering = p % 3 == 0 ? Bytes.EMPTY : new byte[] {(byte) r.nextInt(40), (byte) i};
        b.row(p % 5 == 4 ? liveRow(r, clustering) : PackedRowTest.randomRow(r, clustering));
      }
      m.apply(DecoratedKey.of(key), b.build());
      written += rows > 0 || p % 7 < 2 ? 1 : 0;
    }
    SSTableDescriptor decoded = new SSTableDescriptor(dir, 1);
    try (SSTableWriter w = writer(decoded, m)) {
      for (MemtablePartition p : m.partitions()) {
        w.beginPartition(p.key(), p.partitionDeletion(), p.rangeTombstones());
        for (Iterator<Row> it = p.rows(Bytes.EMPTY); it.hasNext(); ) {
          w.row(it.next());
        }
        w.endPartition();
      }
      w.finish(CommitLogPosition.NONE);
    }
    SSTableDescriptor packed = new SSTableDescriptor(dir, 2);
    try (SSTableWriter w = writer(packed, m)) {
      MemtableFlush.write(m, w);
      w.finish(CommitLogPosition.NONE);
    }
    for (SSTableDescriptor.Component c : SSTableDescriptor.Component.values()) {
      assertArrayEquals(Files.readAllBytes(decoded.path(c)), Files.readAllBytes(packed.path(c)), c.toString());
    }
    SSTableReader reader = SSTableReader.open(packed);
    try {
      assertEquals(written, reader.stats().partitionCount());
    } finally {
      reader.release();
    }
  }

  /**
   * A row of live cells only, as most writes are: a partition of such rows is "timeless" and
   * its digest is stored in Digest.db (other partitions' digests are computed when repair asks).
   */
  private static Row liveRow(Random r, byte[] clustering) {
    long ts = 1_700_000_000_000_000L + r.nextInt(3);
    java.util.List<io.cassette.storage.Cell> cells = new java.util.ArrayList<>();
    for (String column : new String[] {"a", "b", "map", "v\u00e9"}) {
      byte[] value = new byte[r.nextInt(60)];
      r.nextBytes(value);
      io.cassette.storage.Cell c = io.cassette.storage.Cell.live(column, value, r.nextBoolean() ? ts : ts + 1);
      cells.add(column.equals("map") ? c.withPath(new byte[] {(byte) r.nextInt(9)}) : c);
    }
    return new Row(clustering, r.nextBoolean() ? io.cassette.storage.LivenessInfo.EMPTY
        : new io.cassette.storage.LivenessInfo(ts, 0, Long.MAX_VALUE), DeletionTime.LIVE,
        io.cassette.storage.partition.Reconcile.sortCells(cells));
  }

  private static SSTableWriter writer(SSTableDescriptor d, Memtable m) {
    return new SSTableWriter(d, Compressors.LZ4, Compressors.DEFAULT_CHUNK_LENGTH, m.size(), 0.01, null);
  }
}
