package io.cassette.cql.language;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.language.parser.Parser;
import io.cassette.cql.language.parser.Relation;
import io.cassette.cql.language.parser.Statement;
import io.cassette.cql.language.parser.Term;
import org.junit.jupiter.api.Test;

class ParserTest {
  @Test
  void parsesSelectWithEverything() {
    Statement.Select s = (Statement.Select) Parser.parse(
        "select JSON DISTINCT a AS x, count(*), \"Quoted\" FROM ks.\"T\" WHERE a IN ? AND (b, c) > (1, 'x')"
            + " AND token(a) <= :t GROUP BY a ORDER BY b DESC PER PARTITION LIMIT 2 LIMIT 10 ALLOW FILTERING;");
    assertThat(s.json()).isTrue();
    assertThat(s.distinct()).isTrue();
    assertThat(s.table().keyspace()).isEqualTo("ks");
    assertThat(s.table().name()).isEqualTo("T");
    assertThat(s.selectors()).hasSize(3);
    assertThat(s.where()).extracting(Relation::kind).containsExactly(Relation.Kind.SINGLE,
        Relation.Kind.MULTI, Relation.Kind.TOKEN);
    assertThat(((Term.BindMarker) s.where().get(2).value()).name()).isEqualTo("t");
    assertThat(s.allowFiltering()).isTrue();
  }

  @Test
  void parsesLiteralsAndComments() {
    Statement.Insert i = (Statement.Insert) Parser.parse("INSERT INTO t (a, b, c, d, e, f) -- comment\n"
        + " VALUES (-1.5e3, 0xCAFE, 123e4567-e89b-12d3-a456-426614174000, 1h30m, $$it's$$, {'k': [1, 2]})"
        + " /* block */ IF NOT EXISTS USING TTL 5 AND TIMESTAMP 6");
    assertThat(i.values()).hasSize(6);
    assertThat(i.values().get(0)).isEqualTo(new Term.Literal(io.cassette.cql.language.types.Values.Constant.FLOAT, "-1.5e3"));
    assertThat(i.values().get(4)).isEqualTo(new Term.Literal(io.cassette.cql.language.types.Values.Constant.STRING, "it's"));
    assertThat(i.ifNotExists()).isTrue();
    assertThat(i.ttl()).isNotNull();
  }

  @Test
  void syntaxErrorsLookLikeCassandras() {
    assertThatThrownBy(() -> Parser.parse("SELEC * FROM t")).isInstanceOf(CqlException.class)
        .hasMessage("line 1:0 no viable alternative at input 'SELEC' ([SELEC]...)")
        .extracting(e -> ((CqlException) e).code()).isEqualTo(ErrorCode.SYNTAX_ERROR);
    assertThatThrownBy(() -> Parser.parse("SELECT * FORM t1"))
        .hasMessage("line 1:9 mismatched input 'FORM' expecting K_FROM (SELECT * [FORM]...)");
    assertThatThrownBy(() -> Parser.parse("SELECT * FROM t WHERE"))
        .hasMessage("line 0:-1 no viable alternative at input '<EOF>'");
    assertThatThrownBy(() -> Parser.parse("INSERT INTO t k, v VALUES (1, 'a')"))
        .hasMessage("line 1:14 no viable alternative at input 'k' (INSERT INTO [t] k...)");
  }

  @Test
  void acceptsCassandraStressTableWithEmptyElement() {
    Statement.CreateTable t = (Statement.CreateTable) Parser.parse("CREATE TABLE IF NOT EXISTS counter1 (key blob"
        + " PRIMARY KEY,\n, \"C0\" counter\n, \"C1\" counter) WITH compression = {};");
    assertThat(t.columns()).extracting(Statement.ColumnDef::name).containsExactly("key", "C0", "C1");
  }
}
