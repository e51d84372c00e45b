package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cheap half of the differential corpus: {@code differential/corpus7.cql} (issue 22, part
 * II: system_views, custom types, data masking, SAI and vector search, ...) runs on Cassette in
 * the default suite and is compared with Cassandra 5.0.4's answers recorded in
 * {@code corpus7.expected} (one answer per statement, written by {@link #main} against the
 * anchor). {@link DifferentialCorpusTest} runs the same file against the live anchor under -Pslow.
 *
 * <pre>
 *   java -cp ... io.cassette.cql.language.RecordedCorpusTest record 127.0.0.1:19142  # re-record
 *   java -cp ... io.cassette.cql.language.RecordedCorpusTest diff                    # print differences
 * </pre>
 */
class RecordedCorpusTest {
  /**
   * The recorded corpora, both recorded against the anchor run.sh starts (Cassandra's default
   * cassandra.yaml plus the tombstone thresholds): corpus7 (SAI, vectors, system_views, masking
   * functions; the same answers with UDFs, views and masking enabled) and corpus8 (user functions,
   * views and masking off, as in Cassette). See differential/README.md.
   */
  static final List<String> CORPORA = List.of("corpus7", "corpus8", "corpus9", "corpus10", "corpus11",
      "corpus12");

  /**
   * Corpora recorded against an anchor with {@code user_defined_functions_enabled: true}
   * (corpus9: user-defined functions and aggregates) or {@code dynamic_data_masking_enabled: true}
   * (corpus10: masked columns), or both (corpus12: user-defined functions as masks), or
   * {@code materialized_views_enabled: true} (corpus11: views); Cassette runs them with all enabled.
   */
  static final java.util.Set<String> UDFS_ENABLED = java.util.Set.of("corpus9", "corpus10", "corpus11", "corpus12");

  /**
   * Statements whose answer may differ from the recording, each with its reason (the rest must
   * agree exactly); see differential/README.md.
   */
  static final List<String> KNOWN_DIFFERENCES = List.of(
      // Cassandra 5.0.4 leaves the column_masks rows of a dropped column and of a dropped table
      // (only DROP KEYSPACE removes them); Cassette's rows follow the schema.
      "SELECT column_name, function_name FROM system_schema.column_masks WHERE keyspace_name = 'diff10' AND table_name = 't'",
      "SELECT table_name, column_name FROM system_schema.column_masks WHERE keyspace_name = 'diff10'",
      // Cassandra resolves the function's arity before it asks whether it masks; Cassette refuses
      // any native function that is not a masking one first.
      "CREATE TABLE diff10.u (k int PRIMARY KEY, v text MASKED WITH now())");

  @TempDir
  Path dir;

  @Test
  void corporaAgreeWithRecordedCassandraAnswers() throws Exception {
    // the corpora of each setting on one node (one engine and server: the default suite's time is scarce)
    List<String> differ = new ArrayList<>();
    for (boolean udfs : new boolean[] {false, true}) {
      List<String> corpus = new ArrayList<>();
      List<String> expected = new ArrayList<>();
      for (String name : CORPORA) {
        if (UDFS_ENABLED.contains(name) != udfs) {
          continue;
        }
        List<String> statements = DifferentialCorpusTest.corpus("differential/" + name + ".cql");
        List<String> answers = expected(name);
        assertThat(answers).as("one recorded answer per statement of %s", name).hasSize(statements.size());
        corpus.addAll(statements);
        expected.addAll(answers);
      }
      List<String> ours = runOnCassette(dir.resolve("udfs-" + udfs), corpus, udfs);
      for (int i = 0; i < corpus.size(); i++) {
        if (!ours.get(i).equals(expected.get(i)) && !KNOWN_DIFFERENCES.contains(corpus.get(i))) {
          differ.add(corpus.get(i) + "\n  cassandra: " + expected.get(i) + "\n  cassette : " + ours.get(i));
        }
      }
    }
    assertThat(differ).as("statements answering unlike Cassandra 5.0.4").isEmpty();
  }

  static List<String> expected(String name) throws Exception {
    try (InputStream in = RecordedCorpusTest.class.getResourceAsStream("differential/" + name + ".expected")) {
      if (in == null) {
        return List.of();
      }
      List<String> out = new ArrayList<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n", -1)) {
        if (!line.isEmpty()) {
          out.add(line.replace("\\n", "\n").replace("\\\\", "\\"));
        }
      }
      return out;
    }
  }

  static String escape(String answer) {
    return answer.replace("\\", "\\\\").replace("\n", "\\n");
  }

  static List<String> runOnCassette(Path dir, List<String> corpus) throws Exception {
    return runOnCassette(dir, corpus, false);
  }

  /** @param udfs user_defined_functions_enabled and dynamic_data_masking_enabled */
  static List<String> runOnCassette(Path dir, List<String> corpus, boolean udfs) throws Exception {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
          NodeInfo.singleNode("anchor", InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(0L)),
          new io.cassette.cql.language.statements.TombstoneThresholds(10, 20));
      language.userDefinedFunctions(new io.cassette.cql.language.functions.UserFunctions.Settings(udfs, 1500));
      language.dynamicDataMasking(udfs);
      language.materializedViews(udfs);
      try (CqlServer server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language)) {
        InetSocketAddress a = server.start();
        try (CqlSession s = DifferentialCorpusTest.session(a)) {
          return DifferentialCorpusTest.run(s, corpus);
        }
      }
    }
  }

  /**
   * {@code record NAME HOST:PORT} writes the anchor's answers to NAME.expected; {@code diff NAME}
   * prints where Cassette differs; {@code ask HOST:PORT|cassette FILE} prints every answer.
   */
  public static void main(String[] args) throws Exception {
    if (args[0].equals("ask")) {
      // ask HOST:PORT|cassette FILE: every statement of FILE and its answer
      List<String> qs = new ArrayList<>();
      StringBuilder cur = new StringBuilder();
      for (String line : Files.readAllLines(Path.of(args[2]))) {
        if (line.isBlank() || line.startsWith("--")) {
          continue;
        }
        cur.append(cur.length() == 0 ? "" : "\n").append(line);
        if (line.trim().endsWith(";")) {
          String q = cur.toString().trim();
          qs.add(q.substring(0, q.length() - 1));
          cur.setLength(0);
        }
      }
      List<String> answers;
      if (args[1].equals("cassette")) {
        answers = runOnCassette(Files.createTempDirectory("ask"), qs, true);
      } else {
        String[] hp = args[1].split(":");
        try (CqlSession s = DifferentialCorpusTest.session(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])))) {
          answers = DifferentialCorpusTest.run(s, qs);
        }
      }
      for (int i = 0; i < qs.size(); i++) {
        System.out.println("> " + qs.get(i) + "\n  " + answers.get(i));
      }
      System.exit(0);
    }
    if (args[0].equals("live")) {
      // live HOST:PORT: every corpus file on both, as DifferentialCorpusTest (without JUnit)
      List<String> all = DifferentialCorpusTest.corpus();
      String[] hp = args[1].split(":");
      List<String> theirs;
      try (CqlSession s = DifferentialCorpusTest.session(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])))) {
        theirs = DifferentialCorpusTest.run(s, all);
      }
      List<String> ours = runOnCassette(Files.createTempDirectory("live"), all);
      int agree = 0;
      for (int i = 0; i < all.size(); i++) {
        if (ours.get(i).equals(theirs.get(i))) {
          agree++;
        } else {
          System.out.println("### " + all.get(i) + "\n  cassandra: " + theirs.get(i) + "\n  cassette : " + ours.get(i));
        }
      }
      System.out.println(agree + " of " + all.size() + " statements agree with Cassandra 5.0.4");
      System.exit(0);
    }
    List<String> corpus = DifferentialCorpusTest.corpus("differential/" + args[1] + ".cql");
    if (args.length == 3 && args[0].equals("record")) {
      List<String> theirs;
      String[] hp = args[2].split(":");
      try (CqlSession s = DifferentialCorpusTest.session(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])))) {
        theirs = DifferentialCorpusTest.run(s, corpus);
      }
      StringBuilder sb = new StringBuilder();
      for (String t : theirs) {
        sb.append(escape(t)).append('\n');
      }
      Path out = Path.of("cql/src/test/resources/io/cassette/cql/language/differential", args[1] + ".expected");
      Files.writeString(out, sb.toString());
      System.out.println("recorded " + theirs.size() + " answers in " + out);
    } else {
      List<String> expected = expected(args[1]);
      Path tmp = Files.createTempDirectory("corpus");
      List<String> ours = runOnCassette(tmp, corpus, UDFS_ENABLED.contains(args[1]));
      int agree = 0;
      for (int i = 0; i < corpus.size(); i++) {
        String e = i < expected.size() ? expected.get(i) : "(not recorded)";
        if (ours.get(i).equals(e)) {
          agree++;
        } else {
          System.out.println("### " + corpus.get(i) + "\n  cassandra: " + e + "\n  cassette : " + ours.get(i));
        }
      }
      System.out.println(agree + " of " + corpus.size() + " agree");
      System.exit(0);
    }
    System.exit(0);
  }
}
