package io.cassette.tools.nodetool;

import io.cassette.tls.TlsConfigException;
import io.cassette.tls.TlsContextBuilder;
import io.cassette.tls.TlsSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * nodetool's {@code --ssl}: the TLS context of its https calls to an admin port with
 * {@code http_encryption_options}. Cassandra's nodetool reads the JDK's
 * {@code javax.net.ssl.*} properties for JMX over TLS; without {@code --truststore} this does
 * the same, so either way of saying which CA to trust works.
 */
final class AdminTls {
  private AdminTls() {}

  static SSLContext context(String truststore, String truststorePassword, String keystore, String keystorePassword) {
    try {
      if (truststore == null && keystore == null) {
        return SSLContext.getDefault();
      }
      Path trust = truststore == null ? null : existing(truststore, "--truststore");
      Path keys = keystore == null ? null : existing(keystore, "--keystore");
      return TlsContextBuilder.jdkClient(new TlsSettings(keys, null, keystorePassword, trust, truststorePassword,
          List.of(), List.of(), TlsSettings.ClientAuthMode.NONE, true));
    } catch (TlsConfigException e) {
      throw new NodetoolException(e.getMessage());
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new NodetoolException("this JDK has no default TLS context: " + e.getMessage());
    }
  }

  private static Path existing(String file, String option) {
    Path p = Path.of(file);
    if (!Files.isReadable(p)) {
      throw new NodetoolException(option + " " + file + ": no such readable file");
    }
    return p;
  }
}
