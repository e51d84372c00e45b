package io.cassette.storage.sstable;

import io.cassette.storage.Bytes;
import io.cassette.storage.DecoratedKey;
import io.cassette.storage.KeyRange;
import io.cassette.storage.partition.PartitionSerializer;
import io.cassette.storage.partition.PartitionSource;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * Iterates the partitions of one SSTable inside a key range, in order, walking the index
 * and reading each partition lazily. A partition must be consumed before the next one is
 * requested (they share one data reader). Not thread-safe.
 */
public final class SSTableScanner implements Iterator<PartitionSource>, AutoCloseable {
  private final ChunkedFileReader index;
  private final ChunkedFileReader data;
  private final KeyRange range;
  private PartitionSource next;
  private long nextIndexPosition = -1;
  private long indexPosition = -1;
  private boolean done;

  SSTableScanner(SSTableReader reader, long indexStart, KeyRange range) {
    this.index = reader.indexReader();
    this.data = reader.dataReader();
    this.range = range;
    index.seek(indexStart);
  }

  @Override
  public boolean hasNext() {
    while (next == null && !done) {
      if (index.atEnd()) {
        done = true;
        break;
      }
      long entryPosition = index.position();
      long token = index.readLong();
      byte[] key = index.readLengthPrefixed(PartitionSerializer.MAX_VALUE_LENGTH);
      long position = index.readVarLong();
      RowIndex rowIndex = RowIndex.read(index);
      if (token > range.endToken()) {
        done = true;
        break;
      }
      DecoratedKey after = range.after();
      if (after != null) {
        int c = Long.compare(token, after.token());
        if (c == 0 && after.key() != null) {
          c = Bytes.compare(key, after.key());
        } else if (c == 0) {
          c = -1; // a token-only bound excludes its whole token
        }
        if (c <= 0) {
          continue;
        }
      }
      next = new SSTablePartition(data, new DecoratedKey(token, key), position, rowIndex, false);
      nextIndexPosition = entryPosition;
    }
    return next != null;
  }

  /** Returns the readers' buffers; the scanner must not be used afterwards. */
  @Override
  public void close() {
    if (!closed) {
      closed = true;
      done = true;
      index.close();
      data.close();
    }
  }

  private boolean closed;

  @Override
  public PartitionSource next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    PartitionSource p = next;
    next = null;
    indexPosition = nextIndexPosition;
    return p;
  }

  /**
   * Where the Index.db entry of the partition {@link #next} returned last is (as
   * {@link DigestFileReader#indexPosition}); -1 before the first.
   */
  public long indexPosition() {
    return indexPosition;
  }
}
