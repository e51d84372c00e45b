package io.cassette.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.cassette.cql.Consistency;
import io.cassette.cql.auth.AuthSettings;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigLoader;
import io.cassette.server.config.ConfigLoader.FlagValue;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The authentication keys with cassandra.yaml's names and values. */
class NodeAuthTest {
  static Config config(Map<String, String> flags, Map<String, String> env) {
    Map<String, FlagValue> f = new HashMap<>();
    flags.forEach((k, v) -> f.put(k, new FlagValue(v, "test")));
    return ConfigLoader.load(null, env, f);
  }

  @Test
  void defaultsAreCassandrasAllowAll() {
    AuthSettings s = NodeAuth.settings(config(Map.of(), Map.of()));
    assertThat(s.requiresPasswords()).isFalse();
    assertThat(s.checksPermissions()).isFalse();
    assertThat(s.permissionsValidityMillis()).isEqualTo(2000);
    assertThat(s.readConsistency()).isEqualTo(Consistency.LOCAL_QUORUM);
    assertThat(s.writeConsistency()).isEqualTo(Consistency.EACH_QUORUM);
  }

  @Test
  void acceptsCassandrasClassNamesAndTheInitialPasswordFromTheEnvironment() {
    AuthSettings s = NodeAuth.settings(config(Map.of(
        "authenticator", "org.apache.cassandra.auth.PasswordAuthenticator",
        "authorizer", "CassandraAuthorizer", "permissions_validity", "0ms"),
        Map.of("CASSETTE_AUTH_INITIAL_SUPERUSER_PASSWORD", "from-env")));
    assertThat(s.requiresPasswords()).isTrue();
    assertThat(s.checksPermissions()).isTrue();
    assertThat(s.permissionsValidityMillis()).isZero();
    assertThat(s.initialSuperuserPassword()).isEqualTo("from-env");
  }

  @Test
  void refusesAnAuthorizerWithoutAuthenticatorAsCassandraDoes() {
    assertThatThrownBy(() -> NodeAuth.settings(config(Map.of("authorizer", "CassandraAuthorizer"), Map.of())))
        .isInstanceOf(CassetteNode.StartException.class)
        .hasMessageContaining("AllowAllAuthenticator can't be used with CassandraAuthorizer");
  }
}
