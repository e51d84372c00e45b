package io.cassette.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import org.junit.jupiter.api.Test;

/** The admin port's decision for each kind of request and credential (the node-level test is tools' AuthAgainstNodeTest). */
class AdminCredentialsTest {
  static final InetSocketAddress LOOPBACK = new InetSocketAddress("127.0.0.1", 50000);
  static final InetSocketAddress LAN = new InetSocketAddress("192.168.1.20", 50000);

  static HttpRequest request(HttpMethod m, String authorization) {
    HttpRequest r = new DefaultHttpRequest(HttpVersion.HTTP_1_1, m, "/api/flush");
    if (authorization != null) {
      r.headers().set("Authorization", authorization);
    }
    return r;
  }

  static String basic(String user, String password) {
    return "Basic " + Base64.getEncoder().encodeToString((user + ":" + password).getBytes(StandardCharsets.UTF_8));
  }

  final AdminCredentials.PasswordCheck roles = new AdminCredentials.PasswordCheck() {
    @Override
    public String loginError(String username, String password) {
      return (username.equals("admin") && password.equals("pw")) || (username.equals("bob") && password.equals("b"))
          ? null : "Provided username " + username + " and/or password are incorrect";
    }

    @Override
    public boolean isSuperuser(String username) {
      return username.equals("admin");
    }
  };

  @Test
  void withoutACredentialConfiguredOnlyLoopbackMayChangeTheNode() {
    AdminCredentials none = new AdminCredentials("", null);
    assertThat(none.check(request(HttpMethod.POST, null), LOOPBACK)).isNull();
    assertThat(none.check(request(HttpMethod.GET, null), LAN)).isNull();
    assertThat(none.check(request(HttpMethod.POST, null), LAN).status()).isEqualTo(403);
  }

  @Test
  void superuserOrTokenRequiredForStateChanges() {
    AdminCredentials c = new AdminCredentials("tok", roles);
    assertThat(c.check(request(HttpMethod.GET, null), LAN)).isNull();
    assertThat(c.check(request(HttpMethod.POST, null), LOOPBACK).status()).isEqualTo(401);
    assertThat(c.check(request(HttpMethod.POST, basic("admin", "pw")), LAN)).isNull();
    assertThat(c.check(request(HttpMethod.POST, basic("admin", "no")), LAN).status()).isEqualTo(401);
    assertThat(c.check(request(HttpMethod.POST, basic("bob", "b")), LAN).status()).isEqualTo(403);
    assertThat(c.check(request(HttpMethod.DELETE, "Bearer tok"), LAN)).isNull();
    assertThat(c.check(request(HttpMethod.POST, "Bearer tok2"), LAN).status()).isEqualTo(401);
    assertThat(c.check(request(HttpMethod.POST, "Digest x"), LAN).status()).isEqualTo(401);
    AdminCredentials tokenOnly = new AdminCredentials("tok", null);
    assertThat(tokenOnly.check(request(HttpMethod.POST, basic("admin", "pw")), LAN).status()).isEqualTo(401);
  }
}
