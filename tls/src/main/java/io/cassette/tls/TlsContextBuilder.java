package io.cassette.tls;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Date;
import java.util.List;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Builds the Netty {@link SslContext} of a door from its {@link TlsSettings}, always with the
 * JDK's own TLS ({@link SslProvider#JDK}): no native library, so it runs on every board. The
 * one place every door (CQL, Redis, internode, admin HTTP) gets its context from.
 *
 * <p>Errors name the file and what was wrong with it ({@link TlsConfigException}).
 */
public final class TlsContextBuilder {
  private TlsContextBuilder() {}

  /** A server's context: its identity is required; client certificates per {@code clientAuth}. */
  public static SslContext server(TlsSettings s) {
    if (s.keyFile() == null) {
      throw new TlsConfigException("TLS is enabled but no key store or certificate/key file is set");
    }
    try {
      SslContextBuilder b = isPem(s.keyFile())
          ? SslContextBuilder.forServer(pemCertFile(s).toFile(), s.keyFile().toFile(), emptyToNull(s.keyPassword()))
          : SslContextBuilder.forServer(keyManagers(s));
      b.clientAuth(switch (s.clientAuth()) {
        case NONE -> ClientAuth.NONE;
        case OPTIONAL -> ClientAuth.OPTIONAL;
        case REQUIRE -> ClientAuth.REQUIRE;
      });
      if (s.clientAuth() != TlsSettings.ClientAuthMode.NONE && s.trustFile() == null) {
        throw new TlsConfigException("client certificates are asked for but no truststore "
            + "(CA certificate file) says which to trust");
      }
      trust(b, s);
      return common(b, s).build();
    } catch (SSLException | RuntimeException e) {
      throw wrap(s, e);
    }
  }

  /** A client's context: presents its identity when it has one; trusts {@code trustFile} or the JDK's CAs. */
  public static SslContext client(TlsSettings s) {
    try {
      SslContextBuilder b = SslContextBuilder.forClient();
      if (s.keyFile() != null) {
        if (isPem(s.keyFile())) {
          b.keyManager(pemCertFile(s).toFile(), s.keyFile().toFile(), emptyToNull(s.keyPassword()));
        } else {
          b.keyManager(keyManagers(s));
        }
      }
      trust(b, s);
      if (s.verifyHostname()) {
        b.endpointIdentificationAlgorithm("HTTPS");
      }
      return common(b, s).build();
    } catch (SSLException | RuntimeException e) {
      throw wrap(s, e);
    }
  }

  private static SslContextBuilder common(SslContextBuilder b, TlsSettings s) {
    b.sslProvider(SslProvider.JDK);
    if (!s.protocols().isEmpty()) {
      b.protocols(s.protocols());
    }
    if (!s.cipherSuites().isEmpty()) {
      b.ciphers(s.cipherSuites());
    }
    return b;
  }

  private static void trust(SslContextBuilder b, TlsSettings s) {
    if (s.trustFile() == null) {
      return;
    }
    if (isPem(s.trustFile())) {
      b.trustManager(s.trustFile().toFile());
      return;
    }
    try {
      TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(loadStore(s.trustFile(), s.trustPassword()));
      b.trustManager(tmf);
    } catch (GeneralSecurityException e) {
      throw new TlsConfigException("cannot use truststore " + s.trustFile() + ": " + e.getMessage(), e);
    }
  }

  /**
   * A JDK {@link SSLContext} for a client outside Netty (nodetool's {@code java.net.http}
   * client): trusts {@code trustFile} (PEM CA certificates, PKCS12 or JKS) or, without one, the
   * JDK's trust ({@code javax.net.ssl.trustStore}); presents the key store's certificate when
   * {@code keyFile} is a PKCS12/JKS store (PEM client keys: use a store here).
   */
  public static SSLContext jdkClient(TlsSettings s) {
    try {
      javax.net.ssl.KeyManager[] keys = null;
      if (s.keyFile() != null) {
        if (isPem(s.keyFile())) {
          throw new TlsConfigException("a client certificate for this tool must be a PKCS12 or JKS key store, not PEM: "
              + s.keyFile());
        }
        keys = keyManagers(s).getKeyManagers();
      }
      javax.net.ssl.TrustManager[] trust = null;
      if (s.trustFile() != null) {
        KeyStore store;
        if (isPem(s.trustFile())) {
          store = KeyStore.getInstance(KeyStore.getDefaultType());
          store.load(null, null);
          try (InputStream in = Files.newInputStream(s.trustFile())) {
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
              store.setCertificateEntry("ca" + i++, c);
            }
          }
        } else {
          store = loadStore(s.trustFile(), s.trustPassword());
        }
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(store);
        trust = tmf.getTrustManagers();
      }
      SSLContext context = SSLContext.getInstance("TLS");
      context.init(keys, trust, null);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new TlsConfigException("cannot build a TLS context from " + s.files() + ": " + e.getMessage(), e);
    }
  }

  private static KeyManagerFactory keyManagers(TlsSettings s) {
    try {
      KeyStore ks = loadStore(s.keyFile(), s.keyPassword());
      KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(ks, password(s.keyPassword()));
      return kmf;
    } catch (GeneralSecurityException e) {
      throw new TlsConfigException("cannot use keystore " + s.keyFile() + ": " + e.getMessage(), e);
    }
  }

  /** A PKCS12 or JKS file, its type recognised from its content. */
  static KeyStore loadStore(Path file, String password) {
    try {
      return KeyStore.getInstance(file.toFile(), password(password));
    } catch (IOException | GeneralSecurityException e) {
      String why = e.getCause() instanceof java.security.UnrecoverableKeyException
          || String.valueOf(e.getMessage()).contains("password") ? "wrong password? " : "";
      throw new TlsConfigException("cannot read key store " + file + ": " + why + e.getMessage(), e);
    }
  }

  /** The certificates a door presents: its chain, first its own (for logs and expiry checks). */
  public static List<X509Certificate> certificates(TlsSettings s) {
    if (s.keyFile() == null) {
      return List.of();
    }
    try {
      if (isPem(s.keyFile())) {
        try (InputStream in = Files.newInputStream(pemCertFile(s))) {
          List<X509Certificate> out = new ArrayList<>();
          for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
            out.add((X509Certificate) c);
          }
          return out;
        }
      }
      KeyStore ks = loadStore(s.keyFile(), s.keyPassword());
      for (String alias : Collections.list(ks.aliases())) {
        if (ks.isKeyEntry(alias)) {
          List<X509Certificate> out = new ArrayList<>();
          for (Certificate c : ks.getCertificateChain(alias)) {
            out.add((X509Certificate) c);
          }
          return out;
        }
      }
      return List.of();
    } catch (IOException | GeneralSecurityException e) {
      throw new TlsConfigException("cannot read certificates from " + s.keyFile() + ": " + e.getMessage(), e);
    }
  }

  /** One line for the log: subject and validity of the first certificate, or why none. */
  public static String describe(TlsSettings s) {
    List<X509Certificate> chain = certificates(s);
    if (chain.isEmpty()) {
      return "no certificate";
    }
    X509Certificate c = chain.get(0);
    String expiry = c.getNotAfter().before(new Date()) ? " EXPIRED" : "";
    return c.getSubjectX500Principal().getName() + " valid until " + c.getNotAfter().toInstant() + expiry;
  }

  static boolean isPem(Path file) {
    try (InputStream in = Files.newInputStream(file)) {
      byte[] head = in.readNBytes(4096);
      return new String(head, StandardCharsets.ISO_8859_1).contains("-----BEGIN");
    } catch (IOException e) {
      throw new TlsConfigException("cannot read " + file + ": " + e, e);
    }
  }

  private static Path pemCertFile(TlsSettings s) {
    return s.certFile() != null ? s.certFile() : s.keyFile();
  }

  private static char[] password(String p) {
    return p == null ? new char[0] : p.toCharArray();
  }

  private static String emptyToNull(String p) {
    return p == null || p.isEmpty() ? null : p;
  }

  private static TlsConfigException wrap(TlsSettings s, Exception e) {
    if (e instanceof TlsConfigException t) {
      return t;
    }
    return new TlsConfigException("cannot build a TLS context from " + s.files() + ": " + e.getMessage(), e);
  }
}
