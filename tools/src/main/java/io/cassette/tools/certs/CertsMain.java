package io.cassette.tools.certs;

import io.cassette.tls.certs.HomeRingCertificates;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * {@code cassette certs}: a CA and per-node certificates for a home ring, in pure Java (no
 * keytool, no openssl, no BouncyCastle): PEM for the Redis door and OpenSSL clients, PKCS12
 * for the CQL and internode keystore/truststore keys and Java clients. See docs/tls.md.
 *
 * <p>Exit status: 0 done; 1 failed (message on stderr); 2 bad command line.
 */
public final class CertsMain {
  static final int EXIT_FAILED = 1;
  static final int EXIT_USAGE = 2;
  private static final String USAGE = """
      usage: cassette certs [options] NAME[=ADDRESS[,ADDRESS...]]...

        Makes (or reuses) a CA in the directory and a key and certificate for each NAME,
        valid for the DNS names and IP addresses after '=' (NAME itself is always one).
        Run it again with new names to add nodes or clients to the same ring.

      options:
        --dir DIR         where the files go (default ./certs)
        --password PW     password of the .p12 stores (default: the one in DIR/password,
                          else a new random one written there, mode 600)
        --days N          validity of the new certificates in days (default 825)
        --ca-days N       validity of a new CA in days (default 3650)
        --ca-name NAME    the CA's common name (default "Cassette home ring CA")

      example:
        cassette certs --dir /etc/cassette/certs node1=192.168.1.21 node2=192.168.1.22 app

      files:
        ca.pem, truststore.p12     the CA certificate: tls_ca_cert_file / truststore / --cacert
        ca.p12                     the CA's key: keep it off the boards
        NAME.pem, NAME-key.pem     tls_cert_file, tls_key_file (PEM, PKCS#8 key)
        NAME.p12                   keystore (PKCS12, key + chain)
      """;

  private CertsMain() {}

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  static int run(String[] args, PrintStream out, PrintStream err) {
    Path dir = Path.of("certs");
    String password = null;
    long days = 825;
    long caDays = 3650;
    String caName = "Cassette home ring CA";
    List<String> names = new ArrayList<>();
    try {
      for (int i = 0; i < args.length; i++) {
        String a = args[i];
        switch (a) {
          case "-h", "--help", "help" -> {
            out.print(USAGE);
            return 0;
          }
          case "--dir" -> dir = Path.of(value(args, ++i, a));
          case "--password" -> password = value(args, ++i, a);
          case "--days" -> days = positive(value(args, ++i, a), a);
          case "--ca-days" -> caDays = positive(value(args, ++i, a), a);
          case "--ca-name" -> caName = value(args, ++i, a);
          default -> {
            if (a.startsWith("-")) {
              throw new IllegalArgumentException("unknown option " + a);
            }
            names.add(a);
          }
        }
      }
      if (names.isEmpty()) {
        throw new IllegalArgumentException("name at least one node or client, e.g. node1=192.168.1.21");
      }
    } catch (IllegalArgumentException e) {
      err.println("cassette certs: " + e.getMessage());
      err.print(USAGE);
      return EXIT_USAGE;
    }
    try {
      Files.createDirectories(dir);
      password = password != null ? password : storedOrNewPassword(dir, out);
      HomeRingCertificates ring = new HomeRingCertificates(dir, password);
      boolean created = ring.openOrCreateCa(caName, Duration.ofDays(caDays));
      out.println((created ? "created CA " : "using CA ") + dir.resolve(HomeRingCertificates.CA_STORE)
          + " (certificate " + ring.caPem() + ", trust store " + ring.trustStore() + ")");
      for (String spec : names) {
        int eq = spec.indexOf('=');
        String name = eq < 0 ? spec : spec.substring(0, eq);
        List<String> alt = new ArrayList<>();
        alt.add(name);
        if (eq >= 0) {
          alt.addAll(Arrays.stream(spec.substring(eq + 1).split(",")).map(String::trim)
              .filter(s -> !s.isEmpty()).toList());
        }
        HomeRingCertificates.Issued issued = ring.issue(name, alt, Duration.ofDays(days));
        out.println("issued " + name + " for " + String.join(", ", alt) + ", valid until "
            + issued.certificate().getNotAfter().toInstant() + ": " + issued.certificatePem() + ", "
            + issued.privateKeyPem() + ", " + issued.keyStore());
      }
      return 0;
    } catch (IOException | RuntimeException e) {
      err.println("cassette certs: " + e.getMessage());
      return EXIT_FAILED;
    }
  }

  /** DIR/password if there, else 24 random bytes in hex written there (mode 600). */
  private static String storedOrNewPassword(Path dir, PrintStream out) throws IOException {
    Path file = dir.resolve("password");
    if (Files.exists(file)) {
      return Files.readString(file, StandardCharsets.UTF_8).trim();
    }
    byte[] random = new byte[24];
    new SecureRandom().nextBytes(random);
    String password = HexFormat.of().formatHex(random);
    Files.writeString(file, password + "\n", StandardCharsets.UTF_8);
    try {
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
    } catch (UnsupportedOperationException e) {
      // not a POSIX file system
    }
    out.println("store password written to " + file);
    return password;
  }

  private static String value(String[] args, int i, String option) {
    if (i >= args.length) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return args[i];
  }

  private static long positive(String text, String option) {
    try {
      long v = Long.parseLong(text);
      if (v > 0) {
        return v;
      }
    } catch (NumberFormatException e) {
      // below
    }
    throw new IllegalArgumentException(option + " must be a positive number of days: " + text);
  }
}
