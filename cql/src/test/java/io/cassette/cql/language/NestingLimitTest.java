package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.language.parser.Parser;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Client-controlled nesting (function calls, parentheses, collection and tuple literals, casts,
 * operator chains, nested types, JSON) never exhausts the stack: past {@link Parser#DEFAULT_MAX_NESTING}
 * it is a SyntaxError (JSON: Invalid), at the limit it works, and nothing is ever a SERVER_ERROR.
 * Runs on a thread with a 512 KB stack, half the JVM's default, as a small board might have.
 * Cassandra 5.0.4 itself answers SERVER_ERROR "java.lang.StackOverflowError" to most of these
 * from 100 (functions) or 600 (literals, types) levels on.
 */
class NestingLimitTest {
  private static final int STACK_BYTES = 512 * 1024;

  @TempDir
  Path dir;

  private static String repeat(String s, int n) {
    return s.repeat(Math.max(0, n));
  }

  /** Statements nested {@code n} levels deep, by construct. */
  private static final List<Case> CASES = List.of(
      new Case("function calls", n -> "SELECT " + repeat("blobasint(intasblob(", n / 2) + "k" + repeat("))", n / 2)
          + " FROM ks.t", false),
      new Case("function calls in WHERE", n -> "SELECT * FROM ks.t WHERE k = " + repeat("blobasint(intasblob(", n / 2)
          + "1" + repeat("))", n / 2), false),
      new Case("parentheses", n -> "SELECT * FROM ks.t WHERE k = " + repeat("(", n) + "1" + repeat(")", n), true),
      new Case("list literals", n -> "INSERT INTO ks.t (k, l) VALUES (1, " + repeat("[", n) + "1" + repeat("]", n) + ")",
          true),
      new Case("map literals", n -> "INSERT INTO ks.t (k, l) VALUES (1, " + repeat("{1:", n) + "1" + repeat("}", n)
          + ")", true),
      new Case("user type literals", n -> "INSERT INTO ks.t (k, l) VALUES (1, " + repeat("{a:", n) + "1"
          + repeat("}", n) + ")", true),
      new Case("tuple literals", n -> "INSERT INTO ks.t (k, tu) VALUES (1, " + repeat("(", n) + "1, 2"
          + repeat(")", n) + ")", true),
      new Case("casts", n -> "SELECT * FROM ks.t WHERE k = " + repeat("(int)", n) + "1", false),
      new Case("negations", n -> "SELECT * FROM ks.t WHERE k = " + repeat("- ", n) + "1", false),
      new Case("operator chain", n -> "SELECT * FROM ks.t WHERE k = " + repeat("1 + ", n) + "1", false),
      new Case("selector operator chain", n -> "SELECT " + repeat("k + ", n) + "k FROM ks.t", false),
      new Case("selector casts", n -> "SELECT " + repeat("cast(", n) + "k" + repeat(" as int)", n) + " FROM ks.t",
          false),
      new Case("nested types", n -> "CREATE TABLE IF NOT EXISTS ks.deep" + n + " (k int PRIMARY KEY, v "
          + repeat("frozen<list<", n / 2) + "int" + repeat(">>", n / 2) + ")", false));

  private record Case(String name, IntFunction<String> statement, boolean invalidBelowLimit) {}

  @Test
  void nestingBeyondTheLimitIsASyntaxErrorAndNeverAServerError() throws Exception {
    List<String> failures = onSmallStack(() -> {
      List<String> bad = new ArrayList<>();
      try (LanguageFixture f = new LanguageFixture(dir)) {
        f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        f.run("CREATE TABLE ks.t (k int PRIMARY KEY, l list<int>, tu tuple<int, int>)");
        for (Case c : CASES) {
          // Within the limit: whatever the statement means, the answer is not about nesting.
          CqlException within = attempt(f, c.statement().apply(Parser.DEFAULT_MAX_NESTING - 10));
          if (within != null && (within.code() == ErrorCode.SERVER_ERROR || within.getMessage().contains("nested"))) {
            bad.add(c.name() + " within the limit: " + within.code() + " " + within.getMessage());
          }
          for (int n : new int[] {Parser.DEFAULT_MAX_NESTING + 10, 600, 10_000}) {
            CqlException e = attempt(f, c.statement().apply(n));
            if (e == null || e.code() != ErrorCode.SYNTAX_ERROR || !e.getMessage().contains("nested too deeply")) {
              bad.add(c.name() + " x" + n + ": " + (e == null ? "accepted" : e.code() + " " + e.getMessage()));
            }
          }
        }
        // The node still answers.
        assertThat(f.rows("SELECT k FROM ks.t")).isNotNull();
      }
      return bad;
    });
    assertThat(failures).isEmpty();
  }

  @Test
  void deepJsonIsInvalidNotAStackOverflow() throws Exception {
    List<String> failures = onSmallStack(() -> {
      List<String> bad = new ArrayList<>();
      try (LanguageFixture f = new LanguageFixture(dir)) {
        f.run("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        f.run("CREATE TABLE ks.t (k int PRIMARY KEY, l list<int>)");
        for (int n : new int[] {600, 100_000}) {
          String nested = repeat("[", n) + "1" + repeat("]", n);
          for (String q : List.of("INSERT INTO ks.t JSON '{\"k\": 1, \"l\": " + nested + "}'",
              "INSERT INTO ks.t (k, l) VALUES (1, fromJson('" + nested + "'))")) {
            CqlException e = attempt(f, q);
            if (e == null || e.code() != ErrorCode.INVALID || !e.getMessage().contains("nested more than")) {
              bad.add("JSON x" + n + ": " + (e == null ? "accepted" : e.code() + " " + e.getMessage()));
            }
          }
        }
        f.run("INSERT INTO ks.t JSON '{\"k\": 1, \"l\": [1, 2]}'");
        assertThat(f.rows("SELECT l FROM ks.t WHERE k = 1")).containsExactly("[1, 2]");
      }
      return bad;
    });
    assertThat(failures).isEmpty();
  }

  private static CqlException attempt(LanguageFixture f, String q) {
    try {
      f.run(q);
      return null;
    } catch (CqlException e) {
      return e;
    }
  }

  private interface Body {
    List<String> run() throws Exception;
  }

  private static List<String> onSmallStack(Body body) throws Exception {
    AtomicReference<Object> out = new AtomicReference<>();
    Thread t = new Thread(null, () -> {
      try {
        out.set(body.run());
      } catch (Throwable e) {
        out.set(e);
      }
    }, "small-stack", STACK_BYTES);
    t.start();
    t.join();
    if (out.get() instanceof Throwable e) {
      throw new AssertionError("failed on the small stack", e);
    }
    @SuppressWarnings("unchecked")
    List<String> result = (List<String>) out.get();
    return result;
  }
}
