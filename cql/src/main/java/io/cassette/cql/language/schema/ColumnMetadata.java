package io.cassette.cql.language.schema;

import io.cassette.cql.CqlType;

/**
 * One column of a table. {@code position} is the index inside the partition key or the
 * clustering key (-1 for regular and static columns), as system_schema.columns shows it.
 */
public record ColumnMetadata(String name, CqlType type, Kind kind, int position, boolean descending) {
  public enum Kind {
    PARTITION_KEY("partition_key"), CLUSTERING("clustering"), REGULAR("regular"), STATIC("static");

    public final String schemaName;

    Kind(String schemaName) {
      this.schemaName = schemaName;
    }
  }

  public boolean isPrimaryKey() {
    return kind == Kind.PARTITION_KEY || kind == Kind.CLUSTERING;
  }

  public boolean isStatic() {
    return kind == Kind.STATIC;
  }
}
