package io.cassette.tools.cqlsh;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.tools.cqlsh.StatementSplitter.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class StatementSplitterTest {
  private static List<Statement> split(String... lines) {
    StatementSplitter s = new StatementSplitter();
    List<Statement> out = new ArrayList<>();
    for (String l : lines) {
      out.addAll(s.addLine(l));
    }
    Statement rest = s.remainder();
    if (rest != null) {
      out.add(rest);
    }
    return out;
  }

  private static List<String> texts(String... lines) {
    return split(lines).stream().map(Statement::text).toList();
  }

  @Test
  void statementsEndAtSemicolonsAndMaySpanLines() {
    List<Statement> s = split("CREATE TABLE t (", "  k int PRIMARY KEY,", "  v text);", "SELECT * FROM t; SELECT 1", "FROM x;");
    assertThat(s).extracting(Statement::text).containsExactly(
        "CREATE TABLE t (\n  k int PRIMARY KEY,\n  v text);", "SELECT * FROM t;", "SELECT 1\nFROM x;");
    assertThat(s).extracting(Statement::line).containsExactly(1, 4, 4);
  }

  @Test
  void semicolonsInsideStringsIdentifiersDollarStringsAndCommentsDoNotEndAStatement() {
    assertThat(texts("INSERT INTO t (k, v) VALUES (1, 'a;b''c');")).containsExactly(
        "INSERT INTO t (k, v) VALUES (1, 'a;b''c');");
    assertThat(texts("SELECT \"we;ird\" FROM t;")).containsExactly("SELECT \"we;ird\" FROM t;");
    assertThat(texts("CREATE FUNCTION f() RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS $$ return 1; $$;"))
        .containsExactly("CREATE FUNCTION f() RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java AS $$ return 1; $$;");
    assertThat(texts("SELECT * -- a comment; not the end", "FROM t; // trailing", "/* block; */ SELECT 2;"))
        .containsExactly("SELECT *\nFROM t;", "SELECT 2;");
    assertThat(texts("INSERT INTO t (k, v) VALUES (1, 'multi", "line');")).containsExactly(
        "INSERT INTO t (k, v) VALUES (1, 'multi\nline');");
  }

  @Test
  void shellCommandsEndAtTheEndOfTheLine() {
    assertThat(texts("DESCRIBE KEYSPACES", "expand on", "SELECT * FROM t", "WHERE k = 1;", "PAGING 10;"))
        .containsExactly("DESCRIBE KEYSPACES", "expand on", "SELECT * FROM t\nWHERE k = 1;", "PAGING 10;");
  }

  @Test
  void unfinishedStatementIsTheRemainderAndContinuationIsReported() {
    StatementSplitter s = new StatementSplitter();
    assertThat(s.addLine("SELECT * FROM t")).isEmpty();
    assertThat(s.inStatement()).isTrue();
    assertThat(s.remainder().text()).isEqualTo("SELECT * FROM t");
    assertThat(s.inStatement()).isFalse();
    assertThat(s.addLine("   ")).isEmpty();
    assertThat(s.inStatement()).isFalse();
    assertThat(s.addLine(";")).isEmpty();
  }
}
