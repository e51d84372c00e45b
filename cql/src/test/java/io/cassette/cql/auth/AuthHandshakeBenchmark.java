package io.cassette.cql.auth;

import io.cassette.cql.language.CqlLanguage;
import io.cassette.cql.language.NodeInfo;
import io.cassette.cql.transport.CqlServer;
import io.cassette.cql.transport.CqlServerOptions;
import io.cassette.storage.Engine;
import io.cassette.storage.EngineOptions;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cost of authentication per new connection (a figure, not a timed test): the native
 * protocol v4 handshake a driver does, STARTUP to READY without an authenticator, and STARTUP
 * to AUTHENTICATE, AUTH_RESPONSE (SASL PLAIN) to AUTH_SUCCESS with PasswordAuthenticator, over
 * raw sockets so the driver's own setup is not measured. Median and p90 of N sequential
 * connections; the difference is one bcrypt check at the role's cost (10 = Cassandra's).
 * Run: ./mvnw -pl cql -am verify -Pslow -Dtest=AuthHandshakeBenchmark -Dsurefire.failIfNoSpecifiedTests=false;
 * add {@code -Danchor=127.0.0.8:9042} to measure the same handshake against a Cassandra started with
 * {@code AUTH=yes} (login cassandra/cassandra).
 */
@Tag("slow")
class AuthHandshakeBenchmark {
  static final int CONNECTIONS = 60;

  @Test
  void handshakeWithAndWithoutPasswords(@TempDir Path dir) throws Exception {
    try (Engine engine = Engine.open(EngineOptions.defaults(dir))) {
      CqlLanguage language = new CqlLanguage(io.cassette.coordinator.local.LocalCoordinator.open(engine, null),
          NodeInfo.singleNode("Test Cluster", InetAddress.getByName("127.0.0.1"), 9042, UUID.randomUUID(), List.of(0L)));
      CqlServer open = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), language);
      InetSocketAddress openAddress = open.start();
      AccessControl access = language.configureAuth(AuthSettings.passwords(2000));
      CqlServer closed = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0)
          .withAuthenticator(access.authenticator()), language);
      InetSocketAddress closedAddress = closed.start();
      try {
        for (int round = 0; round < 2; round++) { // the first round warms up
          long[] none = new long[CONNECTIONS];
          long[] plain = new long[CONNECTIONS];
          for (int i = 0; i < CONNECTIONS; i++) {
            none[i] = handshake(openAddress, null);
            plain[i] = handshake(closedAddress, "cassandra");
          }
          System.out.printf("round %d, %d connections each: AllowAllAuthenticator %s; PasswordAuthenticator"
              + " (bcrypt cost 10) %s%n", round, CONNECTIONS, summary(none), summary(plain));
          String anchor = System.getProperty("anchor");
          if (anchor != null && !anchor.isEmpty()) {
            String[] hp = anchor.split(":");
            InetSocketAddress cassandra = new InetSocketAddress(hp[0], Integer.parseInt(hp[1]));
            long[] theirs = new long[CONNECTIONS];
            for (int i = 0; i < CONNECTIONS; i++) {
              theirs[i] = handshake(cassandra, "cassandra");
            }
            System.out.printf("round %d, Cassandra 5.0.4 PasswordAuthenticator at %s: %s%n", round, anchor,
                summary(theirs));
          }
        }
      } finally {
        open.close();
        closed.close();
      }
    }
  }

  private static String summary(long[] nanos) {
    long[] s = nanos.clone();
    Arrays.sort(s);
    return String.format("median %.2f ms, p90 %.2f ms", s[s.length / 2] / 1e6, s[s.length * 9 / 10] / 1e6);
  }

  /** Connects, STARTUP (and SASL PLAIN as cassandra/{@code password}), until READY or AUTH_SUCCESS. */
  private static long handshake(InetSocketAddress address, String password) throws IOException {
    long start = System.nanoTime();
    try (Socket s = new Socket(address.getAddress(), address.getPort())) {
      s.setTcpNoDelay(true);
      DataOutputStream out = new DataOutputStream(s.getOutputStream());
      DataInputStream in = new DataInputStream(s.getInputStream());
      byte[] key = "CQL_VERSION".getBytes(StandardCharsets.UTF_8);
      byte[] value = "3.0.0".getBytes(StandardCharsets.UTF_8);
      java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
      DataOutputStream b = new DataOutputStream(body);
      b.writeShort(1);
      b.writeShort(key.length);
      b.write(key);
      b.writeShort(value.length);
      b.write(value);
      frame(out, 0x01, body.toByteArray());
      int opcode = read(in);
      if (password != null) {
        if (opcode != 0x03) {
          throw new IllegalStateException("expected AUTHENTICATE, got " + opcode);
        }
        byte[] token = ("\0cassandra\0" + password).getBytes(StandardCharsets.UTF_8);
        java.io.ByteArrayOutputStream auth = new java.io.ByteArrayOutputStream();
        DataOutputStream a = new DataOutputStream(auth);
        a.writeInt(token.length);
        a.write(token);
        frame(out, 0x0F, auth.toByteArray());
        opcode = read(in);
        if (opcode != 0x10) {
          throw new IllegalStateException("expected AUTH_SUCCESS, got " + opcode);
        }
      } else if (opcode != 0x02) {
        throw new IllegalStateException("expected READY, got " + opcode);
      }
    }
    return System.nanoTime() - start;
  }

  private static void frame(DataOutputStream out, int opcode, byte[] body) throws IOException {
    out.writeByte(0x04);
    out.writeByte(0);
    out.writeShort(0);
    out.writeByte(opcode);
    out.writeInt(body.length);
    out.write(body);
    out.flush();
  }

  private static int read(DataInputStream in) throws IOException {
    in.readByte();
    in.readByte();
    in.readShort();
    int opcode = in.readByte();
    int length = in.readInt();
    in.readFully(new byte[length]);
    return opcode;
  }
}
