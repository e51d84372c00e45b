package io.cassette.storage.sstable;

import io.cassette.storage.Bytes;
import io.cassette.storage.io.DataReader;
import io.cassette.storage.partition.PartitionSerializer;

/**
 * The row index of one large partition: the first clustering and data position of each
 * block of rows after the first (layout in {@link SSTableDescriptor}). Immutable.
 */
final class RowIndex {
  private final byte[][] firstClusterings;
  private final long[] positions;

  private RowIndex(byte[][] firstClusterings, long[] positions) {
    this.firstClusterings = firstClusterings;
    this.positions = positions;
  }

  /** Reads a row index; null when the partition has a single block. */
  static RowIndex read(DataReader in) {
    int count = in.readVarInt();
    if (count == 0) {
      return null;
    }
    if (count < 0 || count > PartitionSerializer.MAX_VALUE_LENGTH) {
      throw new io.cassette.storage.StorageException("malformed row index of " + count + " blocks");
    }
    byte[][] clusterings = new byte[count][];
    long[] positions = new long[count];
    for (int i = 0; i < count; i++) {
      clusterings[i] = in.readLengthPrefixed(PartitionSerializer.MAX_VALUE_LENGTH);
      positions[i] = in.readVarLong();
    }
    return new RowIndex(clusterings, positions);
  }

  static void skip(DataReader in) {
    int count = in.readVarInt();
    for (int i = 0; i < count; i++) {
      in.skip(in.readVarInt());
      in.readVarLong();
    }
  }

  /** The last block whose first clustering is {@code <= clustering}, or -1 (the first block). */
  int floor(byte[] clustering) {
    int lo = 0;
    int hi = firstClusterings.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Bytes.compare(firstClusterings[mid], clustering) <= 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** The last block whose first clustering is {@code < clustering}, or -1 (the first block). */
  int lower(byte[] clustering) {
    int lo = 0;
    int hi = firstClusterings.length - 1;
    int found = -1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (Bytes.compare(firstClusterings[mid], clustering) < 0) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** Blocks after the first. */
  int size() {
    return positions.length;
  }

  long position(int block) {
    return positions[block];
  }
}
