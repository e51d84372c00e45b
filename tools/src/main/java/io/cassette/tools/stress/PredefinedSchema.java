package io.cassette.tools.stress;

import java.util.Map;

/**
 * The schema of the predefined workloads, the same statements cassandra-stress 5.0 sends:
 * <pre>
 * CREATE KEYSPACE IF NOT EXISTS "keyspace1" WITH replication = {'class':
 *   'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor' : '1'} AND durable_writes = true;
 * CREATE TABLE IF NOT EXISTS keyspace1.standard1 (key blob PRIMARY KEY
 * , "C0" blob ... ) WITH compression = {};
 * CREATE TABLE IF NOT EXISTS keyspace1.counter1 (key blob PRIMARY KEY,
 * , "C0" counter ... ) WITH compression = {};
 * </pre>
 * (the stray comma in counter1 is cassandra-stress's and Cassandra accepts it).
 */
public final class PredefinedSchema {
  private PredefinedSchema() {}

  public static String createKeyspace(StressSettings.SchemaSettings schema) {
    StringBuilder b = new StringBuilder("CREATE KEYSPACE IF NOT EXISTS \"").append(schema.keyspace())
        .append("\" WITH replication = {'class': '").append(schema.strategy()).append('\'');
    if (schema.replication().isEmpty()) {
      b.append(", 'replication_factor': '1'}");
    } else {
      for (Map.Entry<String, String> e : schema.replication().entrySet()) {
        b.append(", '").append(e.getKey()).append("' : '").append(e.getValue()).append('\'');
      }
      b.append('}');
    }
    return b.append(" AND durable_writes = true;\n").toString();
  }

  public static String createStandard1(StressSettings settings) {
    StringBuilder b = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(settings.schema().keyspace())
        .append(".standard1 (key blob PRIMARY KEY ");
    for (String name : settings.columns().names()) {
      b.append("\n, \"").append(name).append("\" blob");
    }
    return withOptions(b, settings.schema());
  }

  public static String createCounter1(StressSettings settings) {
    StringBuilder b = new StringBuilder("CREATE TABLE IF NOT EXISTS ").append(settings.schema().keyspace())
        .append(".counter1 (key blob PRIMARY KEY,");
    for (String name : settings.columns().names()) {
      b.append("\n, \"").append(name).append("\" counter");
    }
    return withOptions(b, settings.schema());
  }

  private static String withOptions(StringBuilder b, StressSettings.SchemaSettings schema) {
    b.append(") WITH compression = {");
    if (schema.compression() != null) {
      b.append("'class' : '").append(schema.compression()).append('\'');
    }
    return b.append("};\n").toString();
  }
}
