package io.cassette.cql;

import java.nio.ByteBuffer;
import java.util.List;

/** The RESULT kinds of the native protocol, as the language layer produces them. */
public sealed interface Result {

  record Void() implements Result {
    public static final Void INSTANCE = new Void();
  }

  /**
   * Rows with their metadata; each row holds one serialized value per column (null for a
   * null cell). {@code pagingState} is non-null when more pages follow.
   */
  record Rows(List<ColumnSpec> columns, List<List<ByteBuffer>> rows, ByteBuffer pagingState)
      implements Result {}

  record SetKeyspace(String keyspace) implements Result {}

  /**
   * A prepared statement. {@code resultMetadataId} (v5) changes whenever
   * {@code resultColumns} change, so drivers refresh their metadata.
   *
   * @param partitionKeyIndexes for each partition key column, the index of its bind marker
   *                            (empty when they are not all bound)
   */
  record Prepared(byte[] id, byte[] resultMetadataId, List<ColumnSpec> variables,
                  int[] partitionKeyIndexes, List<ColumnSpec> resultColumns) implements Result {}

  /**
   * A schema change, also pushed as an EVENT to registered connections.
   *
   * @param change    CREATED, UPDATED or DROPPED
   * @param target    KEYSPACE, TABLE, TYPE, FUNCTION or AGGREGATE
   * @param name      the table/type/function name; null for KEYSPACE
   * @param argumentTypes function/aggregate argument types; empty otherwise
   */
  record SchemaChange(String change, String target, String keyspace, String name,
                      List<String> argumentTypes) implements Result {}
}
