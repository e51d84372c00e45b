package io.cassette.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Role and permission statements prepared (PREPARE/EXECUTE, as the Java driver's
 * {@code prepare}), bind markers in them refused, and CassandraNetworkAuthorizer's ACCESS TO
 * DATACENTERS enforced, through the Java driver 4.x. Every expected text is what Cassandra
 * 5.0.4 (the anchor, AUTH=yes, network_authorizer: CassandraNetworkAuthorizer) answered.
 */
class RoleStatementsDriverTest {
  static final long VALIDITY_MILLIS = 500;

  @TempDir
  static Path dir;
  static AuthNode node;
  static InetSocketAddress address;

  @BeforeAll
  static void start() throws Exception {
    node = AuthNode.start(dir, AuthSettings.passwords(VALIDITY_MILLIS)
        .withNetworkAuthorizer("CassandraNetworkAuthorizer"));
    address = node.address;
  }

  @AfterAll
  static void stop() {
    if (node != null) {
      node.close();
    }
  }

  static CqlSession session(String user, String password) {
    return node.session(user, password);
  }

  @Test
  void roleStatementsArePreparedWithoutVariablesAndRunOnEachExecute() {
    try (CqlSession admin = session("cassandra", "cassandra")) {
      PreparedStatement create = admin.prepare("CREATE ROLE p1 WITH PASSWORD = 'a' AND LOGIN = true");
      assertThat(create.getVariableDefinitions().size()).isZero();
      assertThat(create.getResultSetDefinitions().size()).isZero();
      admin.execute(create.bind());
      assertThatThrownBy(() -> admin.execute(create.bind())).isInstanceOf(InvalidQueryException.class)
          .hasMessage("p1 already exists");
      admin.execute(admin.prepare("ALTER ROLE p1 WITH PASSWORD = 'b'").bind());
      admin.execute(admin.prepare("GRANT SELECT ON ALL KEYSPACES TO p1").bind());
      PreparedStatement listRoles = admin.prepare("LIST ROLES");
      assertThat(listRoles.getResultSetDefinitions().size()).isZero(); // as Cassandra: rows carry theirs
      List<String> roles = new ArrayList<>();
      admin.execute(listRoles.bind()).forEach(r -> roles.add(r.getString("role") + "/" + r.getString("datacenters")));
      assertThat(roles).containsExactly("cassandra/ALL", "p1/ALL");
      List<String> perms = new ArrayList<>();
      admin.execute(admin.prepare("LIST ALL PERMISSIONS OF p1").bind())
          .forEach(r -> perms.add(r.getString("role") + " " + r.getString("resource") + " " + r.getString("permission")));
      assertThat(perms).containsExactly("p1 <all keyspaces> SELECT");

      // The statement prepared by the superuser, executed by p1: p1's own permissions decide.
      try (CqlSession p1 = session("p1", "b")) {
        PreparedStatement createByP1 = p1.prepare("CREATE ROLE p1 WITH PASSWORD = 'a' AND LOGIN = true");
        assertThatThrownBy(() -> p1.execute(createByP1.bind())).isInstanceOf(UnauthorizedException.class)
            .hasMessage("User p1 does not have sufficient privileges to perform the requested operation");
      }
      admin.execute(admin.prepare("REVOKE SELECT ON ALL KEYSPACES FROM p1").bind());
      admin.execute(admin.prepare("DROP ROLE p1").bind());
      assertThat(admin.execute(listRoles.bind()).all()).extracting(r -> r.getString("role")).containsExactly("cassandra");
    }
  }

  @Test
  void bindMarkersAreRefusedWhereCassandraRefusesThem() {
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put("CREATE ROLE ?", "Bind variables cannot be used for role names");
    expected.put("DROP ROLE ?", "Bind variables cannot be used for role names");
    expected.put("GRANT ? TO p1", "Bind variables cannot be used for role names");
    expected.put("REVOKE p1 FROM ?", "Bind variables cannot be used for role names");
    expected.put("LIST ALL PERMISSIONS OF ?", "Bind variables cannot be used for role names");
    expected.put("GRANT SELECT ON KEYSPACE ? TO p1", "Bind variables cannot be used for keyspace names");
    expected.put("GRANT SELECT ON ? TO p1", "Bind variables cannot be used for table names");
    expected.put("GRANT SELECT ON TABLE ?.t TO p1", "Bind variables cannot be used for keyspace names");
    expected.put("CREATE ROLE p2 WITH PASSWORD = ?",
        "line 1:31 mismatched input '?' expecting STRING_LITERAL (...ROLE p2 WITH PASSWORD = [?])");
    expected.put("CREATE ROLE p2 WITH LOGIN = ?",
        "line 1:28 mismatched input '?' expecting BOOLEAN (...ROLE p2 WITH LOGIN = [?])");
    expected.put("CREATE ROLE p2 WITH OPTIONS = ?",
        "line 1:30 mismatched input '?' expecting '{' (...ROLE p2 WITH OPTIONS = [?])");
    expected.put("CREATE ROLE p3 WITH OPTIONS = {'a': ?}",
        "Invalid property value: ? for property: 'a' (bind variables are not supported in DDL queries)");
    expected.put("CREATE ROLE p3 WITH ACCESS TO DATACENTERS {?}",
        "line 1:43 mismatched input '?' expecting STRING_LITERAL (... WITH ACCESS TO DATACENTERS {[?]...)");
    expected.put("CREATE USER ? WITH PASSWORD 'x'", "line 1:12 no viable alternative at input '?' (CREATE USER [?]...)");
    expected.put("DROP USER ?", "line 1:10 no viable alternative at input '?' (DROP USER [?])");
    expected.put("CREATE ROLE :name", "line 1:12 no viable alternative at input ':' (CREATE ROLE [:]...)");
    expected.put("CREATE ROLE p2 WITH PASSWORD = :pw",
        "line 1:31 mismatched input ':' expecting STRING_LITERAL (...ROLE p2 WITH PASSWORD = [:]...)");
    expected.put("CREATE ROLE 123", "line 1:12 no viable alternative at input '123' (CREATE ROLE [123])");
    expected.put("CREATE ROLE x WITH FOO = 1", "line 1:19 no viable alternative at input 'FOO' (CREATE ROLE x WITH [FOO]...)");
    expected.put("GRANT FOO ON ALL KEYSPACES TO x", "line 1:10 mismatched input 'ON' expecting K_TO (GRANT FOO [ON]...)");
    expected.put("CREATE ROLE n4 WITH PASSWORD = 'pw' AND LOGIN = true AND ACCESS TO DATACENTERS {}",
        "line 1:80 mismatched input '}' expecting STRING_LITERAL (... AND ACCESS TO DATACENTERS {[}])");
    try (CqlSession admin = session("cassandra", "cassandra")) {
      Map<String, String> prepared = new LinkedHashMap<>();
      for (String q : expected.keySet()) {
        Throwable t = catchThrowable(() -> admin.prepare(q));
        assertThat(t).as(q).isInstanceOf(SyntaxError.class);
        prepared.put(q, t.getMessage());
      }
      assertThat(prepared).isEqualTo(expected);
      // A SimpleStatement with values is sent as a QUERY with values: the same syntax errors,
      // and a statement without markers refuses values.
      assertThatThrownBy(() -> admin.execute(SimpleStatement.newInstance("CREATE ROLE p2 WITH PASSWORD = ?", "pw")))
          .isInstanceOf(SyntaxError.class).hasMessage(expected.get("CREATE ROLE p2 WITH PASSWORD = ?"));
      assertThatThrownBy(() -> admin.execute(SimpleStatement.newInstance("LIST ROLES", "x")))
          .isInstanceOf(InvalidQueryException.class).hasMessage("Invalid amount of bind variables");
    }
  }

  @Test
  void aRoleWithoutAccessToThisDatacenterLogsInAndIsRefusedEveryStatement() throws Exception {
    try (CqlSession admin = session("cassandra", "cassandra")) {
      assertThatThrownBy(() -> admin.execute(
          "CREATE ROLE n1 WITH PASSWORD = 'pw' AND LOGIN = true AND ACCESS TO DATACENTERS {'dc2'}"))
          .isInstanceOf(InvalidQueryException.class)
          .hasMessage("Invalid value(s) for DATACENTERS '[dc2]',All values must be valid datacenters");
      admin.execute("CREATE ROLE n2 WITH PASSWORD = 'pw' AND LOGIN = true AND ACCESS TO DATACENTERS {'datacenter1'}");
      admin.execute("CREATE ROLE n3 WITH PASSWORD = 'pw' AND LOGIN = true AND ACCESS TO ALL DATACENTERS");
      admin.execute("CREATE ROLE n4 WITH PASSWORD = 'pw'");
      assertThatThrownBy(() -> admin.execute("ALTER ROLE n3 WITH ACCESS TO DATACENTERS {'dc9'}"))
          .hasMessage("Invalid value(s) for DATACENTERS '[dc9]',All values must be valid datacenters");
      try (CqlSession n2 = session("n2", "pw")) {
        assertThat(n2.execute("SELECT release_version FROM system.local").one().getString(0)).isEqualTo("5.0.4");
      }
      // A limit to datacenters this node does not know: only a ring with them can take the
      // statement, so write the row as a superuser may (the anchor was tested the same way).
      admin.execute("INSERT INTO system_auth.network_permissions (role, dcs) VALUES ('roles/n3', {'dc2', 'dc3', 'datacenter1'})");
      admin.execute("INSERT INTO system_auth.network_permissions (role, dcs) VALUES ('roles/n2', {'dc2'})");
      admin.execute("CREATE ROLE n6 WITH PASSWORD = 'pw' AND LOGIN = true AND SUPERUSER = true");
      admin.execute("INSERT INTO system_auth.network_permissions (role, dcs) VALUES ('roles/n6', {'dc2'})");
      Thread.sleep(VALIDITY_MILLIS + 200);
      List<String> roles = new ArrayList<>();
      admin.execute("LIST ROLES").forEach(r -> roles.add(r.getString("role") + "/" + r.getString("datacenters")));
      assertThat(roles).containsExactly("cassandra/ALL", "n2/dc2", "n3/datacenter1, dc2, dc3", "n4/n/a", "n6/ALL");

      // Login succeeds; the driver's first query (system.local) is refused, so it cannot connect.
      Throwable t = catchThrowable(() -> session("n2", "pw").close());
      assertThat(t).isInstanceOf(AllNodesFailedException.class);
      Throwable cause = ((AllNodesFailedException) t).getAllErrors().values().iterator().next().get(0);
      assertThat(cause).hasMessageContaining("You do not have access to this datacenter (datacenter1)");
      try (CqlSession n3 = session("n3", "pw"); CqlSession n6 = session("n6", "pw")) {
        assertThat(n3.execute("SELECT release_version FROM system.local").all()).hasSize(1);
        assertThat(n6.execute("SELECT release_version FROM system.local").all()).hasSize(1); // superusers: never limited
      }
      admin.execute("ALTER ROLE n2 WITH ACCESS TO ALL DATACENTERS");
      try (CqlSession n2 = session("n2", "pw")) {
        assertThat(n2.execute("SELECT release_version FROM system.local").all()).hasSize(1);
      }
      admin.execute("DROP ROLE n2");
      assertThat(admin.execute("SELECT * FROM system_auth.network_permissions WHERE role = 'roles/n2'").all()).isEmpty();
    }
  }
}
