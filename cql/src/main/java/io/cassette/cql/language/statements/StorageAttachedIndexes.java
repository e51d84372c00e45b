package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.CqlType;
import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.IndexMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import java.util.List;
import java.util.Locale;

/**
 * Cassandra 5.0's rules for creating a Storage-Attached Index ({@code USING 'sai'} or
 * {@code 'StorageAttachedIndex'}). What Cassette does with one: equality and CONTAINS /
 * CONTAINS KEY go through the entries of {@link SecondaryIndexes}; ranges on non-text columns
 * are accepted without ALLOW FILTERING and answered by a filtered scan; a vector column's
 * index enables {@code ORDER BY v ANN OF [...] LIMIT k} ({@link SelectStatement}), answered
 * exactly over the rows selected.
 */
final class StorageAttachedIndexes {
  /** The similarity functions a vector index accepts, in Cassandra's order for its message. */
  static final List<String> SIMILARITY_FUNCTIONS = List.of("EUCLIDEAN", "DOT_PRODUCT", "COSINE");

  /** Cassandra 5.0.4's warning on creating a vector index, word for word. */
  static final String VECTOR_WARNING = "SAI ANN indexes on vector columns are experimental and are not"
      + " recommended for production use.\nThey don't yet support SELECT queries with:\n"
      + " * Consistency level higher than ONE/LOCAL_ONE.\n * Paging.\n * No LIMIT clauses.\n"
      + " * PER PARTITION LIMIT clauses.\n * GROUP BY clauses.\n * Aggregation functions.\n"
      + " * Filters on columns without a SAI index.";

  private StorageAttachedIndexes() {}

  /** Refuses what Cassandra refuses; warns as it does for vector indexes. */
  static void validate(TableMetadata t, ColumnMetadata c, String givenName, IndexMetadata created) {
    String target = created.options().get("target");
    for (IndexMetadata other : t.indexes.values()) {
      if (SecondaryIndexes.isSai(other) && target.equals(other.options().get("target"))) {
        throw invalid("Cannot create more than one storage-attached index on the same column: " + c.name());
      }
    }
    String similarity = created.options().get("similarity_function");
    if (similarity != null && !SIMILARITY_FUNCTIONS.contains(similarity.toUpperCase(Locale.ROOT))) {
      throw invalid("Similarity function " + similarity.toUpperCase(Locale.ROOT) + " was not recognized for index "
          + givenName + ". Valid values are: " + String.join(", ", SIMILARITY_FUNCTIONS));
    }
    if (c.type() instanceof CqlType.VectorType) {
      io.cassette.cql.ClientWarnings.add(VECTOR_WARNING);
    }
  }
}
