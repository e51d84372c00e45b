package io.cassette.tools.stress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class UserProfileTest {
  static final String PROFILE = String.join("\n",
      "keyspace: stresscql",
      "keyspace_definition: |",
      "  CREATE KEYSPACE stresscql WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1};",
      "table: blogposts",
      "table_definition: |",
      "  CREATE TABLE blogposts (domain text, published_date timeuuid, url text, body text,",
      "    PRIMARY KEY (domain, published_date))",
      "columnspec:",
      "  - name: domain",
      "    size: gaussian(5..100)",
      "    population: uniform(1..10M)",
      "  - name: published_date",
      "    cluster: fixed(3)",
      "insert:",
      "  partitions: fixed(1)",
      "  batchtype: LOGGED",
      "queries:",
      "  singlepost:",
      "    cql: select * from blogposts where domain = ? LIMIT 1",
      "    fields: samerow",
      "");

  @Test
  void readsTheProfile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("blog.yaml");
    Files.writeString(file, PROFILE);
    UserProfile p = UserProfile.load(file.toString());
    assertThat(p.keyspace()).isEqualTo("stresscql");
    assertThat(p.table()).isEqualTo("blogposts");
    assertThat(p.keyspaceDefinition()).startsWith("CREATE KEYSPACE stresscql");
    assertThat(p.tableDefinition()).contains("PRIMARY KEY (domain, published_date)");
    assertThat(p.columnSizes().get("domain").max()).isEqualTo(100);
    assertThat(p.clusters().get("published_date").max()).isEqualTo(3);
    assertThat(p.batchType()).isEqualTo("LOGGED");
    assertThat(p.queries()).containsEntry("singlepost", "select * from blogposts where domain = ? LIMIT 1");
  }

  @Test
  void opsMustNameTheProfilesQueries(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("blog.yaml");
    Files.writeString(file, PROFILE);
    StressSettings ok = StressSettingsParser.parse("user", "profile=" + file, "ops(insert=1,singlepost=2)", "n=1");
    assertThat(UserWorkload.load(ok).weights()).containsExactly(1.0, 2.0);
    StressSettings bad = StressSettingsParser.parse("user", "profile=" + file, "ops(insert=1,q9=2)", "n=1");
    assertThatThrownBy(() -> UserWorkload.load(bad))
        .hasMessageContaining("'q9'").hasMessageContaining("accepted: insert, singlepost");
  }

  @Test
  void problemsNameTheFile(@TempDir Path dir) throws Exception {
    Path file = dir.resolve("broken.yaml");
    Files.writeString(file, "keyspace: k\nqueries:\n  q1: {fields: samerow}\n");
    assertThatThrownBy(() -> UserProfile.load(file.toString()))
        .hasMessageContaining(file.toString()).hasMessageContaining("missing 'table'");
    Files.writeString(file, "keyspace: k\ntable: t\nqueries:\n  q1: {fields: samerow}\n");
    assertThatThrownBy(() -> UserProfile.load(file.toString())).hasMessageContaining("query 'q1' needs a cql");
    assertThatThrownBy(() -> UserProfile.load(dir.resolve("none.yaml").toString()))
        .hasMessageContaining("Cannot read profile");
  }
}
