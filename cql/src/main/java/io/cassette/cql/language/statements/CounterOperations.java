package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.types.Values;
import io.cassette.storage.Cell;
import io.cassette.storage.Row;

/**
 * Counter updates ({@code SET c = c + ?}): read the current value and write the sum. The
 * coordinator serialises counter writes per partition (readModifyWrite), so the read and the
 * write see no other increment in between.
 */
final class CounterOperations {
  private CounterOperations() {}

  /** Adds (or subtracts) the bound delta to the counter's current value. */
  static ColumnOperation increment(ColumnMetadata c, Value v, boolean add) {
    return ColumnOperation.of(c, true, w -> {
      byte[] d = v.get(w.ctx);
      if (d == null) {
        throw invalid("Invalid null value for counter increment");
      }
      if (d == QueryContext.UNSET) {
        return;
      }
      long delta = Values.toLong(d);
      Row cur = w.currentOf(c);
      Cell cell = cur == null ? null : cur.cell(c.name());
      long base = cell == null || cell.isTombstone() ? 0 : Values.toLong(cell.value());
      long next = add ? base + delta : base - delta;
      // A later timestamp than the cell read, so the new total wins even within one microsecond.
      long ts = Math.max(w.ts, cell == null ? Long.MIN_VALUE : cell.timestamp() + 1);
      w.target(c).add(Cell.live(c.name(), Values.ofLong(next), ts));
    });
  }
}
