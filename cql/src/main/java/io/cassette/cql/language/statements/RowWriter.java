package io.cassette.cql.language.statements;

import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.storage.Cell;
import io.cassette.storage.Row;
import java.util.ArrayList;
import java.util.List;

/**
 * Builds the cells of one row (and of the static row) for one execution of an INSERT, UPDATE
 * or DELETE; the {@link ColumnOperation}s write into it. {@code current} and
 * {@code currentStatic} hold the rows read before writing, when an operation needs them.
 */
final class RowWriter {
  final QueryContext ctx;
  final long ts;
  final int ttl;
  final long now;
  Row current;
  Row currentStatic;
  final List<Cell> cells;
  /** Made at the first static cell: most writes have none. */
  private List<Cell> staticCells;

  /** @param expectedCells the row's cells as far as known (the statement's operations): the list is made that size */
  RowWriter(QueryContext ctx, long ts, int ttl, long now, int expectedCells) {
    this.cells = new ArrayList<>(expectedCells);
    this.ctx = ctx;
    this.ts = ts;
    this.ttl = ttl;
    this.now = now;
  }

  List<Cell> target(ColumnMetadata c) {
    if (!c.isStatic()) {
      return cells;
    }
    if (staticCells == null) {
      staticCells = new ArrayList<>();
    }
    return staticCells;
  }

  /** The static cells written, possibly none. */
  List<Cell> staticCells() {
    return staticCells == null ? List.of() : staticCells;
  }

  Row currentOf(ColumnMetadata c) {
    return c.isStatic() ? currentStatic : current;
  }

  void live(ColumnMetadata c, byte[] path, byte[] value) {
    target(c).add(CellCodec.cell(c.name(), path, value, ts, ttl, now));
  }

  void tombstone(ColumnMetadata c, byte[] path, long at) {
    Cell t = Cell.tombstone(c.name(), at, now);
    target(c).add(path == null ? t : t.withPath(path));
  }

  /** Tombstones every existing element of a multi-cell column just below {@code ts}. */
  void clearElements(ColumnMetadata c, long at) {
    for (Cell e : CellCodec.elements(currentOf(c), c.name())) {
      tombstone(c, e.path(), at);
    }
  }
}
