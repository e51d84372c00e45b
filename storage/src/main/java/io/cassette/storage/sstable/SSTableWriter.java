package io.cassette.storage.sstable;

import io.cassette.storage.Cell;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import io.cassette.storage.StorageException;
import io.cassette.storage.commitlog.CommitLogPosition;
import io.cassette.storage.io.ByteArrayWriter;
import io.cassette.storage.io.Compressor;
import io.cassette.storage.io.FileSync;
import io.cassette.storage.io.Throttle;
import io.cassette.storage.partition.PartitionSerializer;
import io.cassette.storage.partition.RowCursor;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Streams partitions, in token order, into a new SSTable under temporary names; {@link #finish}
 * makes it durable and visible, {@link #abort} removes it. Memory use is one chunk buffer per
 * component, the Bloom filter and the sampled summary. Not thread-safe.
 */
public final class SSTableWriter implements AutoCloseable {
  private final SSTableDescriptor descriptor;
  private final ChunkedFileWriter data;
  private final ChunkedFileWriter index;
  private final BloomFilter bloom;
  /** Each partition's content digest, for repair's validation (Digest.db). */
  private final DigestFileWriter digests;
  private final io.cassette.storage.partition.PartitionDigest digest = new io.cassette.storage.partition.PartitionDigest();
  private long indexEntryPosition;
  private final ByteArrayWriter rowBuffer = new ByteArrayWriter(256);
  private final List<long[]> summaryPositions = new ArrayList<>();
  private final List<byte[]> summaryKeys = new ArrayList<>();

  private DecoratedKey pendingKey;
  private long partitionPosition;
  /** Uncompressed offset where the current row-index block began; -1 before the first row. */
  private long blockStart;
  private final List<byte[]> rowIndexClusterings = new ArrayList<>();
  private final List<Long> rowIndexPositions = new ArrayList<>();
  private DeletionTime pendingDeletion;
  private List<RangeTombstone> pendingTombstones;
  private boolean headerWritten;
  /** The current partition's digest as its input's Digest.db holds it: not computed again (see {@link #storedDigest}). */
  private boolean digestGiven;
  private long givenHigh;
  private DecoratedKey lastKey;
  private DecoratedKey firstKey;
  private long partitionCount;
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;
  private long minLocalDeletionTime = Long.MAX_VALUE;
  private long maxLocalDeletionTime = Long.MIN_VALUE;
  private long tombstoneCount;
  private boolean done;

  public SSTableWriter(SSTableDescriptor descriptor, Compressor compressor, int chunkLength,
                       long expectedKeys, double fpChance, Throttle throttle) {
    this.descriptor = descriptor;
    try {
      Files.createDirectories(descriptor.directory());
    } catch (IOException e) {
      throw new StorageException("cannot create " + descriptor.directory() + ": " + e, e);
    }
    this.data = new ChunkedFileWriter(descriptor.tmpPath(SSTableDescriptor.Component.DATA),
        SSTableDescriptor.DATA_MAGIC, compressor, chunkLength, throttle);
    this.index = new ChunkedFileWriter(descriptor.tmpPath(SSTableDescriptor.Component.INDEX),
        SSTableDescriptor.INDEX_MAGIC, compressor, Math.min(chunkLength, SSTableDescriptor.MAX_INDEX_CHUNK_LENGTH), throttle);
    this.bloom = BloomFilter.create(expectedKeys, fpChance);
    this.digests = new DigestFileWriter(descriptor.tmpPath(SSTableDescriptor.Component.DIGEST));
  }

  public SSTableDescriptor descriptor() {
    return descriptor;
  }

  /**
   * Starts a partition. Requires: {@code key} greater than the previous partition's key.
   * Nothing is written if the partition turns out to have no deletion, tombstone or row.
   */
  public void beginPartition(DecoratedKey key, DeletionTime deletion, List<RangeTombstone> tombstones) {
    if (lastKey != null && key.compareTo(lastKey) <= 0) {
      throw new IllegalStateException("partitions out of order: " + key + " after " + lastKey);
    }
    pendingKey = key;
    pendingDeletion = deletion;
    pendingTombstones = tombstones;
    headerWritten = false;
    digestGiven = false;
    digest.begin(key.key(), deletion, tombstones);
  }

  /**
   * Takes the partition just begun's digest from its input SSTable's Digest.db instead of
   * computing it (compaction copying a partition of one input whose entry holds a digest:
   * a partition without deletions, tombstones or TTLs, which compaction copies as it is).
   * Requires: right after {@link #beginPartition}, with no deletion or tombstone, and then
   * only {@link #rowAsStored} for its rows: the same rows as the input's.
   */
  public void storedDigest(long high) {
    if (!pendingDeletion.isLive() || !pendingTombstones.isEmpty()) {
      throw new IllegalStateException("a partition with deletions has no stored digest");
    }
    digestGiven = true;
    givenHigh = high;
  }

  private void checkDigestComputed() {
    if (digestGiven) {
      throw new IllegalStateException("row of " + pendingKey + " changed by compaction, but its digest was taken as stored");
    }
  }

  private void writeHeader() {
    headerWritten = true;
    DecoratedKey key = pendingKey;
    partitionPosition = data.position();
    rowIndexClusterings.clear();
    rowIndexPositions.clear();
    blockStart = -1;
    bloom.add(key);
    partitionCount++;
    if (firstKey == null) {
      firstKey = key;
    }
    lastKey = key;

    data.writeLengthPrefixed(key.key());
    boolean hasDeletion = !pendingDeletion.isLive();
    boolean hasTombstones = !pendingTombstones.isEmpty();
    data.writeByte((hasDeletion ? 1 : 0) | (hasTombstones ? 2 : 0));
    if (hasDeletion) {
      PartitionSerializer.writeDeletion(data, pendingDeletion);
      noteDeletion(pendingDeletion);
    }
    if (hasTombstones) {
      data.writeVarInt(pendingTombstones.size());
      for (RangeTombstone rt : pendingTombstones) {
        PartitionSerializer.writeRangeTombstone(data, rt);
        noteDeletion(rt.deletion());
      }
    }
  }

  /** The partition's index entry, written once its rows (and so its row index) are known. */
  private void writeIndexEntry() {
    DecoratedKey key = pendingKey;
    if ((partitionCount - 1) % SSTableDescriptor.SUMMARY_INTERVAL == 0) {
      summaryKeys.add(key.key());
      summaryPositions.add(new long[] {key.token(), index.position()});
    }
    indexEntryPosition = index.position();
    index.writeLong(key.token());
    index.writeLengthPrefixed(key.key());
    index.writeVarLong(partitionPosition);
    index.writeVarInt(rowIndexClusterings.size());
    for (int i = 0; i < rowIndexClusterings.size(); i++) {
      index.writeLengthPrefixed(rowIndexClusterings.get(i));
      index.writeVarLong(rowIndexPositions.get(i));
    }
  }

  private void noteDeletion(DeletionTime d) {
    tombstoneCount++;
    noteTimestamp(d.markedForDeleteAt());
    noteLocalDeletion(d.localDeletionTime());
  }

  private void noteTimestamp(long ts) {
    minTimestamp = Math.min(minTimestamp, ts);
    maxTimestamp = Math.max(maxTimestamp, ts);
  }

  private void noteLocalDeletion(long ldt) {
    minLocalDeletionTime = Math.min(minLocalDeletionTime, ldt);
    maxLocalDeletionTime = Math.max(maxLocalDeletionTime, ldt);
  }

  /** Starts a row: the partition's header first, and a row-index entry when a block is full. */
  private void beginRow(byte[] clustering) {
    if (!headerWritten) {
      writeHeader();
    }
    long uncompressed = data.uncompressedLength();
    if (blockStart < 0) {
      blockStart = uncompressed; // the first block starts with the partition's first row
    } else if (uncompressed - blockStart >= SSTableDescriptor.ROW_INDEX_BLOCK_BYTES) {
      rowIndexClusterings.add(clustering);
      rowIndexPositions.add(data.position());
      blockStart = uncompressed;
    }
  }

  /**
   * Appends the row {@code cursor} reads (from its first cell; it is read to its end), with
   * {@code clustering}: the same bytes as {@link #row(Row)} of the decoded row, without
   * building it (a flush hands the memtable's packed rows here). Requires: as {@link #row(Row)}.
   */
  public void row(byte[] clustering, RowCursor cursor) {
    checkDigestComputed();
    beginRow(clustering);
    digest.rowHeader(clustering, cursor);
    rowBuffer.reset();
    PartitionSerializer.writeRowHeader(rowBuffer, clustering, cursor);
    cells(cursor, rowBuffer);
    data.writeVarInt(rowBuffer.length());
    data.writeBytes(rowBuffer.buffer(), 0, rowBuffer.length());
  }

  /**
   * Appends the current row of {@code rows} as its stored bytes, not decoded (compaction's
   * copy of a row it leaves as it is); the digest and statistics are kept from its cursor as
   * {@link #row(byte[], RowCursor)} keeps them, so the files are those the decoded row would
   * give (rows of format 1, whose cells do not share timestamps, stay so: readers understand
   * both). Requires: as {@link #row(Row)}.
   */
  public void rowAsStored(StoredRows rows) {
    byte[] clustering = rows.clustering();
    RowCursor cursor = rows.cursor();
    beginRow(clustering);
    if (!digestGiven) {
      digest.rowHeader(clustering, cursor);
    }
    cells(cursor, null);
    data.writeVarInt(rows.length());
    data.writeBytes(rows.body(), 0, rows.length());
  }

  /** The digest and statistics of the cursor's row, from its liveness on; its cells encoded into {@code out} unless null. */
  private void cells(RowCursor cursor, ByteArrayWriter out) {
    long previous = RowCursor.NO_TIMESTAMP;
    if (cursor.hasLiveness()) {
      previous = cursor.livenessTimestamp;
      noteTimestamp(previous);
      if (cursor.livenessTtl > 0) {
        noteLocalDeletion(cursor.livenessExpiration);
      }
    }
    if (cursor.hasDeletion()) {
      tombstoneCount++;
      noteTimestamp(cursor.deletedAt);
      noteLocalDeletion(cursor.deletionTime);
    }
    long min = minTimestamp;
    long max = maxTimestamp;
    while (cursor.next()) {
      long ts = cursor.timestamp;
      if (!digestGiven) {
        digest.cell(cursor);
      }
      if (out != null) { // format 2: cells share the row's timestamp
        PartitionSerializer.writeCell(out, cursor, previous != RowCursor.NO_TIMESTAMP && ts == previous);
      }
      previous = ts;
      min = Math.min(min, ts);
      max = Math.max(max, ts);
      if (cursor.isTombstone()) {
        tombstoneCount++;
        noteLocalDeletion(cursor.localDeletionTime);
      } else if (cursor.isExpiring()) {
        noteLocalDeletion(cursor.localDeletionTime);
      }
    }
    minTimestamp = min;
    maxTimestamp = max;
  }

  /** Appends a row. Requires: clustering greater than the previous row's in this partition. */
  public void row(Row row) {
    checkDigestComputed();
    beginRow(row.clustering());
    digest.row(row);
    rowBuffer.reset();
    PartitionSerializer.writeRow(rowBuffer, row, true); // format 2: cells share the row's timestamp
    data.writeVarInt(rowBuffer.length());
    data.writeBytes(rowBuffer.buffer(), 0, rowBuffer.length());
    if (!row.liveness().isEmpty()) {
      noteTimestamp(row.liveness().timestamp());
      if (row.liveness().ttl() > 0) {
        noteLocalDeletion(row.liveness().localExpirationTime());
      }
    }
    if (!row.deletion().isLive()) {
      noteDeletion(row.deletion());
    }
    for (Cell c : row.cells()) {
      noteTimestamp(c.timestamp());
      if (c.isTombstone()) {
        tombstoneCount++;
        noteLocalDeletion(c.localDeletionTime());
      } else if (c.isExpiring()) {
        noteLocalDeletion(c.localDeletionTime());
      }
    }
  }

  public void endPartition() {
    if (!headerWritten && (!pendingDeletion.isLive() || !pendingTombstones.isEmpty())) {
      writeHeader();
    }
    if (headerWritten) {
      data.writeVarInt(0);
      writeIndexEntry();
      if (digestGiven) {
        digests.add(pendingKey.token(), true, givenHigh, 0, indexEntryPosition);
      } else {
        digest.end();
        digests.add(pendingKey.token(), digest.timeless(), digest.high(), digest.low(), indexEntryPosition);
      }
    }
    pendingKey = null;
  }

  public long partitionCount() {
    return partitionCount;
  }

  /** Bytes of uncompressed data written so far. */
  public long uncompressedBytes() {
    return data.uncompressedLength();
  }

  /**
   * Completes the SSTable: fsyncs its files, renames them (Meta.db last) and fsyncs the
   * directory. Returns null (and leaves nothing) if no partition was written.
   */
  /** Tests only: makes finish() fail as a full disk would. */
  public static volatile boolean simulateWriteFailure;

  public SSTableDescriptor finish(CommitLogPosition commitLogUpperBound) {
    if (simulateWriteFailure) {
      abort();
      throw new StorageException("cannot write " + descriptor.tmpPath(SSTableDescriptor.Component.DATA)
          + ": No space left on device (simulated)");
    }
    done = true;
    if (partitionCount == 0) {
      abort();
      return null;
    }
    long dataLength = data.finish();
    long indexLength = index.finish();
    data.close();
    index.close();
    digests.finish();
    SSTableStats stats = new SSTableStats(partitionCount, minTimestamp, maxTimestamp,
        minLocalDeletionTime, maxLocalDeletionTime, tombstoneCount, firstKey, lastKey,
        commitLogUpperBound, dataLength, indexLength, data.uncompressedLength());
    writeMeta(stats);
    // Meta.db last: its presence marks the SSTable complete. One directory fsync covers all four.
    FileSync.rename(descriptor.tmpPath(SSTableDescriptor.Component.DATA), descriptor.path(SSTableDescriptor.Component.DATA));
    FileSync.rename(descriptor.tmpPath(SSTableDescriptor.Component.INDEX), descriptor.path(SSTableDescriptor.Component.INDEX));
    FileSync.rename(descriptor.tmpPath(SSTableDescriptor.Component.DIGEST), descriptor.path(SSTableDescriptor.Component.DIGEST));
    FileSync.rename(descriptor.tmpPath(SSTableDescriptor.Component.META), descriptor.path(SSTableDescriptor.Component.META));
    FileSync.syncDirectory(descriptor.directory());
    return descriptor;
  }

  private void writeMeta(SSTableStats s) {
    var path = descriptor.tmpPath(SSTableDescriptor.Component.META);
    try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
        StandardOpenOption.TRUNCATE_EXISTING)) {
      OutputStream os = new BufferedOutputStream(Channels.newOutputStream(ch), 64 * 1024);
      StreamDataWriter out = new StreamDataWriter(os);
      out.writeInt(SSTableDescriptor.META_MAGIC);
      out.writeByte(SSTableDescriptor.FORMAT_VERSION >>> 8);
      out.writeByte(SSTableDescriptor.FORMAT_VERSION);
      out.writeVarLong(s.partitionCount());
      out.writeLong(s.minTimestamp());
      out.writeLong(s.maxTimestamp());
      out.writeLong(s.minLocalDeletionTime());
      out.writeLong(s.maxLocalDeletionTime());
      out.writeVarLong(s.tombstoneCount());
      out.writeLengthPrefixed(s.firstKey().key());
      out.writeLengthPrefixed(s.lastKey().key());
      out.writeLong(s.commitLogUpperBound().segmentId());
      out.writeLong(s.commitLogUpperBound().offset());
      out.writeLong(s.dataLength());
      out.writeLong(s.indexLength());
      out.writeLong(s.uncompressedLength());
      out.writeByte(bloom.hashCount());
      long[] words = bloom.words();
      out.writeVarInt(words.length);
      byte[] buf = new byte[8 * 1024];
      int n = 0;
      for (long w : words) {
        for (int i = 7; i >= 0; i--) {
          buf[n++] = (byte) (w >>> (8 * i));
        }
        if (n == buf.length) {
          out.writeBytes(buf, 0, n);
          n = 0;
        }
      }
      out.writeBytes(buf, 0, n);
      out.writeVarInt(SSTableDescriptor.SUMMARY_INTERVAL);
      out.writeVarInt(summaryKeys.size());
      for (int i = 0; i < summaryKeys.size(); i++) {
        out.writeLong(summaryPositions.get(i)[0]);
        out.writeLengthPrefixed(summaryKeys.get(i));
        out.writeVarLong(summaryPositions.get(i)[1]);
      }
      int crc = out.checksum();
      os.write(new byte[] {(byte) (crc >>> 24), (byte) (crc >>> 16), (byte) (crc >>> 8), (byte) crc});
      os.flush();
      ch.force(true);
    } catch (IOException e) {
      throw new StorageException("cannot write " + path + ": " + e, e);
    }
  }

  /** Deletes the temporary files. */
  public void abort() {
    done = true;
    try {
      data.close();
    } catch (StorageException e) {
      // best effort
    }
    try {
      index.close();
    } catch (StorageException e) {
      // best effort
    }
    digests.close();
    for (SSTableDescriptor.Component c : SSTableDescriptor.Component.values()) {
      try {
        Files.deleteIfExists(descriptor.tmpPath(c));
      } catch (IOException e) {
        // left for the cleanup at next open
      }
    }
  }

  @Override
  public void close() {
    if (!done) {
      abort();
    }
  }
}
