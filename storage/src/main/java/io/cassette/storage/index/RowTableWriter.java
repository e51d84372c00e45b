package io.cassette.storage.index;

import java.util.Arrays;

/**
 * The part every index component starts with: the header, then the rows it indexes in
 * primary-key order (a row's id is its position), then the offsets that map a row id back to
 * its key. REQUIRES: rows added in strictly increasing primary-key order.
 */
final class RowTableWriter {
  final IndexOutput out;
  private long[] offsets = new long[1024];
  private int rows;
  private long rowOffsetsAt = -1;

  RowTableWriter(IndexOutput out, byte kind) {
    this.out = out;
    out.int4(IndexComponent.MAGIC);
    out.int4(IndexComponent.VERSION);
    out.byte1(kind);
  }

  /** Appends a row; returns its id. */
  int add(PrimaryKey key) {
    if (rows == offsets.length) {
      offsets = Arrays.copyOf(offsets, rows * 2);
    }
    offsets[rows] = out.position();
    out.long8(key.partition().token());
    out.lengthPrefixed(key.partition().key());
    out.lengthPrefixed(key.clustering());
    return rows++;
  }

  int rows() {
    return rows;
  }

  /** Writes the row offsets; the body follows. */
  void endRows() {
    rowOffsetsAt = out.position();
    for (int i = 0; i < rows; i++) {
      out.long8(offsets[i]);
    }
    offsets = null;
  }

  long rowOffsetsAt() {
    return rowOffsetsAt;
  }

  /** Writes the trailer and completes the file. */
  void finish(long bodyAt, long summaryAt, int summaryCount, long termCount) {
    out.int4(rows);
    out.long8(rowOffsetsAt);
    out.long8(bodyAt);
    out.long8(summaryAt);
    out.int4(summaryCount);
    out.long8(termCount);
    out.finish();
  }
}
