package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cql.CqlException;
import io.cassette.cql.language.parser.StatementLimits;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: the statement bounds (tokens, collection elements, nesting, JSON nesting) were
 * process-wide static fields set from one node's config, so two embedded nodes in one JVM shared
 * them: the last node started decided for both. Now each language holds its own
 * {@link StatementLimits}: a node lowered to small bounds refuses what a node with the
 * defaults, in the same JVM, still accepts.
 */
class PerNodeStatementLimitsTest {
  @TempDir
  Path small;
  @TempDir
  Path plain;

  @Test
  void twoNodesInOneJvmKeepTheirOwnBounds() throws Exception {
    try (LanguageFixture strict = new LanguageFixture(small); LanguageFixture other = new LanguageFixture(plain)) {
      strict.cql.statementLimits(StatementLimits.of(200, 10, 5));
      for (LanguageFixture f : new LanguageFixture[] {strict, other}) {
        f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        f.run("CREATE TABLE ks.t (k int PRIMARY KEY, l list<int>, m map<text, int>)");
      }
      String manyTokens = "SELECT k FROM ks.t WHERE k IN (" + "1,".repeat(150) + "1)";
      String elevenElements = "UPDATE ks.t SET l = [1,2,3,4,5,6,7,8,9,10,11] WHERE k = 1";
      String deep = "SELECT abs(abs(abs(abs(abs(abs(k)))))) FROM ks.t WHERE k = 1";
      String deepJson = "INSERT INTO ks.t JSON '{\"k\": 2, \"l\": [[[[[[[1]]]]]]]}'";

      assertThatThrownBy(() -> strict.run(manyTokens)).isInstanceOf(CqlException.class)
          .hasMessageContaining("Statement too large: more than 200 tokens");
      assertThatThrownBy(() -> strict.run(elevenElements)).isInstanceOf(CqlException.class)
          .hasMessageContaining("Collection too large: 11 elements in one write, more than 10");
      assertThatThrownBy(() -> strict.run(deep)).isInstanceOf(CqlException.class)
          .hasMessageContaining("more than 5 nested");
      assertThatThrownBy(() -> strict.run(deepJson)).isInstanceOf(CqlException.class)
          .hasMessageContaining("nested more than 5");

      other.run(manyTokens);
      other.run(elevenElements);
      other.run(deep);
      assertThatThrownBy(() -> other.run(deepJson)).as("the JSON is deep enough, but a list of lists is no list<int>")
          .isInstanceOf(CqlException.class).satisfies(e -> assertThat(e.getMessage()).doesNotContain("nested"));
      assertThat(other.run("SELECT l FROM ks.t WHERE k = 1").toString()).isNotEmpty();

    }
  }
}
