package io.cassette.tools.nodetool;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.cassette.tools.nodetool.NodetoolMainTest.Run;
import io.cassette.tools.stress.StressMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A whole node with PasswordAuthenticator, CassandraAuthorizer, an initial superuser password
 * from the configuration and an admin token: nodetool's -u/-pw/-pwf against the admin port's
 * state-changing endpoints, the token, and cassette stress with -mode user= password=.
 */
class AuthAgainstNodeTest {
  @TempDir Path dir;

  private static Run stress(String commandLine) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int exit = StressMain.run(commandLine.split(" "), new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
    return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  @Test
  void stateChangesNeedASuperuserOrTheTokenAndStressLogsIn() throws Exception {
    try (TestNode node = TestNode.start(dir.resolve("data"), Map.of(
        "authenticator", "PasswordAuthenticator",
        "authorizer", "CassandraAuthorizer",
        "auth_initial_superuser_password", "s3cret",
        "admin_http_token", "tok-123"))) {
      int http = node.http;
      int cql = node.cql;
      try (CqlSession admin = node.session("cassandra", "s3cret")) {
        admin.execute("CREATE ROLE bob WITH PASSWORD = 'b' AND LOGIN = true");
      }

      // Reads stay open; a state change without a credential is refused with 401.
      assertThat(node.nodetool("status").exit()).isZero();
      Run refused = node.nodetool("flush");
      assertThat(refused.exit()).isEqualTo(1);
      assertThat(refused.err()).contains("authentication required");
      // The initial password came from the configuration: the well-known one does not work.
      Run wellKnown = node.nodetool("-u", "cassandra", "-pw", "cassandra", "flush");
      assertThat(wellKnown.err()).contains("Provided username cassandra and/or password are incorrect");
      assertThat(node.nodetool("-u", "cassandra", "-pw", "s3cret", "flush").exit()).isZero();
      Run notSuper = node.nodetool("-u", "bob", "-pw", "b", "flush");
      assertThat(notSuper.exit()).isEqualTo(1);
      assertThat(notSuper.err()).contains("User bob is not a superuser");
      Path passwords = dir.resolve("nodetool.password");
      Files.writeString(passwords, "# user password\nbob b\ncassandra s3cret\n");
      assertThat(node.nodetool("-u", "cassandra", "-pwf", passwords.toString(), "flush").exit()).isZero();
      assertThat(node.nodetool("invalidatepermissionscache").exit()).isEqualTo(1);
      for (String cache : new String[] {"invalidaterolescache", "invalidatepermissionscache", "invalidatecredentialscache"}) {
        assertThat(node.nodetool("-u", "cassandra", "-pw", "s3cret", cache).exit()).as(cache).isZero();
      }

      HttpClient client = HttpClient.newHttpClient();
      HttpResponse<String> noToken = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/api/flush"))
          .header("X-Requested-By", "test").POST(HttpRequest.BodyPublishers.noBody()).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(noToken.statusCode()).isEqualTo(401);
      assertThat(noToken.headers().firstValue("WWW-Authenticate")).hasValueSatisfying(v -> assertThat(v).startsWith("Basic"));
      HttpResponse<String> wrongToken = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/api/flush"))
          .header("X-Requested-By", "test").header("Authorization", "Bearer nope")
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(wrongToken.statusCode()).isEqualTo(401);
      HttpResponse<String> token = client.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + http + "/api/flush"))
          .header("X-Requested-By", "test").header("Authorization", "Bearer tok-123")
          .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(token.statusCode()).as(token.body()).isEqualTo(200);

      // cassette stress logs in as cassandra-stress does (-mode user= password=).
      String target = " -node 127.0.0.1 -port native=" + cql + " -log no-settings -rate threads=2";
      Run write = stress("write n=300 -mode native cql3 user=cassandra password=s3cret" + target);
      assertThat(write.exit()).as(write.out() + write.err()).isZero();
      assertThat(write.out()).contains("Total errors              :          0");
      Run wrong = stress("write n=10 -mode native cql3 user=cassandra password=nope" + target);
      assertThat(wrong.exit()).isNotZero();
      assertThat(wrong.out() + wrong.err()).contains("Provided username cassandra and/or password are incorrect");
      // A role without permissions cannot create stress's keyspace.
      Run bob = stress("write n=10 -mode native cql3 user=bob password=b" + target);
      assertThat(bob.exit()).isNotZero();
      assertThat(bob.out() + bob.err()).contains("User bob has no");
    }
  }
}
