package io.cassette.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Set;
import org.junit.jupiter.api.Test;

class AuthStatementParserTest {
  @Test
  void recognisesOnlyRoleAndPermissionStatements() {
    assertThat(AuthStatementParser.isAuthStatement("  /* x */ -- y\n create ROLE r")).isTrue();
    assertThat(AuthStatementParser.isAuthStatement("GRANT SELECT ON ks.t TO r")).isTrue();
    assertThat(AuthStatementParser.isAuthStatement("list roles")).isTrue();
    assertThat(AuthStatementParser.isAuthStatement("CREATE TABLE t (k int PRIMARY KEY)")).isFalse();
    assertThat(AuthStatementParser.isAuthStatement("CREATE ROLES")).isFalse();
    assertThat(AuthStatementParser.isAuthStatement("SELECT * FROM roles")).isFalse();
    assertThat(AuthStatementParser.isAuthStatement("")).isFalse();
  }

  @Test
  void parsesCassandrasForms() {
    assertThat(AuthStatementParser.parse("CREATE ROLE IF NOT EXISTS \"Bob\" WITH PASSWORD = 'p' AND LOGIN = true"
        + " AND SUPERUSER = false"))
        .isEqualTo(new AuthStatement.CreateRole("Bob", true, new RoleOptions("p", null, true, false, null, null), false));
    assertThat(AuthStatementParser.parse("CREATE USER alice WITH PASSWORD 'a' SUPERUSER;"))
        .isEqualTo(new AuthStatement.CreateRole("alice", false, new RoleOptions("a", null, null, true, null, null), true));
    assertThat(AuthStatementParser.parse("GRANT SELECT, MODIFY PERMISSION ON TABLE ks.t TO r"))
        .isEqualTo(new AuthStatement.GrantPermissions(Set.of(Permission.SELECT, Permission.MODIFY), false,
            AuthResource.table("ks", "t"), "r", false));
    assertThat(AuthStatementParser.parse("REVOKE ALL PERMISSIONS ON ALL FUNCTIONS IN KEYSPACE ks FROM r"))
        .isEqualTo(new AuthStatement.GrantPermissions(Set.of(), true, AuthResource.functionsIn("ks"), "r", true));
    assertThat(AuthStatementParser.parse("GRANT a TO 'b'")).isEqualTo(new AuthStatement.GrantRole("a", "b", false));
    assertThat(AuthStatementParser.parse("LIST ALL OF r NORECURSIVE"))
        .isEqualTo(new AuthStatement.ListPermissions(Set.of(), true, null, "r", false));
    assertThat(AuthStatementParser.parse("LIST ROLES OF r")).isEqualTo(new AuthStatement.ListRoles("r", true, false));
    assertThat(AuthStatementParser.parse("GRANT EXECUTE ON FUNCTION ks.f(int, frozen<list<text>>) TO r"))
        .extracting(s -> ((AuthStatement.GrantPermissions) s).resource().toString())
        .isEqualTo("<function ks.f(int, frozen<list<text>>)>");
  }

  @Test
  void refusesWhatCassandraRefuses() {
    assertThatThrownBy(() -> AuthStatementParser.parse("CREATE ROLE r2 WITH PASSWORD = 'x' AND PASSWORD = 'y'"))
        .hasMessage("Multiple definition for property 'PASSWORD'");
    assertThatThrownBy(() -> AuthStatementParser.parse("CREATE ROLE r2 WITH LOGIN = 'yes'"))
        .hasMessageContaining("mismatched input ''yes'' expecting BOOLEAN");
  }
}
