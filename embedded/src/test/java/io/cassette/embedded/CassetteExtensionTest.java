package io.cassette.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The JUnit 5 extension declared on a class, the node injected as a parameter. */
@ExtendWith(CassetteExtension.class)
class CassetteExtensionTest {
  @Test
  void answersCql(Cassette cassette) {
    try (CqlSession s = CqlSession.builder().addContactPoint(cassette.cqlAddress())
        .withLocalDatacenter(cassette.localDatacenter()).build()) {
      assertThat(s.execute("SELECT cluster_name FROM system.local").one().getString(0)).isNotEmpty();
    }
  }
}
