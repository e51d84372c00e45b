package io.cassette.tools.cqlsh;

import io.cassette.tls.TlsContextBuilder;
import io.cassette.tls.TlsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.Locale;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * cqlsh's {@code --ssl}, with Cassandra cqlsh's environment: {@code SSL_CERTFILE} (the PEM
 * CA certificate that signed the node's) and {@code SSL_VALIDATE} (true by default; false
 * accepts any certificate, as cqlsh's {@code validate = false}). Validation without a CA file
 * is refused, as cqlsh refuses it.
 */
final class ShellTls {
  private ShellTls() {}

  static SSLContext context(String certFile, String validate) {
    boolean check = validate == null || !List.of("false", "no", "0", "off").contains(validate.toLowerCase(Locale.ROOT));
    if (!check) {
      return acceptingAnyCertificate();
    }
    if (certFile == null || certFile.isBlank()) {
      throw new IllegalArgumentException("Validation is enabled; SSL transport factory requires a valid certfile"
          + " to be specified. Please provide path to the certfile in SSL_CERTFILE (or set SSL_VALIDATE=false)");
    }
    Path ca = Path.of(certFile);
    if (!Files.isReadable(ca)) {
      throw new IllegalArgumentException("SSL_CERTFILE " + certFile + ": no such readable file");
    }
    return TlsContextBuilder.jdkClient(new TlsSettings(null, null, null, ca, null, List.of(), List.of(),
        TlsSettings.ClientAuthMode.NONE, false));
  }

  /** SSL_VALIDATE=false: encrypted, but the node's certificate is not checked (cqlsh's CERT_NONE). */
  private static SSLContext acceptingAnyCertificate() {
    TrustManager any = new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) { }

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) { }

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    };
    try {
      SSLContext c = SSLContext.getInstance("TLS");
      c.init(null, new TrustManager[] {any}, null);
      return c;
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("no TLS in this JDK: " + e.getMessage(), e);
    }
  }
}
