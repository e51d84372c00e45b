package io.cassette.cql;

/** One column of result or bind-variable metadata. */
public record ColumnSpec(String keyspace, String table, String name, CqlType type) {}
