package io.cassette.cql.language.statements;

import io.cassette.cql.language.schema.ColumnMetadata;
import java.util.function.Consumer;

/** One compiled change to one column of an INSERT, UPDATE or DELETE. */
interface ColumnOperation {
  ColumnMetadata column();

  /** Whether the operation needs the current row (collection overwrite, list index, counters). */
  boolean needsRead();

  void apply(RowWriter w);

  static ColumnOperation of(ColumnMetadata column, boolean needsRead, Consumer<RowWriter> body) {
    return new Simple(column, needsRead, body);
  }

  /** An operation whose body is a lambda over the row being written. */
  record Simple(ColumnMetadata column, boolean needsRead, Consumer<RowWriter> body) implements ColumnOperation {
    @Override
    public void apply(RowWriter w) {
      body.accept(w);
    }
  }
}
