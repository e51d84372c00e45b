package io.cassette.storage.sstable;

import io.cassette.storage.Bytes;
import io.cassette.storage.Row;
import io.cassette.storage.StorageException;
import io.cassette.storage.io.ByteArrayReader;
import io.cassette.storage.partition.PartitionSerializer;
import io.cassette.storage.partition.PartitionSource;
import io.cassette.storage.partition.RowCursor;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * The rows of one SSTable partition as they are stored, one at a time, for compaction to copy
 * a row it would not change as its bytes ({@link SSTableWriter#rowAsStored}) instead of
 * decoding it into a {@code Row} and encoding it again (a fifth of a compaction's samples went
 * to row decoding). {@link #cursor()} reads the current row's fields in place, for the checks
 * and for the digest and statistics the writer keeps; {@link #decode()} builds the row for
 * those that must be merged or purged. Not thread-safe; one per partition.
 */
public final class StoredRows {
  private ChunkedFileReader in;
  private byte[] body = new byte[256];
  private int length;
  private final Cursor cursor = new Cursor();

  /**
   * Starts on the stored rows of {@code source} from its first row on; false (and nothing to
   * read) when it is not a partition read from an SSTable: the caller then merges its rows as
   * usual. The source's row iterators must not be used afterwards. One instance serves a
   * compaction's partitions in turn.
   */
  public boolean open(PartitionSource source) {
    in = source instanceof SSTablePartition p ? p.storedRowsReader() : null;
    return in != null;
  }

  /** Moves to the next row; false after the last. */
  public boolean next() {
    int n = in.readVarInt();
    if (n == 0) {
      return false;
    }
    if (n < 0 || n > PartitionSerializer.MAX_VALUE_LENGTH) {
      throw new StorageException("malformed row length: " + (n & 0xFFFFFFFFL));
    }
    if (n > body.length) {
      body = new byte[Math.max(n, body.length * 2)];
    }
    in.readFully(body, 0, n);
    length = n;
    cursor.rewind();
    return true;
  }

  /** The current row's fields, at its first cell (rewound by each call). */
  public RowCursor cursor() {
    cursor.rewind();
    return cursor;
  }

  /** The current row's clustering (a copy; the shared empty array for a static row). */
  public byte[] clustering() {
    return cursor.clustering();
  }

  /** The current row, decoded. */
  public Row decode() {
    return PartitionSerializer.readRow(new ByteArrayReader(body, 0, length));
  }

  /** The current row's stored bytes (after its length prefix): {@link #length()} of them from 0. */
  byte[] body() {
    return body;
  }

  int length() {
    return length;
  }

  /**
   * Reads a stored row (docs/format/rows.md) in place. Column names are given as bytes in
   * {@link RowCursor#in} ({@link RowCursor#nameOffset}); {@link #columnName()} decodes one
   * only when asked.
   */
  private final class Cursor extends RowCursor {
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private int clusteringOffset;
    private int clusteringLength;
    private int firstCell;
    private int pos;
    private int read;
    private long previous;

    void rewind() {
      in = body;
      int p = 0;
      int rowFlags = body[p++] & 0xFF;
      clusteringLength = varInt(p);
      p += PartitionSerializer.varIntSize(clusteringLength);
      clusteringOffset = p;
      p += clusteringLength;
      if ((rowFlags & 1) != 0) {
        livenessTimestamp = longAt(p);
        p += 8;
        livenessTtl = varInt(p);
        p += PartitionSerializer.varIntSize(livenessTtl);
        if (livenessTtl > 0) {
          livenessExpiration = longAt(p);
          p += 8;
        } else {
          livenessExpiration = Long.MAX_VALUE;
        }
      } else {
        livenessTimestamp = NO_TIMESTAMP;
        livenessTtl = 0;
        livenessExpiration = Long.MAX_VALUE;
      }
      if ((rowFlags & 2) != 0) {
        deletedAt = longAt(p);
        deletionTime = longAt(p + 8);
        p += 16;
      } else {
        deletedAt = Long.MIN_VALUE;
        deletionTime = Long.MAX_VALUE;
      }
      cellCount = varInt(p);
      p += PartitionSerializer.varIntSize(cellCount);
      firstCell = p;
      pos = p;
      read = 0;
      previous = livenessTimestamp;
    }

    byte[] clustering() {
      if (clusteringLength == 0) {
        return Bytes.EMPTY;
      }
      return java.util.Arrays.copyOfRange(body, clusteringOffset, clusteringOffset + clusteringLength);
    }

    @Override
    public boolean next() {
      if (read == cellCount) {
        return false;
      }
      read++;
      int p = pos;
      flags = body[p++] & 0xFF; // TOMBSTONE, EXPIRING, HAS_PATH share the stored flags' bits; 8 = shared timestamp
      nameLength = varInt(p);
      p += PartitionSerializer.varIntSize(nameLength);
      nameOffset = p;
      p += nameLength;
      if ((flags & HAS_PATH) != 0) {
        pathLength = varInt(p);
        p += PartitionSerializer.varIntSize(pathLength);
        pathOffset = p;
        p += pathLength;
      } else {
        pathOffset = -1;
        pathLength = 0;
      }
      if ((flags & 8) != 0) {
        if (previous == NO_TIMESTAMP) {
          throw new StorageException("malformed cell: shares a timestamp with nothing before it");
        }
        timestamp = previous;
      } else {
        timestamp = longAt(p);
        p += 8;
      }
      ttl = 0;
      localDeletionTime = Long.MAX_VALUE;
      if ((flags & EXPIRING) != 0) {
        ttl = varInt(p);
        p += PartitionSerializer.varIntSize(ttl);
        localDeletionTime = longAt(p);
        p += 8;
      } else if ((flags & TOMBSTONE) != 0) {
        localDeletionTime = longAt(p);
        p += 8;
      }
      if ((flags & TOMBSTONE) == 0) {
        valueLength = varInt(p);
        p += PartitionSerializer.varIntSize(valueLength);
        valueOffset = p;
        p += valueLength;
      } else {
        valueOffset = -1;
        valueLength = 0;
      }
      if (p > length) {
        throw new StorageException("malformed row: its cells run past its length (" + length + " bytes)");
      }
      previous = timestamp;
      pos = p;
      return true;
    }

    @Override
    public String columnName() {
      return new String(body, nameOffset, nameLength, StandardCharsets.UTF_8);
    }

    private long longAt(int p) {
      return (long) LONG.get(body, p);
    }

    /** A varint as DataWriter writes it (at most 5 bytes for an int). */
    private int varInt(int p) {
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int b = body[p++];
        v |= (b & 0x7F) << shift;
        if (b >= 0) {
          return v;
        }
      }
      throw new StorageException("malformed varint in a stored row");
    }
  }
}
