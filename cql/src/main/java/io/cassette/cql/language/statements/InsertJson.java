package io.cassette.cql.language.statements;

import static io.cassette.cql.language.Errors.invalid;

import io.cassette.cql.language.schema.ColumnMetadata;
import io.cassette.cql.language.schema.TableMetadata;
import io.cassette.cql.language.types.Json;
import io.cassette.cql.language.types.Values;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * INSERT JSON: the bound JSON text is one map from column names to JSON values; each column's
 * value is read from it (Cassandra's rules: keys are case-insensitive unless quoted, unknown
 * keys are refused, a missing column is null or, with DEFAULT UNSET, left alone).
 */
final class InsertJson {
  private InsertJson() {}

  /**
   * The value of {@code column} in the map bound to {@code json}.
   *
   * @param checkKeys    refuse keys naming no column (done for one column per statement)
   * @param defaultUnset DEFAULT UNSET: a column missing from the map is unset, not null
   */
  static Value column(TableMetadata table, Value json, ColumnMetadata column, boolean checkKeys,
                      boolean defaultUnset) {
    return ctx -> {
      byte[] j = json.get(ctx);
      if (j == null || j == QueryContext.UNSET) {
        throw invalid("Got null for INSERT JSON values");
      }
      Map<String, Object> m = object(j, ctx.services.statementLimits().get().maxNesting());
      if (checkKeys) {
        for (String k : m.keySet()) {
          String name = k.startsWith("\"") ? k.substring(1, k.length() - 1) : k;
          if (table.column(name) == null) {
            throw invalid("JSON values map contains unrecognized column: " + name);
          }
        }
      }
      String key = m.containsKey(column.name()) ? column.name() : "\"" + column.name() + "\"";
      if (!m.containsKey(key)) {
        return defaultUnset ? QueryContext.UNSET : null;
      }
      return JsonValues.fromJson(column.type(), m.get(key), column.name());
    };
  }

  /** The JSON object of the bound text; unquoted keys lower-cased, as Cassandra folds them. */
  @SuppressWarnings("unchecked")
  static Map<String, Object> object(byte[] j, int maxNesting) {
    Object o = Json.parse(Values.toText(j), maxNesting);
    if (!(o instanceof Map)) {
      throw invalid("Could not decode JSON string as a map: " + Values.toText(j));
    }
    Map<String, Object> m = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : ((Map<String, Object>) o).entrySet()) {
      String k = e.getKey();
      m.put(k.startsWith("\"") ? k : k.toLowerCase(), e.getValue());
    }
    return m;
  }
}
