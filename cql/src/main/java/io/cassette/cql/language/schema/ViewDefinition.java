package io.cassette.cql.language.schema;

import java.util.UUID;

/**
 * What makes a table a materialized view: the base table it follows (by name and id, as
 * system_schema.views lists them), whether it selected every base column ({@code SELECT *}:
 * columns added to the base later are added to it too) and its WHERE clause as Cassandra prints
 * it ({@code where_clause}: each relation with single spaces, joined by AND). The view's own
 * columns, key and options are those of the {@link TableMetadata} that carries this.
 */
public record ViewDefinition(String baseTable, UUID baseTableId, boolean includeAllColumns, String whereClause) {}
