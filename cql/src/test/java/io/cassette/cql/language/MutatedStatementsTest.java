package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Bad CQL of any kind gets a clear error, never a server error: the differential corpus with
 * random characters dropped, duplicated or replaced, run against a real engine.
 */
class MutatedStatementsTest {
  @TempDir
  Path dir;

  @Test
  void mutatedStatementsNeverCauseServerErrors() throws Exception {
    List<String> corpus = new ArrayList<>();
    for (String file : List.of("differential/corpus.cql", "differential/corpus2.cql", "differential/corpus4.cql")) {
      corpus.addAll(DifferentialCorpusTest.corpus(file));
    }
    Random random = new Random(7);
    String noise = "();,'\"{}[]<>=?:.*-+0123456789abcKEYnull ";
    List<String> failures = new ArrayList<>();
    try (LanguageFixture f = new LanguageFixture(dir)) {
      int runs = 0;
      for (int round = 0; round < 8; round++) {
        for (String original : corpus) {
          String q = original;
          if (round > 0 || random.nextBoolean()) {
            StringBuilder sb = new StringBuilder(q);
            for (int m = 1 + random.nextInt(3); m > 0 && sb.length() > 0; m--) {
              int at = random.nextInt(sb.length());
              switch (random.nextInt(3)) {
                case 0 -> sb.deleteCharAt(at);
                case 1 -> sb.insert(at, noise.charAt(random.nextInt(noise.length())));
                default -> sb.setCharAt(at, noise.charAt(random.nextInt(noise.length())));
              }
            }
            q = sb.toString();
          }
          runs++;
          try {
            f.run(q);
          } catch (CqlException e) {
            if (e.code() == ErrorCode.SERVER_ERROR) {
              failures.add(q + " -> " + e.getMessage());
            }
          }
        }
      }
      assertThat(runs).isGreaterThan(1000);
      System.out.println("mutated statements run: " + runs + ", server errors: " + failures.size());
    }
    assertThat(failures).isEmpty();
  }
}
