package io.cassette.resp.acl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.resp.testing.TestServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisDataException;

/** Redis ACL through Jedis on a real server: rules enforced, AUTH, ACL LOG, requirepass, the ACL file. */
class AclTest {
  @TempDir Path dir;

  private static Jedis as(TestServer s, String user, String password) {
    return new Jedis(new HostAndPort("127.0.0.1", s.port()),
        DefaultJedisClientConfig.builder().user(user).password(password).build());
  }

  @Test
  void aUserWithoutWriteGetsNopermOnSetAndKeyPatternsRestrictKeys() {
    try (TestServer s = TestServer.start(dir);
         Jedis admin = new Jedis("127.0.0.1", s.port())) {
      admin.aclSetUser("reader", "on", ">rpw", "~*", "+@all", "-@write");
      admin.aclSetUser("app", "on", ">apw", "~app:*", "+@all");
      admin.set("app:1", "one");
      admin.set("other", "two");
      try (Jedis reader = as(s, "reader", "rpw")) {
        assertThat(reader.get("other")).isEqualTo("two");
        assertThatThrownBy(() -> reader.set("app:1", "x")).isInstanceOf(JedisDataException.class)
            .hasMessage("NOPERM this user has no permissions to run the 'set' command");
        assertThat(reader.aclWhoAmI()).isEqualTo("reader");
      }
      try (Jedis app = as(s, "app", "apw")) {
        assertThat(app.get("app:1")).isEqualTo("one");
        assertThat(app.set("app:2", "x")).isEqualTo("OK");
        assertThatThrownBy(() -> app.get("other")).isInstanceOf(JedisDataException.class)
            .hasMessage("NOPERM this user has no permissions to access one of the keys used as arguments");
        assertThatThrownBy(() -> app.mset("app:3", "a", "other", "b"))
            .hasMessageStartingWith("NOPERM");
        assertThat(admin.get("app:3")).isNull();
        // In MULTI the refused command fails the transaction, as Redis's EXECABORT.
        Transaction t = app.multi();
        t.set("app:4", "y");
        t.get("other");
        assertThatThrownBy(t::exec).hasMessageStartingWith("EXECABORT");
        assertThat(admin.get("app:4")).isNull();
      }
      List<String> log = admin.aclLog().stream().map(e -> e.getReason() + " " + e.getObject()
          + " " + e.getUsername() + " " + e.getContext()).toList();
      assertThat(log).contains("command set reader toplevel", "key other app toplevel",
          "key other app multi");
    }
  }

  @Test
  void aWrongPasswordIsRefusedAndRecordedInAclLog() {
    try (TestServer s = TestServer.start(dir);
         Jedis admin = new Jedis("127.0.0.1", s.port())) {
      admin.aclSetUser("alice", "on", ">right", "~*", "+@all");
      assertThatThrownBy(() -> as(s, "alice", "wrong").ping())
          .isInstanceOf(JedisAccessControlException.class)
          .hasMessageContaining("WRONGPASS invalid username-password pair or user is disabled.");
      assertThatThrownBy(() -> as(s, "nobody", "x").ping())
          .isInstanceOf(JedisAccessControlException.class);
      admin.aclSetUser("alice", "off");
      assertThatThrownBy(() -> as(s, "alice", "right").ping())
          .isInstanceOf(JedisAccessControlException.class);
      var entries = admin.aclLog();
      assertThat(entries).extracting(e -> e.getReason() + " " + e.getUsername() + " " + e.getCount())
          .containsExactly("auth alice 2", "auth nobody 1");
      assertThat(entries.get(0).getObject()).isEqualTo("AUTH");
      assertThat(entries.get(0).getClientInfo()).containsEntry("cmd", "auth");
      assertThat(admin.aclLogReset()).isEqualTo("OK");
      assertThat(admin.aclLog()).isEmpty();
    }
  }

  @Test
  void requirepassIsTheDefaultUsersPassword() {
    try (TestServer s = TestServer.start(dir, o -> o.withRequirePass("s3cret"));
         Jedis anonymous = new Jedis("127.0.0.1", s.port())) {
      assertThatThrownBy(anonymous::ping).hasMessageContaining("NOAUTH");
      assertThat(anonymous.auth("s3cret")).isEqualTo("OK");
      assertThat(anonymous.aclWhoAmI()).isEqualTo("default");
      assertThat(anonymous.aclList()).containsExactly("user default on "
          + "#" + AclUser.sha256("s3cret") + " ~* &* +@all");
      try (Jedis named = as(s, "default", "s3cret")) {
        assertThat(named.ping()).isEqualTo("PONG");
      }
      anonymous.configSet("requirepass", "");
      try (Jedis open = new Jedis("127.0.0.1", s.port())) {
        assertThat(open.ping()).isEqualTo("PONG");
      }
    }
  }

  @Test
  void usersSurviveARestartThroughTheAclFile() throws Exception {
    Path acl = dir.resolve("users.acl");
    try (TestServer s = TestServer.start(dir.resolve("data"), o -> o, r -> r.aclFile(acl));
         Jedis admin = new Jedis("127.0.0.1", s.port())) {
      admin.aclSetUser("keeper", "on", ">kpw", "~k:*", "+get", "+set");
      admin.aclSetUser("gone", "on", ">g");
      assertThat(admin.aclDelUser("gone")).isEqualTo(1);
    }
    assertThat(Files.readString(acl)).contains("user keeper on #").doesNotContain("gone");
    try (TestServer s = TestServer.start(dir.resolve("data"), o -> o, r -> r.aclFile(acl));
         Jedis keeper = as(s, "keeper", "kpw")) {
      assertThat(keeper.set("k:1", "v")).isEqualTo("OK");
      assertThatThrownBy(() -> keeper.del("k:1")).hasMessageContaining("'del' command");
      // ACL USERS is not allowed for keeper: the rules came back from the file.
      assertThatThrownBy(keeper::aclUsers).hasMessageStartingWith("NOPERM");
    }
  }

  @Test
  void deletingAUserClosesItsConnections() throws Exception {
    try (TestServer s = TestServer.start(dir);
         Jedis admin = new Jedis("127.0.0.1", s.port())) {
      admin.aclSetUser("temp", "on", ">t", "~*", "+@all");
      Jedis temp = as(s, "temp", "t");
      assertThat(temp.ping()).isEqualTo("PONG");
      assertThat(admin.aclDelUser("temp")).isEqualTo(1);
      assertThatThrownBy(temp::ping).isInstanceOf(redis.clients.jedis.exceptions.JedisConnectionException.class);
      temp.close();
    }
  }
}
