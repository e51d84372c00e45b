package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.ColumnSpec;
import io.cassette.cql.Result;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.schema.Schema;
import java.util.List;

/**
 * Materialized views and dynamic data masking: Cassandra 5.0 ships them off
 * ({@code materialized_views_enabled}, {@code dynamic_data_masking_enabled} false), and Cassette
 * does not build views yet; masking is built ({@link io.cassette.cql.language.schema.ColumnMask}) and
 * refused here only while off. Each statement gets the answer Cassandra 5.0.4 gives with the feature off
 * (checked against the anchor started with its default cassandra.yaml): the refusal, or, for the
 * DROP/ALTER of what cannot exist, its "doesn't exist" (nothing at all with IF EXISTS).
 * User-defined functions are real ({@link FunctionStatements}); their refusal text is here.
 */
final class OffByDefaultFeatures {
  static final String UDF_DISABLED = "User-defined functions are disabled in cassandra.yaml -"
      + " set user_defined_functions_enabled=true to enable";
  static final String VIEWS_DISABLED = "Materialized views are disabled. Enable in cassandra.yaml to use.";
  static final String MASKING_DISABLED = "Cannot mask columns because dynamic data masking is not enabled."
      + " You can enable it with the dynamic_data_masking_enabled property on cassandra.yaml";

  private OffByDefaultFeatures() {}

  static Executable compile(Statement.OffByDefault s, Schema schema, String current) {
    String ks = s.name().keyspace() != null ? s.name().keyspace() : current;
    String qualified = ks + "." + s.name().name();
    switch (s.what()) {
      case "CREATE VIEW" -> {
        String baseKs = s.other().keyspace() != null ? s.other().keyspace() : ks;
        if (baseKs != null && !baseKs.equals(ks)) {
          throw invalid("Cannot create a materialized view on a table in a different keyspace");
        }
        throw invalid(VIEWS_DISABLED);
      }
      case "ALTER VIEW" -> {
        if (s.ifExists()) {
          return done();
        }
        throw invalid("Materialized view '" + qualified + "' doesn't exist");
      }
      default -> {
        if (s.ifExists()) {
          return done();
        }
        throw invalid("Materialized view '" + qualified + "' doesn't exist");
      }
    }
  }

  private static Executable done() {
    return new Executable() {
      public Result execute(QueryContext ctx) {
        return Result.Void.INSTANCE;
      }

      public List<ColumnSpec> variables() {
        return List.of();
      }
    };
  }
}
