package io.cassette.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic data masking as an application sees it through the Java driver 4.x, with Cassandra
 * 5.0.4's answers (checked on the anchor with dynamic_data_masking_enabled and
 * PasswordAuthenticator/CassandraAuthorizer): MASKED WITH refused while the key is off; a plain
 * role with SELECT reads masked values (also through a prepared statement), cannot restrict a
 * masked column without SELECT_MASKED, and reads the clear values once granted UNMASK; the
 * superuser reads them in clear; masks survive a restart (metadata log) and DROP MASKED removes
 * them; a user-defined function masks as a native one does and cannot be dropped while it does.
 */
class DataMaskingDriverTest {
  @TempDir
  Path dir;

  @Test
  void plainRoleSeesMasksAndUnmaskRoleSeesClearValues() throws Exception {
    try (AuthNode node = AuthNode.start(dir, AuthSettings.passwords(0))) {
      try (CqlSession admin = node.session("cassandra", "cassandra")) {
        admin.execute("CREATE KEYSPACE app WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        assertThatThrownBy(() -> admin.execute("CREATE TABLE app.patients (id int PRIMARY KEY,"
            + " name text MASKED WITH mask_inner(1, null))"))
            .isInstanceOf(InvalidQueryException.class)
            .hasMessage("Cannot mask columns because dynamic data masking is not enabled. You can enable it with"
                + " the dynamic_data_masking_enabled property on cassandra.yaml");
        node.language.dynamicDataMasking(true);
        admin.execute("CREATE TABLE app.patients (id int PRIMARY KEY, name text MASKED WITH mask_inner(1, null),"
            + " age int MASKED WITH DEFAULT, phone text)");
        admin.execute("ALTER TABLE app.patients ALTER phone MASKED WITH mask_outer(0, 4, '#')");
        admin.execute("INSERT INTO app.patients (id, name, age, phone) VALUES (1, 'Alice', 42, '555-0123')");
        admin.execute("CREATE ROLE clerk WITH PASSWORD = 'clerk' AND LOGIN = true");
        admin.execute("GRANT SELECT ON app.patients TO clerk");
        assertThat(row(admin, "SELECT name, age, phone FROM app.patients WHERE id = 1"))
            .isEqualTo("Alice/42/555-0123");
        assertThat(admin.execute("SELECT function_name FROM system_schema.column_masks WHERE keyspace_name = 'app'")
            .all()).extracting(r -> r.getString(0)).containsExactly("mask_default", "mask_inner", "mask_outer");
      }
      try (CqlSession clerk = node.session("clerk", "clerk")) {
        assertThat(row(clerk, "SELECT name, age, phone FROM app.patients WHERE id = 1")).isEqualTo("A****/0/555-####");
        PreparedStatement p = clerk.prepare("SELECT name, age, phone FROM app.patients WHERE id = ?");
        Row r = clerk.execute(p.bind(1)).one();
        assertThat(r.getString("name") + "/" + r.getInt("age")).isEqualTo("A****/0");
        // functions, aggregates and JSON see the masked value (as Cassandra 5.0.4 answers)
        Row f = clerk.execute("SELECT mask_outer(name, 0, 0), max(age) FROM app.patients").one();
        assertThat(f.getString(0) + "/" + f.getInt(1)).isEqualTo("A****/0");
        assertThat(clerk.execute("SELECT JSON name, age FROM app.patients").one().getString(0))
            .isEqualTo("{\"name\": \"A****\", \"age\": 0}");
        assertThatThrownBy(() -> clerk.execute("SELECT * FROM app.patients WHERE name = 'Alice' ALLOW FILTERING"))
            .isInstanceOf(UnauthorizedException.class)
            .hasMessage("User clerk has no UNMASK nor SELECT_MASKED permission on table app.patients,"
                + " cannot query masked columns [name]");
      }
      try (CqlSession admin = node.session("cassandra", "cassandra")) {
        admin.execute("GRANT SELECT_MASKED ON app.patients TO clerk");
      }
      try (CqlSession clerk = node.session("clerk", "clerk")) {
        assertThat(row(clerk, "SELECT name, age, phone FROM app.patients WHERE name = 'Alice' ALLOW FILTERING"))
            .isEqualTo("A****/0/555-####");
      }
      try (CqlSession admin = node.session("cassandra", "cassandra")) {
        admin.execute("GRANT UNMASK ON app.patients TO clerk");
      }
      try (CqlSession clerk = node.session("clerk", "clerk")) {
        assertThat(row(clerk, "SELECT name, age, phone FROM app.patients WHERE id = 1")).isEqualTo("Alice/42/555-0123");
      }
      try (CqlSession admin = node.session("cassandra", "cassandra")) {
        admin.execute("REVOKE UNMASK ON app.patients FROM clerk");
        admin.execute("ALTER TABLE app.patients ALTER age DROP MASKED");
      }
      try (CqlSession clerk = node.session("clerk", "clerk")) {
        assertThat(row(clerk, "SELECT name, age, phone FROM app.patients WHERE id = 1")).isEqualTo("A****/42/555-####");
      }
      // a user-defined function of the table's keyspace as the mask (Cassandra 5.0, UDFs enabled)
      node.language.userDefinedFunctions(new io.cassette.cql.language.functions.UserFunctions.Settings(true, 1500));
      try (CqlSession admin = node.session("cassandra", "cassandra")) {
        admin.execute("CREATE FUNCTION app.plus(v int, d int) RETURNS NULL ON NULL INPUT RETURNS int LANGUAGE java"
            + " AS 'return v + d;'");
        admin.execute("ALTER TABLE app.patients ALTER age MASKED WITH app.plus(1000)");
        assertThatThrownBy(() -> admin.execute("DROP FUNCTION app.plus")).isInstanceOf(InvalidQueryException.class)
            .hasMessage("Function 'app.plus' is still referenced by column masks in tables patients");
      }
      try (CqlSession clerk = node.session("clerk", "clerk")) {
        assertThat(row(clerk, "SELECT name, age, phone FROM app.patients WHERE id = 1")).isEqualTo("A****/1042/555-####");
      }
    }
    // the masks are part of the table's schema in the metadata log: a restart keeps them (the
    // function is defined again before the table that it masks)
    try (AuthNode node = AuthNode.start(dir, AuthSettings.passwords(0));
         CqlSession clerk = node.session("clerk", "clerk")) {
      assertThat(row(clerk, "SELECT name, age, phone FROM app.patients WHERE id = 1")).isEqualTo("A****/1042/555-####");
    }
  }

  private static String row(CqlSession s, String query) {
    List<Row> rows = s.execute(query).all();
    assertThat(rows).hasSize(1);
    Row r = rows.get(0);
    return r.getString("name") + "/" + (r.isNull("age") ? "null" : r.getInt("age")) + "/" + r.getString("phone");
  }
}
