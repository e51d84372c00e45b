package io.cassette.storage.index;

import io.cassette.storage.Cell;
import io.cassette.storage.Row;
import io.cassette.storage.DecoratedKey;
import java.util.Arrays;

/**
 * Writes the terms component of one SSTable for one index (format in {@link IndexComponent}).
 * Rows stream to the file as they come; (term, row id) pairs are held in flat arrays (a few
 * bytes per indexed value, no object per value) and sorted once at the end. Not thread-safe.
 */
final class TermIndexWriter implements SegmentWriter {
  private final IndexDefinition def;
  private final RowTableWriter rows;
  private byte[] arena = new byte[64 * 1024];
  private int arenaUsed;
  private int[] termStart = new int[1024];
  private int[] termRow = new int[1024];
  private int pairs;

  TermIndexWriter(IndexDefinition def, IndexOutput out) {
    this.def = def;
    this.rows = new RowTableWriter(out, IndexComponent.KIND_TERMS);
  }

  @Override
  public void row(DecoratedKey partition, Row row) {
    int id = -1;
    for (Cell c : row.cells()) {
      if (c.isTombstone() || !c.column().equals(def.column())) {
        continue;
      }
      int[] rowId = {id};
      def.extractor().terms(c, term -> {
        if (rowId[0] < 0) {
          rowId[0] = rows.add(new PrimaryKey(partition, row.clustering()));
        }
        add(term, rowId[0]);
      });
      id = rowId[0];
    }
  }

  private void add(byte[] term, int row) {
    if (pairs == termStart.length) {
      termStart = Arrays.copyOf(termStart, pairs * 2);
      termRow = Arrays.copyOf(termRow, pairs * 2);
    }
    // terms are stored length-prefixed (4 bytes) in the arena
    int need = 4 + term.length;
    if (arenaUsed + need > arena.length) {
      arena = Arrays.copyOf(arena, Math.max(arena.length * 2, arenaUsed + need));
    }
    int at = arenaUsed;
    arena[at] = (byte) (term.length >>> 24);
    arena[at + 1] = (byte) (term.length >>> 16);
    arena[at + 2] = (byte) (term.length >>> 8);
    arena[at + 3] = (byte) term.length;
    System.arraycopy(term, 0, arena, at + 4, term.length);
    arenaUsed += need;
    termStart[pairs] = at;
    termRow[pairs] = row;
    pairs++;
  }

  private int termLength(int pair) {
    int at = termStart[pair];
    return (arena[at] & 0xFF) << 24 | (arena[at + 1] & 0xFF) << 16 | (arena[at + 2] & 0xFF) << 8 | (arena[at + 3] & 0xFF);
  }

  private int compare(int a, int b) {
    int c = Arrays.compareUnsigned(arena, termStart[a] + 4, termStart[a] + 4 + termLength(a),
        arena, termStart[b] + 4, termStart[b] + 4 + termLength(b));
    return c != 0 ? c : Integer.compare(termRow[a], termRow[b]);
  }

  @Override
  public void finish() {
    rows.endRows();
    int[] order = new int[pairs];
    for (int i = 0; i < pairs; i++) {
      order[i] = i;
    }
    sort(order, new int[pairs], 0, pairs);
    IndexOutput out = rows.out;
    long bodyAt = out.position();
    // first pass: terms and postings; summary entries remembered for the second
    int summaryCount = 0;
    byte[][] summaryTerms = new byte[16][];
    long[] summaryOffsets = new long[16];
    long terms = 0;
    int i = 0;
    while (i < pairs) {
      int j = i + 1;
      while (j < pairs && sameTerm(order[i], order[j])) {
        j++;
      }
      byte[] term = Arrays.copyOfRange(arena, termStart[order[i]] + 4, termStart[order[i]] + 4 + termLength(order[i]));
      if (terms % IndexComponent.SUMMARY_INTERVAL == 0) {
        if (summaryCount == summaryTerms.length) {
          summaryTerms = Arrays.copyOf(summaryTerms, summaryCount * 2);
          summaryOffsets = Arrays.copyOf(summaryOffsets, summaryCount * 2);
        }
        summaryTerms[summaryCount] = term;
        summaryOffsets[summaryCount++] = out.position();
      }
      out.lengthPrefixed(term);
      int distinct = 0;
      int prev = -1;
      for (int k = i; k < j; k++) {
        if (termRow[order[k]] != prev) {
          distinct++;
          prev = termRow[order[k]];
        }
      }
      out.vint(distinct);
      prev = -1;
      int base = 0;
      for (int k = i; k < j; k++) {
        int row = termRow[order[k]];
        if (row != prev) {
          out.vint(row - base);
          base = row;
          prev = row;
        }
      }
      terms++;
      i = j;
    }
    long summaryAt = out.position();
    for (int s = 0; s < summaryCount; s++) {
      out.lengthPrefixed(summaryTerms[s]);
      out.long8(summaryOffsets[s]);
    }
    arena = null;
    rows.finish(bodyAt, summaryAt, summaryCount, terms);
  }

  private boolean sameTerm(int a, int b) {
    int la = termLength(a);
    return la == termLength(b) && Arrays.equals(arena, termStart[a] + 4, termStart[a] + 4 + la,
        arena, termStart[b] + 4, termStart[b] + 4 + la);
  }

  /** Merge sort of pair numbers by (term, row): no boxing, stable. */
  private void sort(int[] a, int[] tmp, int from, int to) {
    if (to - from < 16) {
      for (int i = from + 1; i < to; i++) {
        int v = a[i];
        int j = i - 1;
        while (j >= from && compare(a[j], v) > 0) {
          a[j + 1] = a[j];
          j--;
        }
        a[j + 1] = v;
      }
      return;
    }
    int mid = (from + to) >>> 1;
    sort(a, tmp, from, mid);
    sort(a, tmp, mid, to);
    if (compare(a[mid - 1], a[mid]) <= 0) {
      return;
    }
    System.arraycopy(a, from, tmp, from, to - from);
    int i = from;
    int j = mid;
    for (int k = from; k < to; k++) {
      if (j >= to || (i < mid && compare(tmp[i], tmp[j]) <= 0)) {
        a[k] = tmp[i++];
      } else {
        a[k] = tmp[j++];
      }
    }
  }

}
