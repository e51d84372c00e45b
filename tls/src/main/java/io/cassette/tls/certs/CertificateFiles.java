package io.cassette.tls.certs;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.Base64;
import java.util.List;

/**
 * Writes keys and certificates in the forms the doors and clients read: PEM (certificates;
 * PKCS#8 private keys, as OpenSSL, Python and Netty read them) and PKCS12 key/trust stores
 * (Java clients, Cassandra's keystore/truststore keys). Each file is written to a temporary
 * name and renamed, so a door reloading its certificate never reads half a file; private keys
 * are made readable by their owner only.
 */
public final class CertificateFiles {
  private CertificateFiles() {}

  public static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }

  /** A PEM file of certificates, the holder's first. */
  public static void writeCertificates(Path file, List<X509Certificate> chain) throws IOException {
    StringBuilder sb = new StringBuilder();
    try {
      for (X509Certificate c : chain) {
        sb.append(pem("CERTIFICATE", c.getEncoded()));
      }
    } catch (java.security.cert.CertificateEncodingException e) {
      throw new IOException(e);
    }
    write(file, sb.toString().getBytes(StandardCharsets.US_ASCII), false);
  }

  /** An unencrypted PKCS#8 PEM private key, mode 600. */
  public static void writePrivateKey(Path file, PrivateKey key) throws IOException {
    write(file, pem("PRIVATE KEY", key.getEncoded()).getBytes(StandardCharsets.US_ASCII), true);
  }

  /** A PKCS12 store holding one key entry with its chain, mode 600. */
  public static void writeKeyStore(Path file, String alias, PrivateKey key, List<X509Certificate> chain,
                                   String password) throws IOException {
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry(alias, key, password.toCharArray(), chain.toArray(new Certificate[0]));
      store(file, ks, password, true);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write key store " + file + ": " + e, e);
    }
  }

  /** A PKCS12 trust store holding {@code certificates} as trusted entries. */
  public static void writeTrustStore(Path file, List<X509Certificate> certificates, String password)
      throws IOException {
    try {
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      int i = 0;
      for (X509Certificate c : certificates) {
        ks.setCertificateEntry(i == 0 ? "ca" : "ca" + i, c);
        i++;
      }
      store(file, ks, password, false);
    } catch (GeneralSecurityException e) {
      throw new IOException("cannot write trust store " + file + ": " + e, e);
    }
  }

  private static void store(Path file, KeyStore ks, String password, boolean secret)
      throws IOException, GeneralSecurityException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream out = Files.newOutputStream(tmp)) {
      ks.store(out, password.toCharArray());
    }
    finish(tmp, file, secret);
  }

  private static void write(Path file, byte[] bytes, boolean secret) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    Files.write(tmp, bytes);
    finish(tmp, file, secret);
  }

  private static void finish(Path tmp, Path file, boolean secret) throws IOException {
    if (secret) {
      try {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
      } catch (UnsupportedOperationException e) {
        // not a POSIX file system: nothing to narrow
      }
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
