package io.cassette.cql.language.statements;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.Result;
import java.util.List;

/** A statement compiled against one schema snapshot, ready to run many times. Thread-safe. */
public interface Executable {
  Result execute(QueryContext ctx);

  /** The bind markers' receivers, in marker order. */
  List<ColumnSpec> variables();

  /** The columns of the rows it returns (empty for writes and DDL). */
  default List<ColumnSpec> resultColumns() {
    return List.of();
  }

  /** For each partition key column, the index of the marker binding it; empty if not all bound. */
  default int[] partitionKeyIndexes() {
    return new int[0];
  }
}
