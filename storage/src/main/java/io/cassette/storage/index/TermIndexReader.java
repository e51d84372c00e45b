package io.cassette.storage.index;

import io.cassette.storage.Bytes;
import java.nio.file.Path;
import java.util.BitSet;

/**
 * The terms component of one SSTable: a lookup reads the terms from the summary entry at or
 * before its lower bound up to its upper bound and sets the row ids of their postings in a
 * bitset (one bit per indexed row of the SSTable), which then yields rows in primary-key order.
 * The summary (every {@link IndexComponent#SUMMARY_INTERVAL}-th term) is the only part held
 * in the heap. Thread-safe.
 */
final class TermIndexReader extends ComponentReader {
  private final byte[][] summaryTerms;
  private final long[] summaryOffsets;

  TermIndexReader(Path path) {
    super(path);
    summaryTerms = new byte[summaryCount][];
    summaryOffsets = new long[summaryCount];
    IndexInput in = input();
    in.seek(summaryAt);
    for (int i = 0; i < summaryCount; i++) {
      summaryTerms[i] = in.lengthPrefixed();
      summaryOffsets[i] = in.long8();
    }
  }

  /** The row ids whose rows hold a term {@code e} admits. */
  BitSet search(IndexExpression e) {
    BitSet rows = new BitSet(rowCount);
    if (termCount == 0) {
      return rows;
    }
    int s = 0;
    if (e.lower() != null) {
      // last summary term <= lower
      int lo = 0;
      int hi = summaryCount - 1;
      while (lo < hi) {
        int mid = (lo + hi + 1) >>> 1;
        if (Bytes.compare(summaryTerms[mid], e.lower()) <= 0) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      s = lo;
    }
    IndexInput in = input();
    in.seek(summaryOffsets[s]);
    long read = (long) s * IndexComponent.SUMMARY_INTERVAL;
    while (read < termCount) {
      byte[] term = in.lengthPrefixed();
      read++;
      if (e.pastUpper(term)) {
        break;
      }
      int count = in.vint();
      boolean take = e.admits(term);
      int row = 0;
      for (int i = 0; i < count; i++) {
        row += in.vint();
        if (take) {
          rows.set(row);
        }
      }
    }
    return rows;
  }
}
