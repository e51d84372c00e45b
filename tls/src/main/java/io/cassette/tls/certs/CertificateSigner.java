package io.cassette.tls.certs;

import java.io.ByteArrayInputStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import javax.security.auth.x500.X500Principal;

/**
 * Issues X.509 v3 certificates with the JDK alone (no BouncyCastle, no keytool process): the
 * DER of the to-be-signed part is written by {@link Der}, signed with the issuer's key, and
 * parsed back by the JDK's {@link CertificateFactory}, which checks what was written.
 *
 * <p>Keys are EC P-256 with SHA256withECDSA: generated in milliseconds on a board (RSA 2048
 * takes seconds there) and understood by every client we test (Java, Python, OpenSSL in
 * redis-cli). Node certificates carry serverAuth and clientAuth, since a node is both to its
 * peers, and their names (DNS, IP) as subjectAltName.
 */
public final class CertificateSigner {
  private static final String ECDSA_WITH_SHA256 = "1.2.840.10045.4.3.2";
  private static final String SHA256_WITH_RSA = "1.2.840.113549.1.1.11";
  private static final String BASIC_CONSTRAINTS = "2.5.29.19";
  private static final String KEY_USAGE = "2.5.29.15";
  private static final String EXT_KEY_USAGE = "2.5.29.37";
  private static final String SUBJECT_ALT_NAME = "2.5.29.17";
  private static final String SUBJECT_KEY_ID = "2.5.29.14";
  private static final String AUTHORITY_KEY_ID = "2.5.29.35";
  private static final String SERVER_AUTH = "1.3.6.1.5.5.7.3.1";
  private static final String CLIENT_AUTH = "1.3.6.1.5.5.7.3.2";
  /** keyUsage bits (RFC 5280 4.2.1.3) in the first byte, most significant bit = bit 0. */
  private static final int DIGITAL_SIGNATURE = 0x80;
  private static final int KEY_ENCIPHERMENT = 0x20;
  private static final int KEY_AGREEMENT = 0x08;
  private static final int KEY_CERT_SIGN = 0x04;
  private static final int CRL_SIGN = 0x02;

  private static final SecureRandom RANDOM = new SecureRandom();

  private CertificateSigner() {}

  /** A new EC P-256 key pair. */
  public static KeyPair newKeyPair() {
    try {
      KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
      g.initialize(new ECGenParameterSpec("secp256r1"), RANDOM);
      return g.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JDK cannot make EC P-256 keys", e);
    }
  }

  /** A self-signed CA certificate. */
  public static X509Certificate selfSignedCa(X500Principal name, KeyPair keys, ZonedDateTime notBefore,
                                             ZonedDateTime notAfter) {
    return sign(name, keys.getPublic(), name, keys.getPrivate(), keys.getPublic(), notBefore,
        notAfter, true, List.of());
  }

  /**
   * A certificate for {@code subjectKey}, signed by the CA.
   *
   * @param names DNS names and IP addresses (literals) the holder answers as
   */
  public static X509Certificate issue(X500Principal subject, PublicKey subjectKey, X509Certificate ca,
                                      PrivateKey caKey, ZonedDateTime notBefore, ZonedDateTime notAfter,
                                      List<String> names) {
    return sign(subject, subjectKey, ca.getSubjectX500Principal(), caKey, ca.getPublicKey(),
        notBefore, notAfter, false, names);
  }

  private static X509Certificate sign(X500Principal subject, PublicKey subjectKey, X500Principal issuer,
                                      PrivateKey issuerKey, PublicKey issuerPublic,
                                      ZonedDateTime notBefore, ZonedDateTime notAfter, boolean ca,
                                      List<String> names) {
    boolean rsa = issuerKey.getAlgorithm().equals("RSA");
    byte[] algorithm = rsa ? Der.sequence(Der.oid(SHA256_WITH_RSA), Der.nullValue())
        : Der.sequence(Der.oid(ECDSA_WITH_SHA256));
    List<byte[]> extensions = new ArrayList<>();
    extensions.add(extension(BASIC_CONSTRAINTS, true, ca ? Der.sequence(Der.bool(true)) : Der.sequence()));
    extensions.add(extension(KEY_USAGE, true, Der.namedBits(ca
        ? DIGITAL_SIGNATURE | KEY_CERT_SIGN | CRL_SIGN
        : DIGITAL_SIGNATURE | KEY_ENCIPHERMENT | KEY_AGREEMENT)));
    if (!ca) {
      extensions.add(extension(EXT_KEY_USAGE, false,
          Der.sequence(Der.oid(SERVER_AUTH), Der.oid(CLIENT_AUTH))));
      if (!names.isEmpty()) {
        extensions.add(extension(SUBJECT_ALT_NAME, false, subjectAltNames(names)));
      }
    }
    extensions.add(extension(SUBJECT_KEY_ID, false, Der.octets(keyId(subjectKey))));
    extensions.add(extension(AUTHORITY_KEY_ID, false,
        Der.sequence(Der.element(0x80, keyId(issuerPublic)))));
    byte[] serial = new byte[16];
    RANDOM.nextBytes(serial);
    serial[0] &= 0x7F; // positive
    serial[0] |= 0x01; // and never zero-led, so the INTEGER is 16 bytes
    byte[] tbs = Der.sequence(
        Der.explicit(0, Der.integer(BigInteger.valueOf(2))),
        Der.integer(new BigInteger(serial)),
        algorithm,
        issuer.getEncoded(),
        Der.sequence(Der.time(notBefore), Der.time(notAfter)),
        subject.getEncoded(),
        subjectKey.getEncoded(),
        Der.explicit(3, Der.sequence(extensions.toArray(new byte[0][]))));
    try {
      Signature s = Signature.getInstance(rsa ? "SHA256withRSA" : "SHA256withECDSA");
      s.initSign(issuerKey);
      s.update(tbs);
      byte[] der = Der.sequence(tbs, algorithm, Der.bits(s.sign()));
      X509Certificate cert = (X509Certificate) CertificateFactory.getInstance("X.509")
          .generateCertificate(new ByteArrayInputStream(der));
      cert.verify(issuerPublic);
      return cert;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("cannot sign a certificate for " + subject + ": " + e, e);
    }
  }

  private static byte[] extension(String oid, boolean critical, byte[] value) {
    return critical ? Der.sequence(Der.oid(oid), Der.bool(true), Der.octets(value))
        : Der.sequence(Der.oid(oid), Der.octets(value));
  }

  /** dNSName [2] for names, iPAddress [7] for address literals. */
  private static byte[] subjectAltNames(List<String> names) {
    List<byte[]> items = new ArrayList<>();
    for (String n : names) {
      if (isAddressLiteral(n)) {
        try {
          items.add(Der.element(0x87, InetAddress.getByName(n).getAddress()));
        } catch (java.net.UnknownHostException e) {
          throw new IllegalArgumentException("not an IP address: " + n, e);
        }
      } else {
        items.add(Der.element(0x82, n.getBytes(StandardCharsets.US_ASCII)));
      }
    }
    return Der.sequence(items.toArray(new byte[0][]));
  }

  static boolean isAddressLiteral(String n) {
    return n.matches("[0-9.]+") || n.contains(":");
  }

  private static byte[] keyId(PublicKey key) {
    try {
      return MessageDigest.getInstance("SHA-1").digest(key.getEncoded());
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }
}
