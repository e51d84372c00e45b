package io.cassette.cql.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.auth.AuthenticationException;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PasswordAuthenticator and CassandraAuthorizer through the real language, storage and
 * transport, with the Java driver 4.x's PlainTextAuthProvider (and the Python driver's when
 * installed). Texts are the ones Cassandra 5.0.4 answered for the same statements.
 */
class PasswordAuthDriverTest {
  /** The caches' validity in this test: a GRANT is seen by a connection within it. */
  static final long VALIDITY_MILLIS = 1500;

  @TempDir
  static Path dir;
  static AuthNode node;
  static InetSocketAddress address;

  @BeforeAll
  static void start() throws Exception {
    node = AuthNode.start(dir, AuthSettings.passwords(VALIDITY_MILLIS));
    address = node.address;
    try (CqlSession admin = session("cassandra", "cassandra")) {
      admin.execute("CREATE KEYSPACE ks WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      admin.execute("CREATE TABLE ks.t (k int PRIMARY KEY, v int)");
      admin.execute("INSERT INTO ks.t (k, v) VALUES (1, 10)");
    }
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

  /** The AuthenticationException the driver raised for the one node. */
  static String loginError(String user, String password) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(() -> session(user, password).close());
    assertThat(t).isInstanceOf(AllNodesFailedException.class);
    Throwable cause = ((AllNodesFailedException) t).getAllErrors().values().iterator().next().get(0);
    assertThat(cause).isInstanceOf(AuthenticationException.class);
    return cause.getMessage();
  }

  /**
   * The AuthenticationException of a login that must start failing: a credentials cache entry
   * stays valid for up to {@link #VALIDITY_MILLIS} after the role changed, as in Cassandra.
   */
  static String loginErrorWithin(String user, String password) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(VALIDITY_MILLIS * 10);
    while (true) {
      try {
        session(user, password).close();
      } catch (AllNodesFailedException refused) {
        return loginError(user, password);
      }
      assertThat(System.nanoTime()).as("%s's old login refused within the cache's validity", user).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  @Test
  void defaultSuperuserLogsInAndWrongCredentialsAreRefusedWithCassandrasText() {
    try (CqlSession s = session("cassandra", "cassandra")) {
      assertThat(s.execute("SELECT v FROM ks.t WHERE k = 1").one().getInt(0)).isEqualTo(10);
      Row row = s.execute("SELECT role, is_superuser, can_login, salted_hash FROM system_auth.roles WHERE role = 'cassandra'").one();
      assertThat(row.getBoolean("is_superuser")).isTrue();
      assertThat(row.getString("salted_hash")).startsWith("$2a$10$").hasSize(60);
    }
    assertThat(loginError("cassandra", "wrong")).contains("Provided username cassandra and/or password are incorrect");
    assertThat(loginError("nobody", "x")).contains("Provided username nobody and/or password are incorrect");
  }

  @Test
  void roleWithoutSelectIsUnauthorizedUntilGrantedAndAfterRevoked() throws Exception {
    try (CqlSession admin = session("cassandra", "cassandra")) {
      admin.execute("CREATE ROLE alice WITH PASSWORD = 'a' AND LOGIN = true");
      try (CqlSession alice = session("alice", "a")) {
        assertThatThrownBy(() -> alice.execute("SELECT * FROM ks.t"))
            .isInstanceOf(UnauthorizedException.class)
            .hasMessageContaining("User alice has no SELECT permission on <table ks.t> or any of its parents");
        long deniedAt = System.nanoTime();
        assertThatThrownBy(() -> alice.execute("INSERT INTO ks.t (k, v) VALUES (2, 2)"))
            .isInstanceOf(UnauthorizedException.class)
            .hasMessageContaining("User alice has no MODIFY permission on <table ks.t> or any of its parents");
        // What every client may read stays readable (drivers read it on connect).
        assertThat(alice.execute("SELECT release_version FROM system.local").one().getString(0)).isNotNull();
        assertThat(alice.execute("SELECT keyspace_name FROM system_schema.keyspaces").all()).isNotEmpty();
        assertThatThrownBy(() -> alice.execute("SELECT * FROM system_auth.roles"))
            .isInstanceOf(UnauthorizedException.class)
            .hasMessageContaining("User alice has no SELECT permission on <table system_auth.roles> or any of its parents");

        admin.execute("GRANT SELECT ON KEYSPACE ks TO alice");
        // The permission cache of alice's denied read is still valid: Cassandra's behaviour too.
        long grantedAt = System.nanoTime();
        if (TimeUnit.NANOSECONDS.toMillis(grantedAt - deniedAt) < VALIDITY_MILLIS / 2) {
          assertThatThrownBy(() -> alice.execute("SELECT * FROM ks.t")).isInstanceOf(UnauthorizedException.class);
        }
        long seenAfter = waitUntilAllowed(alice, "SELECT v FROM ks.t WHERE k = 1", grantedAt);
        assertThat(seenAfter).isLessThanOrEqualTo(VALIDITY_MILLIS + 1000);
        PreparedStatement read = alice.prepare("SELECT v FROM ks.t WHERE k = ?");
        assertThat(alice.execute(read.bind(1)).one().getInt(0)).isEqualTo(10);

        admin.execute("REVOKE SELECT ON KEYSPACE ks FROM alice");
        long revokedAt = System.nanoTime();
        long deadline = revokedAt + TimeUnit.MILLISECONDS.toNanos(VALIDITY_MILLIS + 3000);
        boolean refused = false;
        while (!refused && System.nanoTime() < deadline) {
          try {
            alice.execute(read.bind(1)); // prepared statements are checked on every EXECUTE
            Thread.sleep(100);
          } catch (UnauthorizedException e) {
            refused = true;
          }
        }
        assertThat(refused).as("REVOKE took effect on a prepared statement").isTrue();
      }
    }
  }

  private static long waitUntilAllowed(CqlSession s, String cql, long since) throws InterruptedException {
    long deadline = since + TimeUnit.MILLISECONDS.toNanos(VALIDITY_MILLIS + 3000);
    while (System.nanoTime() < deadline) {
      try {
        s.execute(cql);
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since);
      } catch (UnauthorizedException e) {
        Thread.sleep(50);
      }
    }
    throw new AssertionError("GRANT not seen within " + (VALIDITY_MILLIS + 3000) + " ms");
  }

  @Test
  void roleStatementsAnswerAsCassandra() throws InterruptedException {
    try (CqlSession admin = session("cassandra", "cassandra")) {
      admin.execute("CREATE ROLE bob WITH PASSWORD = 'b' AND LOGIN = true");
      assertThatThrownBy(() -> admin.execute("CREATE ROLE bob WITH PASSWORD = 'b' AND LOGIN = true"))
          .isInstanceOf(InvalidQueryException.class).hasMessage("bob already exists");
      admin.execute("CREATE ROLE IF NOT EXISTS bob");
      assertThatThrownBy(() -> admin.execute("CREATE ROLE carl WITH OPTIONS = {'a': 'b'}"))
          .hasMessage("org.apache.cassandra.auth.CassandraRoleManager doesn't support OPTIONS");
      assertThatThrownBy(() -> admin.execute("CREATE ROLE ''")).hasMessage("Role name can't be an empty string");
      assertThatThrownBy(() -> admin.execute("DROP ROLE nobody")).hasMessage("nobody doesn't exist");
      assertThatThrownBy(() -> admin.execute("ALTER ROLE nobody WITH LOGIN = true")).hasMessage("Role nobody doesn't exist");
      assertThatThrownBy(() -> admin.execute("GRANT SELECT ON KEYSPACE nope TO bob"))
          .hasMessage("Resource <keyspace nope> doesn't exist");
      assertThatThrownBy(() -> admin.execute("GRANT SELECT ON ALL KEYSPACES TO nobody"))
          .hasMessage("Role nobody doesn't exist");
      assertThatThrownBy(() -> admin.execute("GRANT DESCRIBE ON ALL KEYSPACES TO bob"))
          .hasMessageContaining("Resource type DataResource does not support any of the requested permissions");
      assertThatThrownBy(() -> admin.execute("CREATE ROLE r3 WITH HASHED PASSWORD = 'notahash'"))
          .hasMessage("Invalid hashed password value. Please use jBcrypt.");
      assertThatThrownBy(() -> admin.execute("DROP ROLE cassandra")).hasMessage("Cannot DROP primary role for current login");

      // As in Cassandra, system_auth's replication may be changed (raise it on a ring).
      admin.execute("ALTER KEYSPACE system_auth WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      admin.execute("CREATE USER carol WITH PASSWORD 'c' NOSUPERUSER");
      admin.execute("GRANT SELECT, MODIFY ON ALL KEYSPACES TO bob");
      admin.execute("GRANT bob TO carol");
      assertThatThrownBy(() -> admin.execute("GRANT carol TO bob")).hasMessage("carol is a member of bob");
      List<String> roles = new ArrayList<>();
      admin.execute("LIST ROLES OF carol").forEach(r -> roles.add(r.getString("role") + "/" + r.getBoolean("super")
          + "/" + r.getBoolean("login") + "/" + r.getString("datacenters")));
      assertThat(roles).containsExactly("bob/false/true/ALL", "carol/false/true/ALL");
      List<String> perms = new ArrayList<>();
      admin.execute("LIST ALL PERMISSIONS OF carol").forEach(r -> perms.add(r.getString("role") + " "
          + r.getString("username") + " " + r.getString("resource") + " " + r.getString("permission")));
      assertThat(perms).containsExactly("bob bob <all keyspaces> SELECT", "bob bob <all keyspaces> MODIFY");
      // The creator of a role gets ALTER, DROP, AUTHORIZE and DESCRIBE on it.
      List<String> creator = new ArrayList<>();
      admin.execute("LIST ALL PERMISSIONS ON ROLE carol").forEach(r -> creator.add(r.getString("role") + " "
          + r.getString("permission")));
      assertThat(creator).containsExactly("cassandra ALTER", "cassandra DROP", "cassandra AUTHORIZE", "cassandra DESCRIBE");
      Row members = admin.execute("SELECT member_of FROM system_auth.roles WHERE role = 'carol'").one();
      assertThat(members.getSet(0, String.class)).containsExactly("bob");

      try (CqlSession carol = session("carol", "c")) {
        // carol reads through bob's grant; she may not manage roles.
        assertThat(carol.execute("SELECT v FROM ks.t WHERE k = 1").one().getInt(0)).isEqualTo(10);
        assertThatThrownBy(() -> carol.execute("CREATE ROLE e1")).isInstanceOf(UnauthorizedException.class)
            .hasMessage("User carol does not have sufficient privileges to perform the requested operation");
        assertThatThrownBy(() -> carol.execute("ALTER ROLE carol WITH SUPERUSER = true"))
            .hasMessage("You aren't allowed to alter your own superuser status or that of a role granted to you");
        assertThatThrownBy(() -> carol.execute("ALTER ROLE carol WITH LOGIN = false"))
            .hasMessage("You aren't allowed to alter LOGIN");
        assertThatThrownBy(() -> carol.execute("LIST ALL PERMISSIONS"))
            .hasMessage("You are not authorized to view everyone's permissions");
        assertThatThrownBy(() -> carol.execute("LIST ALL PERMISSIONS OF cassandra"))
            .hasMessage("You are not authorized to view cassandra's permissions");
        assertThatThrownBy(() -> carol.execute("DROP TABLE ks.t"))
            .hasMessage("User carol has no DROP permission on <table ks.t> or any of its parents");
        assertThatThrownBy(() -> carol.execute("ALTER KEYSPACE system_auth WITH replication ="
            + " {'class': 'SimpleStrategy', 'replication_factor': 1}"))
            .hasMessage("User carol has no ALTER permission on <keyspace system_auth> or any of its parents");
        carol.execute("ALTER ROLE carol WITH PASSWORD = 'c2'");
      }
      assertThat(loginErrorWithin("carol", "c")).contains("Provided username carol and/or password are incorrect");
      try (CqlSession carol = session("carol", "c2")) {
        // A non-superuser sees the roles it has that may log in (bob was created with LOGIN).
        assertThat(carol.execute("LIST USERS").all()).extracting(r -> r.getString("name")).containsExactly("bob", "carol");
      }
      admin.execute("CREATE ROLE nologin WITH PASSWORD = 'n'");
      assertThat(loginError("nologin", "n")).contains("nologin is not permitted to log in");
      admin.execute("REVOKE bob FROM carol");
      assertThatThrownBy(() -> admin.execute("REVOKE bob FROM carol")).hasMessage("carol is not a member of bob");
      admin.execute("DROP ROLE carol");
      assertThat(admin.execute("SELECT * FROM system_auth.role_permissions WHERE role = 'cassandra' AND resource = 'roles/carol'").all())
          .isEmpty();
    }
  }

  @Test
  void creatorOfAKeyspaceGetsItsPermissions() {
    try (CqlSession admin = session("cassandra", "cassandra")) {
      admin.execute("CREATE ROLE dave WITH PASSWORD = 'd' AND LOGIN = true");
      admin.execute("GRANT CREATE ON ALL KEYSPACES TO dave");
    }
    try (CqlSession dave = session("dave", "d")) {
      dave.execute("CREATE KEYSPACE ks2 WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
      dave.execute("CREATE TABLE ks2.t (k int PRIMARY KEY)");
      dave.execute("INSERT INTO ks2.t (k) VALUES (1)");
      assertThat(dave.execute("SELECT k FROM ks2.t").all()).hasSize(1);
      List<String> perms = new ArrayList<>();
      dave.execute("LIST ALL PERMISSIONS OF dave").forEach(r -> perms.add(r.getString("resource") + " " + r.getString("permission")));
      assertThat(perms).contains("<all keyspaces> CREATE", "<keyspace ks2> DROP", "<table ks2.t> SELECT",
          "<all functions in ks2> EXECUTE");
      dave.execute("DROP KEYSPACE ks2");
      perms.clear();
      dave.execute("LIST ALL PERMISSIONS OF dave").forEach(r -> perms.add(r.getString("resource") + " " + r.getString("permission")));
      assertThat(perms).containsExactly("<all keyspaces> CREATE");
    }
  }

  @Test
  void pythonDriverPlainTextAuthProvider(@TempDir Path scriptDir) throws Exception {
    io.cassette.cql.DriverScript.assumePythonDriver();
    Path script = scriptDir.resolve("auth.py");
    Files.writeString(script, String.join("\n",
        "import sys",
        "from cassandra.cluster import Cluster, NoHostAvailable",
        "from cassandra.auth import PlainTextAuthProvider",
        "from cassandra.policies import RoundRobinPolicy",
        "def connect(user, pw):",
        "    c = Cluster(['127.0.0.1'], port=int(sys.argv[1]), load_balancing_policy=RoundRobinPolicy(),",
        "                auth_provider=PlainTextAuthProvider(user, pw))",
        "    return c, c.connect()",
        "c, s = connect('cassandra', 'cassandra')",
        "print('ROW', s.execute('SELECT v FROM ks.t WHERE k = 1').one()[0])",
        "c.shutdown()",
        "try:",
        "    connect('cassandra', 'nope')",
        "except NoHostAvailable as e:",
        "    err = list(e.errors.values())[0]",
        "    print('REFUSED', type(err).__name__, err)",
        ""), StandardCharsets.UTF_8);
    String output = io.cassette.cql.DriverScript.run(60, java.util.List.of(io.cassette.cql.DriverScript.PYTHON,
        script.toString(), String.valueOf(address.getPort()))).output();
    assertThat(output).contains("ROW 10");
    assertThat(output).contains("AuthenticationFailed").contains("Bad credentials")
        .contains("Provided username cassandra and/or password are incorrect");
  }
}
