package io.cassette.tls.certs;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.List;
import javax.security.auth.x500.X500Principal;

/**
 * A small certificate authority for a home ring, kept in one directory:
 *
 * <pre>
 *   ca.p12            the CA's key and certificate (keep it off the boards)
 *   ca.pem            the CA certificate: tls-ca-cert-file, truststore, clients' --cacert
 *   truststore.p12    the CA certificate as a PKCS12 trust store (Java clients, truststore)
 *   NAME.p12          a node's (or client's) key and chain: keystore
 *   NAME.pem          its certificate chain: tls-cert-file
 *   NAME-key.pem      its private key, PKCS#8: tls-key-file
 * </pre>
 *
 * All stores use one password. An existing {@code ca.p12} is reused, so nodes added later are
 * signed by the same CA; issuing a name again replaces its files (a door reloads them).
 */
public final class HomeRingCertificates {
  public static final String CA_STORE = "ca.p12";
  public static final String CA_PEM = "ca.pem";
  public static final String TRUST_STORE = "truststore.p12";
  private static final String CA_ALIAS = "ca";

  private final Path dir;
  private final String password;
  private X509Certificate ca;
  private PrivateKey caKey;

  /** The files of one issued identity. */
  public record Issued(String name, Path keyStore, Path certificatePem, Path privateKeyPem,
                       X509Certificate certificate) {}

  public HomeRingCertificates(Path dir, String password) {
    this.dir = dir;
    this.password = password;
  }

  public Path directory() {
    return dir;
  }

  public Path caPem() {
    return dir.resolve(CA_PEM);
  }

  public Path trustStore() {
    return dir.resolve(TRUST_STORE);
  }

  /** True when this call created the CA; false when {@code ca.p12} was there and is used. */
  public boolean openOrCreateCa(String caName, Duration validity) throws IOException {
    Files.createDirectories(dir);
    Path store = dir.resolve(CA_STORE);
    if (Files.exists(store)) {
      try {
        KeyStore ks = KeyStore.getInstance(store.toFile(), password.toCharArray());
        ca = (X509Certificate) ks.getCertificate(CA_ALIAS);
        caKey = (PrivateKey) ks.getKey(CA_ALIAS, password.toCharArray());
      } catch (GeneralSecurityException e) {
        throw new IOException("cannot open the CA in " + store + " (wrong password?): " + e.getMessage(), e);
      }
      if (ca == null || caKey == null) {
        throw new IOException(store + " holds no CA key under the alias '" + CA_ALIAS + "'");
      }
      return false;
    }
    KeyPair keys = CertificateSigner.newKeyPair();
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    ca = CertificateSigner.selfSignedCa(new X500Principal("CN=" + caName + ", O=Cassette"), keys,
        now.minusHours(1), now.plus(validity));
    caKey = keys.getPrivate();
    CertificateFiles.writeKeyStore(store, CA_ALIAS, caKey, List.of(ca), password);
    CertificateFiles.writeCertificates(caPem(), List.of(ca));
    CertificateFiles.writeTrustStore(trustStore(), List.of(ca), password);
    return true;
  }

  /** Issues {@code name} valid from an hour ago for {@code validity}. */
  public Issued issue(String name, List<String> altNames, Duration validity) throws IOException {
    ZonedDateTime now = ZonedDateTime.now(ZoneOffset.UTC);
    return issue(name, altNames, now.minusHours(1), now.plus(validity));
  }

  /** Issues {@code name} for an explicit period (tests make expired certificates with it). */
  public Issued issue(String name, List<String> altNames, ZonedDateTime notBefore, ZonedDateTime notAfter)
      throws IOException {
    if (ca == null) {
      throw new IllegalStateException("openOrCreateCa first");
    }
    if (!name.matches("[A-Za-z0-9._-]+")) {
      throw new IllegalArgumentException("a certificate name is letters, digits, '.', '_' or '-': " + name);
    }
    KeyPair keys = CertificateSigner.newKeyPair();
    X509Certificate cert = CertificateSigner.issue(new X500Principal("CN=" + name + ", O=Cassette"),
        keys.getPublic(), ca, caKey, notBefore, notAfter, altNames);
    List<X509Certificate> chain = List.of(cert, ca);
    Path p12 = dir.resolve(name + ".p12");
    Path pem = dir.resolve(name + ".pem");
    Path key = dir.resolve(name + "-key.pem");
    CertificateFiles.writeKeyStore(p12, name, keys.getPrivate(), chain, password);
    CertificateFiles.writePrivateKey(key, keys.getPrivate());
    CertificateFiles.writeCertificates(pem, chain);
    return new Issued(name, p12, pem, key, cert);
  }
}
