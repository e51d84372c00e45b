package io.cassette.tls;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What one door's TLS is made of: its own key and certificate chain, whom it trusts, and which
 * protocols and cipher suites it speaks. The same record serves Cassandra's
 * {@code client_encryption_options}/{@code server_encryption_options} and Redis's
 * {@code tls-*} keys; the launcher maps each door's configuration onto it.
 *
 * <p>Key material is either a key store ({@code keyFile} a PKCS12 or JKS file,
 * {@code certFile} null) or PEM ({@code keyFile} a PKCS#8 private key, {@code certFile} the
 * certificate chain; one file may hold both, as Cassandra's PEMBasedSslContextFactory reads
 * it). Trust is a trust store (PKCS12/JKS) or a PEM file of CA certificates; null trusts the
 * JDK's default CAs (clients) or nobody (a server not asking for client certificates). The
 * format of each file is recognised from its content, so {@code store_type} may be omitted.
 *
 * @param keyFile          key store or PEM private key; null for a client without a certificate
 * @param certFile         PEM certificate chain, or null when {@code keyFile} is a key store
 *                         (or a PEM holding the chain too)
 * @param keyPassword      key store password (also the key's), or the PEM key's password; may be null
 * @param trustFile        trust store or PEM CA certificates; null: see above
 * @param trustPassword    trust store password; may be null
 * @param protocols        e.g. TLSv1.2, TLSv1.3; empty: the JDK's enabled ones
 * @param cipherSuites     JSSE cipher suite names; empty: the JDK's defaults
 * @param clientAuth       whether a server asks for, or requires, a client certificate
 * @param verifyHostname   a client checks that the server's certificate names the host it dialled
 *                         (Cassandra's {@code require_endpoint_verification})
 */
public record TlsSettings(Path keyFile, Path certFile, String keyPassword, Path trustFile,
                          String trustPassword, List<String> protocols, List<String> cipherSuites,
                          ClientAuthMode clientAuth, boolean verifyHostname) {

  /** Whether a server asks for a client certificate (Redis's tls-auth-clients no/optional/yes). */
  public enum ClientAuthMode { NONE, OPTIONAL, REQUIRE }

  public TlsSettings {
    protocols = List.copyOf(protocols == null ? List.of() : protocols);
    cipherSuites = List.copyOf(cipherSuites == null ? List.of() : cipherSuites);
    clientAuth = clientAuth == null ? ClientAuthMode.NONE : clientAuth;
  }

  /** A server (or client) identity in PEM files, trusting the CAs in {@code caFile}. */
  public static TlsSettings pem(Path certFile, Path keyFile, Path caFile) {
    return new TlsSettings(keyFile, certFile, null, caFile, null, List.of(), List.of(),
        ClientAuthMode.NONE, false);
  }

  /** An identity in a key store (PKCS12 or JKS) and a trust store. */
  public static TlsSettings keyStore(Path keyStore, String password, Path trustStore,
                                     String trustPassword) {
    return new TlsSettings(keyStore, null, password, trustStore, trustPassword, List.of(),
        List.of(), ClientAuthMode.NONE, false);
  }

  public TlsSettings withClientAuth(ClientAuthMode mode) {
    return new TlsSettings(keyFile, certFile, keyPassword, trustFile, trustPassword, protocols,
        cipherSuites, mode, verifyHostname);
  }

  public TlsSettings withProtocols(List<String> list) {
    return new TlsSettings(keyFile, certFile, keyPassword, trustFile, trustPassword, list,
        cipherSuites, clientAuth, verifyHostname);
  }

  public TlsSettings withCipherSuites(List<String> list) {
    return new TlsSettings(keyFile, certFile, keyPassword, trustFile, trustPassword, protocols,
        list, clientAuth, verifyHostname);
  }

  public TlsSettings withVerifyHostname(boolean verify) {
    return new TlsSettings(keyFile, certFile, keyPassword, trustFile, trustPassword, protocols,
        cipherSuites, clientAuth, verify);
  }

  /** The files whose change means the context must be built again. */
  public List<Path> files() {
    List<Path> files = new ArrayList<>(3);
    for (Path p : new Path[] {keyFile, certFile, trustFile}) {
      if (p != null && !files.contains(p)) {
        files.add(p);
      }
    }
    return files;
  }
}
