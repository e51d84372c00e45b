package io.cassette.storage.sstable;

import io.cassette.storage.Bytes;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.DeletionTime;
import io.cassette.storage.RangeTombstone;
import io.cassette.storage.Row;
import io.cassette.storage.StorageException;
import io.cassette.storage.partition.PartitionSerializer;
import io.cassette.storage.partition.PartitionSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * One partition as stored in an SSTable, read lazily from its data position. Rows are
 * streamed; rows before the requested start are skipped by their length prefix without
 * being decoded. Not thread-safe; one row iterator at a time.
 */
final class SSTablePartition implements PartitionSource {
  private final ChunkedFileReader in;
  private final DecoratedKey key;
  private final long position;
  private DeletionTime deletion;
  private List<RangeTombstone> tombstones;
  private long rowsStart = -1;
  /** False when a scanner shares its reader with the partitions it yields. */
  private final boolean ownsReader;

  /** Blocks of a large partition's rows, or null when it has one block. */
  private final RowIndex rowIndex;

  SSTablePartition(ChunkedFileReader in, DecoratedKey key, long position, RowIndex rowIndex, boolean ownsReader) {
    this.in = in;
    this.rowIndex = rowIndex;
    this.ownsReader = ownsReader;
    this.key = key;
    this.position = position;
  }

  private void loadHeader() {
    if (rowsStart >= 0) {
      return;
    }
    in.seek(position);
    if (in.compareLengthPrefixed(key.key(), PartitionSerializer.MAX_VALUE_LENGTH) != 0) {
      in.seek(position); // read again, for the message
      byte[] k = in.readLengthPrefixed(PartitionSerializer.MAX_VALUE_LENGTH);
      throw new StorageException("corrupt SSTable: index points to partition " + Bytes.hex(k) + " at position "
          + SSTableDescriptor.chunkOffset(position) + "+" + SSTableDescriptor.inChunk(position)
          + " (expected: " + Bytes.hex(key.key()) + ")");
    }
    int flags = in.readByte();
    deletion = (flags & 1) != 0 ? PartitionSerializer.readDeletion(in) : DeletionTime.LIVE;
    if ((flags & 2) != 0) {
      int n = in.readVarInt();
      tombstones = new ArrayList<>(Math.min(n, 1024));
      for (int i = 0; i < n; i++) {
        tombstones.add(PartitionSerializer.readRangeTombstone(in));
      }
    } else {
      tombstones = List.of();
    }
    rowsStart = in.position();
  }

  @Override
  public void release() {
    if (ownsReader) {
      in.close();
    }
  }

  @Override
  public DecoratedKey key() {
    return key;
  }

  @Override
  public DeletionTime partitionDeletion() {
    loadHeader();
    return deletion;
  }

  @Override
  public List<RangeTombstone> rangeTombstones() {
    loadHeader();
    return tombstones;
  }

  /**
   * Walks the row-index blocks backwards from the one holding the slice's end: each block's
   * rows are read forward into a list (a block is about ROW_INDEX_BLOCK_BYTES) and returned
   * in reverse, so memory stays at one block whatever the partition's size.
   */
  @Override
  public Iterator<Row> rowsDescending(io.cassette.storage.Slice slice) {
    loadHeader();
    byte[] upper = PartitionSource.upperBound(slice);
    int lastBlock = rowIndex == null ? -1 : upper == null ? rowIndex.size() - 1 : rowIndex.lower(upper);
    return new Iterator<>() {
      int block = lastBlock; // -1 is the first block, which starts at rowsStart
      java.util.ArrayList<Row> buffered = new java.util.ArrayList<>();
      int index = -1;
      boolean exhausted;

      private void fill() {
        while (index < 0 && !exhausted) {
          if (block < -1) {
            exhausted = true;
            return;
          }
          long start = block < 0 ? rowsStart : rowIndex.position(block);
          long end = rowIndex != null && block + 1 < rowIndex.size() ? rowIndex.position(block + 1) : Long.MAX_VALUE;
          buffered.clear();
          in.seek(start);
          while (in.position() < end) {
            int length = in.readVarInt();
            if (length == 0) {
              break;
            }
            Row r = PartitionSerializer.readRow(in);
            if (r.clustering().length > 0 && (upper == null || Bytes.compare(r.clustering(), upper) < 0)) {
              buffered.add(r);
            }
          }
          index = buffered.size() - 1;
          block--;
        }
      }

      @Override
      public boolean hasNext() {
        fill();
        return index >= 0;
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        return buffered.get(index--);
      }
    };
  }

  @Override
  public Iterator<Row> rows(byte[] from) {
    loadHeader();
    long start = rowsStart;
    Row staticRow = null;
    int block = rowIndex == null || from.length == 0 ? -1 : rowIndex.floor(from);
    if (block >= 0) {
      // Jump to the block holding `from`; the static row, if any, is the partition's first row.
      in.seek(rowsStart);
      if (in.readVarInt() != 0) {
        int flags = in.readByte();
        byte[] clustering = in.readLengthPrefixed(PartitionSerializer.MAX_VALUE_LENGTH);
        if (clustering.length == 0) {
          staticRow = PartitionSerializer.readRowBody(in, flags, clustering);
        }
      }
      start = rowIndex.position(block);
    }
    in.seek(start);
    Row first = staticRow;
    return new Iterator<>() {
      Row next = first;
      boolean done;

      @Override
      public boolean hasNext() {
        while (next == null && !done) {
          int length = in.readVarInt();
          if (length == 0) {
            done = true;
            break;
          }
          int flags = in.readByte();
          byte[] clustering = in.readLengthPrefixed(PartitionSerializer.MAX_VALUE_LENGTH);
          if (clustering.length > 0 && from.length > 0 && Bytes.compare(clustering, from) < 0) {
            in.skip(length - 1 - PartitionSerializer.varIntSize(clustering.length) - clustering.length);
            continue;
          }
          next = PartitionSerializer.readRowBody(in, flags, clustering);
        }
        return next != null;
      }

      @Override
      public Row next() {
        if (!hasNext()) {
          throw new NoSuchElementException();
        }
        Row r = next;
        next = null;
        return r;
      }
    };
  }

  /**
   * Compaction's raw copy ({@link StoredRows}): the reader placed at the partition's first row
   * (its length prefix), from where the rows are read as stored. The row iterators must not
   * be used afterwards.
   */
  ChunkedFileReader storedRowsReader() {
    loadHeader();
    in.seek(rowsStart);
    return in;
  }
}
