package io.cassette.cql.language.statements;

import io.cassette.cql.language.schema.TableMetadata;

/** Where a statement reads a table from, for one request (its consistency level). */
@FunctionalInterface
interface TableSource {
  TableReader open(TableMetadata table, QueryContext ctx);
}
