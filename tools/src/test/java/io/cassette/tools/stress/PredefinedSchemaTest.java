package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PredefinedSchemaTest {

  @Test
  void sameStatementsAsCassandraStress() {
    StressSettings s = StressSettingsParser.parse("write", "n=1");
    assertThat(PredefinedSchema.createKeyspace(s.schema())).isEqualTo(
        "CREATE KEYSPACE IF NOT EXISTS \"keyspace1\" WITH replication = {'class': "
            + "'org.apache.cassandra.locator.SimpleStrategy', 'replication_factor' : '1'} AND durable_writes = true;\n");
    assertThat(PredefinedSchema.createStandard1(s)).isEqualTo(
        "CREATE TABLE IF NOT EXISTS keyspace1.standard1 (key blob PRIMARY KEY \n, \"C0\" blob\n, \"C1\" blob"
            + "\n, \"C2\" blob\n, \"C3\" blob\n, \"C4\" blob) WITH compression = {};\n");
    assertThat(PredefinedSchema.createCounter1(s)).isEqualTo(
        "CREATE TABLE IF NOT EXISTS keyspace1.counter1 (key blob PRIMARY KEY,\n, \"C0\" counter\n, \"C1\" counter"
            + "\n, \"C2\" counter\n, \"C3\" counter\n, \"C4\" counter) WITH compression = {};\n");
  }

  @Test
  void replicationAndCompressionOptions() {
    StressSettings s = StressSettingsParser.parse("write", "n=1", "-schema", "replication(factor=3)",
        "keyspace=ks", "compression=LZ4Compressor");
    assertThat(PredefinedSchema.createKeyspace(s.schema())).contains("\"ks\"").contains("'replication_factor' : '3'");
    assertThat(PredefinedSchema.createStandard1(s)).startsWith("CREATE TABLE IF NOT EXISTS ks.standard1")
        .endsWith("WITH compression = {'class' : 'LZ4Compressor'};\n");
  }
}
