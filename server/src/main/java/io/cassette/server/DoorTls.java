package io.cassette.server;

import io.cassette.cluster.net.InternodeEncryption;
import io.cassette.server.CassetteNode.StartException;
import io.cassette.server.config.Config;
import io.cassette.server.config.ConfigKeys;
import io.cassette.tls.ReloadingTlsContext;
import io.cassette.tls.TlsAcceptor;
import io.cassette.tls.TlsConfigException;
import io.cassette.tls.TlsSettings;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Predicate;

/**
 * Each door's TLS from the configuration (docs/tls.md): the CQL door's
 * {@code client_encryption_options}, the ring's {@code server_encryption_options}, the admin
 * port's {@code http_encryption_options} (Cassandra's sub-keys), and the Redis door's
 * {@code tls_*} keys (Redis's names). A door whose files cannot make a context stops the start
 * with a message naming the keys, rather than serving in plain text.
 */
final class DoorTls {
  private DoorTls() {}

  /** The CQL door's acceptor, or null when client_encryption_options.enabled is false. */
  static TlsAcceptor cql(Config c) {
    return acceptor(c, ConfigKeys.CLIENT_ENCRYPTION_OPTIONS, "CQL door");
  }

  /** The admin HTTP port's acceptor (https), or null. */
  static TlsAcceptor http(Config c) {
    return acceptor(c, ConfigKeys.HTTP_ENCRYPTION_OPTIONS, "admin HTTP port");
  }

  private static TlsAcceptor acceptor(Config c, String section, String door) {
    if (!c.bool(section + ".enabled")) {
      return null;
    }
    try {
      return new TlsAcceptor(ReloadingTlsContext.forServer(door, settings(c, section)),
          c.bool(section + ".optional"));
    } catch (TlsConfigException e) {
      throw new StartException(section + " (" + door + "): " + e.getMessage());
    }
  }

  /** Internode TLS, or null when server_encryption_options.internode_encryption is none. */
  static InternodeEncryption internode(Config c, Predicate<InetSocketAddress> sameDatacenter) {
    String section = ConfigKeys.SERVER_ENCRYPTION_OPTIONS;
    String mode = c.string(section + ".internode_encryption");
    if (mode.equals("none")) {
      return null;
    }
    try {
      TlsSettings s = settings(c, section);
      return new InternodeEncryption(InternodeEncryption.Mode.valueOf(mode.toUpperCase(Locale.ROOT)),
          ReloadingTlsContext.forServer("internode messaging", s),
          ReloadingTlsContext.forClient("internode messaging", s), c.bool(section + ".optional"),
          sameDatacenter);
    } catch (TlsConfigException e) {
      throw new StartException(section + ": " + e.getMessage());
    }
  }

  /**
   * TLS on the metadata service's Raft port, or null when internode_encryption is none: the
   * same key, trust and require_client_auth as internode messaging, in every mode but none
   * ({@code dc} too: the metadata port carries the whole ring's membership and schema, and a
   * Raft group spans datacenters). {@code optional} lets the port take plain text as well.
   */
  static io.cassette.metadata.MetadataTls metadata(Config c) {
    String section = ConfigKeys.SERVER_ENCRYPTION_OPTIONS;
    if (c.string(section + ".internode_encryption").equals("none")) {
      return null;
    }
    try {
      TlsSettings s = settings(c, section);
      ReloadingTlsContext server = ReloadingTlsContext.forServer("metadata port", s);
      ReloadingTlsContext client = ReloadingTlsContext.forClient("metadata port", s);
      boolean optional = c.bool(section + ".optional");
      return new io.cassette.metadata.MetadataTls() {
        @Override
        public javax.net.ssl.SSLEngine serverEngine() {
          return server.current().newEngine(io.netty.buffer.ByteBufAllocator.DEFAULT);
        }

        @Override
        public javax.net.ssl.SSLEngine clientEngine(String host, int port) {
          return client.current().newEngine(io.netty.buffer.ByteBufAllocator.DEFAULT, host, port);
        }

        @Override
        public boolean acceptsPlainText() {
          return optional;
        }
      };
    } catch (TlsConfigException e) {
      throw new StartException(section + " (metadata port): " + e.getMessage());
    }
  }

  /** The Redis door's TLS acceptor, or null when tls_port is 0 (Redis's default). */
  static TlsAcceptor redis(Config c) {
    if (c.integer(ConfigKeys.TLS_PORT) == 0) {
      return null;
    }
    if (!c.isSet(ConfigKeys.TLS_CERT_FILE) || !c.isSet(ConfigKeys.TLS_KEY_FILE)) {
      throw new StartException("tls_port is set but tls_cert_file and tls_key_file are not: "
          + "the Redis door needs its certificate and key (bin/cassette certs makes them)");
    }
    TlsSettings.ClientAuthMode auth = switch (c.string(ConfigKeys.TLS_AUTH_CLIENTS)) {
      case "no" -> TlsSettings.ClientAuthMode.NONE;
      case "optional" -> TlsSettings.ClientAuthMode.OPTIONAL;
      default -> TlsSettings.ClientAuthMode.REQUIRE;
    };
    TlsSettings s = new TlsSettings(Path.of(c.string(ConfigKeys.TLS_KEY_FILE)),
        Path.of(c.string(ConfigKeys.TLS_CERT_FILE)), optional(c, ConfigKeys.TLS_KEY_FILE_PASS),
        c.isSet(ConfigKeys.TLS_CA_CERT_FILE) ? Path.of(c.string(ConfigKeys.TLS_CA_CERT_FILE)) : null,
        null, words(optional(c, ConfigKeys.TLS_PROTOCOLS), " "),
        words(optional(c, ConfigKeys.TLS_CIPHERSUITES), ":"), auth, false);
    try {
      return new TlsAcceptor(ReloadingTlsContext.forServer("Redis door", s), false);
    } catch (TlsConfigException e) {
      throw new StartException("tls_cert_file/tls_key_file/tls_ca_cert_file (Redis door): " + e.getMessage());
    }
  }

  /** Cassandra's keystore/truststore sub-keys of {@code section}. */
  private static TlsSettings settings(Config c, String section) {
    String keystore = optional(c, section + ".keystore");
    if (keystore == null) {
      throw new TlsConfigException(section + ".keystore is not set: a key store (PKCS12, JKS) or "
          + "a PEM file holding the key and certificate chain is needed");
    }
    String truststore = optional(c, section + ".truststore");
    TlsSettings.ClientAuthMode auth = switch (c.string(section + ".require_client_auth")) {
      case "true" -> TlsSettings.ClientAuthMode.REQUIRE;
      case "optional" -> TlsSettings.ClientAuthMode.OPTIONAL;
      default -> TlsSettings.ClientAuthMode.NONE;
    };
    List<String> protocols = c.isSet(section + ".accepted_protocols") ? c.list(section + ".accepted_protocols")
        : protocolFromLegacyKey(optional(c, section + ".protocol"));
    return new TlsSettings(Path.of(keystore), null, optional(c, section + ".keystore_password"),
        truststore == null ? null : Path.of(truststore), optional(c, section + ".truststore_password"),
        protocols, c.isSet(section + ".cipher_suites") ? c.list(section + ".cipher_suites") : List.of(),
        auth, c.bool(section + ".require_endpoint_verification"));
  }

  /** Cassandra's "protocol: TLS" means the JDK's defaults; "TLSv1.3" means exactly that one. */
  private static List<String> protocolFromLegacyKey(String protocol) {
    return protocol == null || protocol.equalsIgnoreCase("TLS") ? List.of() : List.of(protocol);
  }

  private static String optional(Config c, String key) {
    return c.isSet(key) && !c.string(key).isEmpty() ? c.string(key) : null;
  }

  private static List<String> words(String text, String separator) {
    return text == null ? List.of() : Arrays.stream(text.trim().split(separator))
        .filter(w -> !w.isBlank()).toList();
  }
}
