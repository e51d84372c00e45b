package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.cassette.cql.language.statements.TombstoneThresholds;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;

/**
 * What the differential tests against Cassandra share (DifferentialCorpusTest,
 * LwtDifferentialTest): a one-node Cassette to run a corpus on, and the statement-by-statement
 * comparison that writes the report and fails below the agreement last recorded.
 */
final class CorpusComparison {
  private CorpusComparison() {}

  /**
   * Runs {@code corpus} through the driver on a fresh one-node Cassette in {@code dir} that
   * answers as {@code anchorAddress} (addresses in warnings and errors then compare).
   */
  static List<String> onOneNode(Path dir, String anchorAddress, TombstoneThresholds tombstones,
                                Function<CqlSession, List<String>> corpus) throws Exception {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      NodeInfo node = NodeInfo.singleNode("anchor", InetAddress.getByName(anchorAddress), 9042, UUID.randomUUID(),
          List.of(0L));
      CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null), node,
          tombstones);
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language)) {
        InetSocketAddress a = server.start();
        try (CqlSession s = DifferentialCorpusTest.session(a)) {
          return corpus.apply(s);
        }
      }
    }
  }

  /**
   * Compares the answers statement by statement, writes {@code report} (a summary line, then
   * every difference with both answers) and asserts at least {@code minAgreeing} agree.
   *
   * @param what the summary's noun, e.g. "statements" or "LWT statements"
   * @return how many agree
   */
  static int compare(String what, List<String> corpus, List<String> theirs, List<String> ours, Path report,
                     int minAgreeing) throws Exception {
    StringBuilder differences = new StringBuilder();
    int agree = 0;
    for (int i = 0; i < corpus.size(); i++) {
      if (ours.get(i).equals(theirs.get(i))) {
        agree++;
      } else {
        differences.append("### ").append(corpus.get(i)).append('\n')
            .append("  cassandra: ").append(theirs.get(i)).append('\n')
            .append("  cassette : ").append(ours.get(i)).append('\n');
      }
    }
    String summary = agree + " of " + corpus.size() + " " + what + " agree with Cassandra 5.0.4\n";
    Files.createDirectories(report.toAbsolutePath().getParent());
    Files.writeString(report, summary + differences);
    System.out.println(summary + differences);
    assertThat(agree).as("statements agreeing with Cassandra (differences in %s)", report.toAbsolutePath())
        .isGreaterThanOrEqualTo(minAgreeing);
    return agree;
  }
}
