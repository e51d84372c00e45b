package io.cassette.cql.language.statements;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.CqlType;

/** What a term is assigned to: a column, a collection element, a limit... with its type. */
public record Receiver(String keyspace, String table, String name, CqlType type) {
  public ColumnSpec spec() {
    return new ColumnSpec(keyspace, table, name, type);
  }

  public Receiver named(String newName, CqlType newType) {
    return new Receiver(keyspace, table, newName, newType);
  }
}
