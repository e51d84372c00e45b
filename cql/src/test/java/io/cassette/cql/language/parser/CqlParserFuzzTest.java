package io.cassette.cql.language.parser;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.auth.AuthStatementParser;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Fuzzes the CQL parser (issue 13: the decoders had fuzzers, the parser had none, and 600
 * nested function calls reached it as a StackOverflowError). Seeds are statements drivers and
 * cqlsh send; each input is a seed mutated by token (a token replaced by a CQL keyword, symbol
 * or hostile literal, deleted, repeated, a run of nesting opened), by character, or spliced
 * with another seed. Feedback: an input whose outcome (the statement kind, or the error code
 * and the words of its message) is new joins the corpus, as RespFuzzer does for the decoders.
 * Every input must parse or fail with SyntaxError/Invalid: never another exception, never a
 * stack overflow, and never slowly (see {@link #slowNanos}; re-timed three times before it counts).
 * Short form here (1,000 inputs); {@code -Pslow} runs 200,000 inputs from a random seed.
 */
class CqlParserFuzzTest {
  static final List<String> SEEDS = List.of(
      "SELECT * FROM system.local WHERE key = 'local'",
      "SELECT peer, data_center, rack, tokens FROM system.peers",
      "SELECT keyspace_name, table_name FROM system_schema.tables WHERE keyspace_name = ?",
      "SELECT k, c, v FROM ks.t WHERE k IN (1, 2, 3) AND c > 0 AND c <= 10 ORDER BY c DESC LIMIT 10",
      "SELECT DISTINCT k, token(k) FROM t WHERE token(k) > -9223372036854775808 PER PARTITION LIMIT 2",
      "SELECT JSON k, writetime(v), ttl(v), CAST(v AS text) FROM t WHERE v CONTAINS 3 ALLOW FILTERING",
      "SELECT count(*), max(c), avg(v) FROM t WHERE k = :k GROUP BY k, c",
      "SELECT k, m['x'], l[1], u.f FROM t WHERE m CONTAINS KEY 'x' AND (c, d) > (1, 2)",
      "INSERT INTO t (k, c, v, l, m, s) VALUES (?, ?, 'text''s', [1, 2], {'a': 1}, {1.5e3, -2}) IF NOT EXISTS",
      "INSERT INTO ks.t JSON '{\"k\": 1, \"l\": [1, 2]}' DEFAULT UNSET USING TTL 86400",
      "UPDATE t USING TIMESTAMP 1234 AND TTL 10 SET v = v + 1, l = [0] + l, m['k'] = 2 WHERE k = 1 IF v = 3",
      "UPDATE t SET s = s - {1}, c = c - 1 WHERE k = 0x0aff AND c = 5e-3 IF EXISTS",
      "DELETE v, l[0], m['a'] FROM t USING TIMESTAMP 9 WHERE k = 1 AND c IN (1, 2) IF v != null",
      "BEGIN UNLOGGED BATCH USING TIMESTAMP 5 INSERT INTO t (k) VALUES (1); "
          + "UPDATE t SET v = 2 WHERE k = 1; DELETE FROM t WHERE k = 2; APPLY BATCH",
      "CREATE KEYSPACE IF NOT EXISTS ks WITH replication = {'class': 'NetworkTopologyStrategy', 'dc1': 3}"
          + " AND durable_writes = true",
      "CREATE TABLE IF NOT EXISTS ks.t (k int, c timeuuid, v frozen<map<text, list<tuple<int, blob>>>>,"
          + " s set<inet> static, PRIMARY KEY ((k, c), v)) WITH CLUSTERING ORDER BY (v DESC)"
          + " AND compaction = {'class': 'SizeTieredCompactionStrategy'} AND default_time_to_live = 0",
      "ALTER TABLE t ADD (x int, y vector<float, 3>)",
      "ALTER TABLE t WITH gc_grace_seconds = 10",
      "CREATE INDEX IF NOT EXISTS i ON t (KEYS(m))",
      "CREATE CUSTOM INDEX ON t (v) USING 'StorageAttachedIndex' WITH OPTIONS = {'similarity_function': 'cosine'}",
      "CREATE TYPE IF NOT EXISTS ks.addr (street text, zip int, tags frozen<set<text>>)",
      "CREATE MATERIALIZED VIEW v AS SELECT * FROM t WHERE k IS NOT NULL AND c IS NOT NULL PRIMARY KEY (c, k)",
      "CREATE OR REPLACE FUNCTION f (a int) CALLED ON NULL INPUT RETURNS int LANGUAGE java AS 'return a;'",
      "DROP TABLE IF EXISTS ks.t",
      "TRUNCATE TABLE t",
      "USE \"MixedCase\"",
      "SELECT * FROM t WHERE v = (int) 3 + 4 * -(2 - 1) AND w = now() AND x = uuid()",
      "SELECT * FROM t WHERE v ANN OF [0.1, 0.2, 0.3] LIMIT 5",
      "CREATE ROLE IF NOT EXISTS alice WITH PASSWORD = 'p' AND LOGIN = true AND SUPERUSER = false",
      "GRANT SELECT ON KEYSPACE ks TO alice",
      "LIST ALL PERMISSIONS OF alice NORECURSIVE");

  static final String[] TOKENS = {
      "(", ")", "[", "]", "{", "}", "<", ">", ",", ";", ".", ":", "?", ":x", "=", "!=", "+", "-", "*", "/",
      "%", "'", "\"", "''", "$$", "$$a$$", "--", "/*", "*/", "\n", "\0", "\uFFFF", "\uD800", "0x", "0xZZ", "1e",
      "1e999999", "-9223372036854775809", "99999999999999999999999999", "NaN", "-Infinity", "1.", ".5",
      "123e4567-e89b-12d3-a456-426614174000", "SELECT", "FROM", "WHERE", "AND", "IN", "IF", "EXISTS", "NOT",
      "NULL", "TOKEN", "frozen<", "list<", "map<int,", "tuple<", "vector<float,", "CAST(", "AS", "LIMIT",
      "ORDER BY", "GROUP BY", "USING TTL", "JSON", "DISTINCT", "COUNT(*)", "BATCH", "APPLY", "CONTAINS",
      "KEY", "ALLOW FILTERING", "PRIMARY KEY", "WITH", "ROLE", "USER", "PASSWORD", "ON", "TO", "OF"};

  @Test
  @Timeout(120)
  void aThousandInputs() {
    fuzz(1, 1_000);
  }

  @Test
  @Tag("slow")
  @Timeout(1800)
  void twoHundredThousandInputs() {
    fuzz(System.nanoTime(), 200_000);
  }

  private static void fuzz(long seed, int inputs) {
    Random rnd = new Random(seed);
    List<String> corpus = new ArrayList<>(SEEDS);
    Set<String> outcomes = new HashSet<>();
    List<String> failures = new ArrayList<>();
    for (int i = 0; i < inputs && failures.size() < 10; i++) {
      String input = mutate(rnd, corpus);
      String outcome = parse(input, failures, "seed " + seed + " input " + i);
      if (outcomes.add(outcome) && input.length() < 20_000) {
        corpus.add(input);
      }
    }
    assertThat(failures).as("inputs that failed other than with SyntaxError/Invalid").isEmpty();
    assertThat(corpus.size()).as("feedback found new outcomes").isGreaterThan(SEEDS.size() + 20);
  }

  /** Parses as the CQL door does; returns the outcome, adding to {@code failures} what is not allowed. */
  private static String parse(String input, List<String> failures, String where) {
    long t0 = System.nanoTime();
    String outcome;
    try {
      Object s = AuthStatementParser.isAuthStatement(input) ? AuthStatementParser.parse(input) : Parser.parse(input);
      outcome = "ok " + s.getClass().getSimpleName();
    } catch (CqlException e) {
      if (e.code() != ErrorCode.SYNTAX_ERROR && e.code() != ErrorCode.INVALID) {
        failures.add(where + ": " + e.code() + " " + e.getMessage() + " for " + abbreviate(input));
      }
      outcome = e.code() + " " + words(e.getMessage());
    } catch (Throwable t) { // StackOverflowError included: that is the finding
      failures.add(where + ": " + t + " for " + abbreviate(input));
      return "failed";
    }
    if (System.nanoTime() - t0 > slowNanos(input) && slowEveryTime(input)) {
      failures.add(where + ": parsing took over " + slowNanos(input) / 1_000_000 + " ms, three times, for "
          + abbreviate(input));
    }
    return outcome;
  }

  /**
   * Slow for a linear parser, even on a loaded machine: 2 s and 20 us a character (a 100 KB
   * statement parses in tens of ms when quiet). An exponential case (nested casts, stars) takes
   * minutes on a few hundred characters.
   */
  private static long slowNanos(String input) {
    return 2_000_000_000L + 20_000L * input.length();
  }

  private static boolean slowEveryTime(String input) {
    for (int i = 0; i < 3; i++) {
      long t0 = System.nanoTime();
      try {
        Parser.parse(input);
      } catch (RuntimeException e) {
        // the outcome was checked already
      }
      if (System.nanoTime() - t0 < slowNanos(input)) {
        return false;
      }
    }
    return true;
  }

  /** The message without positions, quoted input and numbers: what kind of error it is. */
  private static String words(String message) {
    String m = message == null ? "" : message.replaceAll("'[^']*'", "'").replaceAll("[0-9]+", "#");
    return m.length() > 60 ? m.substring(0, 60) : m;
  }

  private static String abbreviate(String s) {
    return s.length() > 300 ? s.substring(0, 300) + "... (" + s.length() + " chars)" : s;
  }

  private static String mutate(Random rnd, List<String> corpus) {
    String base = corpus.get(rnd.nextInt(corpus.size()));
    List<String> parts = new ArrayList<>(List.of(base.split("(?<=[ ,()\\[\\]{}<>;=])|(?=[ ,()\\[\\]{}<>;=])")));
    int rounds = 1 + rnd.nextInt(4);
    for (int r = 0; r < rounds && !parts.isEmpty(); r++) {
      int at = rnd.nextInt(parts.size());
      switch (rnd.nextInt(8)) {
        case 0 -> parts.set(at, TOKENS[rnd.nextInt(TOKENS.length)]);
        case 1 -> parts.remove(at);
        case 2 -> parts.add(at, TOKENS[rnd.nextInt(TOKENS.length)]);
        case 3 -> { // repeat a run of tokens
          int to = Math.min(parts.size(), at + 1 + rnd.nextInt(6));
          List<String> run = new ArrayList<>(parts.subList(at, to));
          for (int n = rnd.nextInt(50); n > 0; n--) {
            parts.addAll(at, run);
          }
        }
        case 4 -> { // open a deep nesting
          String open = new String[] {"(", "[", "{", "f(", "(int)", "- ", "1 + ", "frozen<list<"}[rnd.nextInt(8)];
          parts.add(at, open.repeat(1 + rnd.nextInt(rnd.nextBoolean() ? 20 : 1000)));
        }
        case 5 -> { // a character changed
          String p = parts.get(at);
          if (!p.isEmpty()) {
            char[] cs = p.toCharArray();
            cs[rnd.nextInt(cs.length)] = (char) (rnd.nextBoolean() ? rnd.nextInt(128) : rnd.nextInt(0x10000));
            parts.set(at, new String(cs));
          }
        }
        case 6 -> { // spliced with another input
          String other = corpus.get(rnd.nextInt(corpus.size()));
          String tail = other.substring(rnd.nextInt(other.length() + 1));
          parts = new ArrayList<>(parts.subList(0, at));
          parts.add(tail);
        }
        default -> parts.subList(at, parts.size()).clear(); // truncated
      }
    }
    String input = String.join("", parts);
    return input.length() > MAX_INPUT ? input.substring(0, MAX_INPUT) : input;
  }

  /** Longest input tried: deep enough for every bound, short enough for many inputs a second. */
  static final int MAX_INPUT = 32_768;
}
