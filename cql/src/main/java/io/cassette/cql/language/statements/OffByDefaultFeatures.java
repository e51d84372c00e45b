package io.cassette.cql.language.statements;

/**
 * The refusals of Cassandra 5.0 features that its cassandra.yaml ships off, with its texts:
 * materialized views ({@code materialized_views_enabled}: CREATE refused, see
 * {@link ViewStatements}), dynamic data masking ({@code dynamic_data_masking_enabled}: MASKED
 * WITH refused) and user-defined functions ({@code user_defined_functions_enabled}).
 */
final class OffByDefaultFeatures {
  static final String UDF_DISABLED = "User-defined functions are disabled in cassandra.yaml -"
      + " set user_defined_functions_enabled=true to enable";
  static final String VIEWS_DISABLED = "Materialized views are disabled. Enable in cassandra.yaml to use.";
  static final String MASKING_DISABLED = "Cannot mask columns because dynamic data masking is not enabled."
      + " You can enable it with the dynamic_data_masking_enabled property on cassandra.yaml";

  private OffByDefaultFeatures() {}
}
