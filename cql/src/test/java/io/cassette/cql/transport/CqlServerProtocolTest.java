package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.transport.messages.Opcode;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Hand-built frames over a real socket: each bad input gets the right ERROR and the server lives on. */
class CqlServerProtocolTest {
  static final int PROTOCOL_ERROR = 0x000A;
  static StubQueryHandler handler;
  static CqlServer server;
  static InetSocketAddress address;

  @BeforeAll
  static void start() {
    handler = new StubQueryHandler();
    server = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0), handler);
    address = server.start();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static RawClient connect(int version) throws Exception {
    RawClient c = new RawClient(address);
    c.send(version, 1, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
    RawClient.Frame ready = c.read();
    assertThat(ready.opcode()).isEqualTo(Opcode.READY);
    assertThat(ready.version()).isEqualTo(0x80 | version);
    c.segments = version >= 5;
    return c;
  }

  @Test
  void optionsAnswersSupportedWithVersionsAndCompressions() throws Exception {
    try (RawClient c = new RawClient(address)) {
      c.send(4, 7, Opcode.OPTIONS, new byte[0]);
      RawClient.Frame f = c.read();
      assertThat(f.version()).isEqualTo(0x84);
      assertThat(f.stream()).isEqualTo(7);
      assertThat(f.opcode()).isEqualTo(Opcode.SUPPORTED);
      ByteBuffer b = f.buffer();
      int n = b.getShort();
      Map<String, List<String>> map = new java.util.HashMap<>();
      for (int i = 0; i < n; i++) {
        String key = RawClient.readString(b);
        int m = b.getShort();
        List<String> values = new ArrayList<>();
        for (int j = 0; j < m; j++) {
          values.add(RawClient.readString(b));
        }
        map.put(key, values);
      }
      assertThat(map).containsEntry("CQL_VERSION", List.of("3.4.7"))
          .containsEntry("COMPRESSION", List.of("lz4", "snappy"))
          .containsEntry("PROTOCOL_VERSIONS", List.of("3/v3", "4/v4", "5/v5", "6/v6-beta"));
    }
  }

  @Test
  void v4StartupThenQueryReturnsRows() throws Exception {
    try (RawClient c = connect(4)) {
      c.send(4, 2, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
      RawClient.Frame f = c.read();
      assertThat(f.opcode()).isEqualTo(Opcode.RESULT);
      assertThat(f.stream()).isEqualTo(2);
      assertThat(f.buffer().getInt(0)).isEqualTo(2); // Rows
      c.send(4, 32767, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
      assertThat(c.read().stream()).isEqualTo(32767); // the highest of the 32768 streams
    }
  }

  @Test
  void v3StartupThenQueryWorks() throws Exception {
    try (RawClient c = connect(3)) {
      c.send(3, 2, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 3));
      RawClient.Frame f = c.read();
      assertThat(f.version()).isEqualTo(0x83);
      assertThat(f.opcode()).isEqualTo(Opcode.RESULT);
    }
  }

  @Test
  void v5SwitchesToSegmentsAfterReady() throws Exception {
    try (RawClient c = connect(5)) {
      c.send(5, 3, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 5));
      RawClient.Frame f = c.read();
      assertThat(f.version()).isEqualTo(0x85);
      assertThat(f.opcode()).isEqualTo(Opcode.RESULT);
      assertThat(f.stream()).isEqualTo(3);
    }
  }

  @Test
  void v5EnvelopeLargerThanOneSegmentTravelsBothWays() throws Exception {
    String big = "x".repeat(300_000);
    try (RawClient c = connect(5)) {
      byte[] envelope = RawClient.frame(5, 0, 9, Opcode.QUERY, RawClient.query("ECHO " + big, 5));
      int max = (1 << 17) - 1;
      for (int off = 0; off < envelope.length; off += max) {
        byte[] part = java.util.Arrays.copyOfRange(envelope, off, Math.min(envelope.length, off + max));
        c.sendRaw(RawClient.segment(part, false));
      }
      RawClient.Frame f = c.read();
      assertThat(f.opcode()).isEqualTo(Opcode.RESULT);
      assertThat(f.stream()).isEqualTo(9);
      assertThat(f.body().length).isGreaterThan(300_000); // the stub echoes the text: > 1 segment back
      assertThat(new String(f.body(), f.body().length - 300_000, 300_000, java.nio.charset.StandardCharsets.UTF_8))
          .isEqualTo(big);
      c.send(5, 10, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 5));
      assertThat(c.read().opcode()).isEqualTo(Opcode.RESULT);
    }
  }

  @Test
  void v5CorruptSegmentIsFatalButServerLivesOn() throws Exception {
    try (RawClient c = connect(5)) {
      byte[] seg = RawClient.segment(RawClient.frame(5, 0, 4, Opcode.OPTIONS, new byte[0]), true);
      seg[seg.length - 1] ^= 0x55; // break the payload CRC32
      c.sendRaw(seg);
      RawClient.Frame f = c.read();
      assertThat(f.opcode()).isEqualTo(Opcode.ERROR);
      assertThat(f.errorCode()).isEqualTo(PROTOCOL_ERROR);
      assertThat(f.errorMessage()).contains("CRC mismatch");
      assertThat(c.isClosedByServer()).isTrue();
    }
    try (RawClient c = connect(5)) {
      c.send(5, 1, Opcode.OPTIONS, new byte[0]);
      assertThat(c.read().opcode()).isEqualTo(Opcode.SUPPORTED);
    }
  }

  @Test
  void unsupportedVersionIsRefusedInAVersionTheClientCanRead() throws Exception {
    try (RawClient c = new RawClient(address)) {
      c.send(7, 0, Opcode.OPTIONS, new byte[0]);
      RawClient.Frame f = c.read();
      assertThat(f.version()).isEqualTo(0x85);
      assertThat(f.opcode()).isEqualTo(Opcode.ERROR);
      assertThat(f.errorCode()).isEqualTo(PROTOCOL_ERROR);
      assertThat(f.errorMessage()).isEqualTo(
          "Invalid or unsupported protocol version (7); supported versions are (3/v3, 4/v4, 5/v5, 6/v6-beta)");
      assertThat(c.isClosedByServer()).isTrue();
    }
    try (RawClient c = new RawClient(address)) {
      // v2 header: version, flags, 1-byte stream, opcode, length
      c.sendRaw(new byte[] {2, 0, 5, Opcode.OPTIONS, 0, 0, 0, 0});
      RawClient.Frame f = c.readV2();
      assertThat(f.version()).isEqualTo(0x82);
      assertThat(f.stream()).isEqualTo(5);
      assertThat(f.errorMessage()).startsWith("Invalid or unsupported protocol version (2)");
    }
    try (RawClient c = connect(4)) {
      c.send(4, 1, Opcode.OPTIONS, new byte[0]);
      assertThat(c.read().opcode()).isEqualTo(Opcode.SUPPORTED);
    }
  }

  /** Cassandra 5.0.4's answers, byte for byte in version, flags and text. */
  @Test
  void v6BetaIsSpokenWithTheBetaFlagAndRefusedWithoutIt() throws Exception {
    try (RawClient c = new RawClient(address)) {
      c.send(6, 0, Opcode.OPTIONS, new byte[0]);
      RawClient.Frame f = c.read();
      assertThat(f.version()).isEqualTo(0x86);
      assertThat(f.flags()).isEqualTo(0x10);
      assertThat(f.errorCode()).isEqualTo(PROTOCOL_ERROR);
      assertThat(f.errorMessage()).isEqualTo("Beta version of the protocol used (6/v6-beta), but USE_BETA flag is unset");
      assertThat(c.isClosedByServer()).isTrue();
    }
    try (RawClient c = new RawClient(address)) {
      c.send(6, 0x10, 1, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
      RawClient.Frame ready = c.read();
      assertThat(ready.version()).isEqualTo(0x86);
      assertThat(ready.flags()).isEqualTo(0x10);
      assertThat(ready.opcode()).isEqualTo(Opcode.READY);
      c.segments = true; // v6 is framed as v5 after STARTUP
      c.send(6, 0x10, 2, Opcode.OPTIONS, new byte[0]);
      RawClient.Frame supported = c.read();
      assertThat(supported.opcode()).isEqualTo(Opcode.SUPPORTED);
      assertThat(supported.flags() & 0x10).isEqualTo(0x10);
      assertThat(supported.stream()).isEqualTo(2);
    }
  }

  @Test
  void oversizedFrameIsSkippedAndAnsweredOnItsStream() throws Exception {
    try (CqlServer small = new CqlServer(CqlServerOptions.defaults("127.0.0.1", 0).withMaxFrameBytes(64 * 1024),
        handler)) {
      InetSocketAddress a = small.start();
      try (RawClient c = new RawClient(a)) {
        c.send(4, 1, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
        assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
        byte[] body = RawClient.query("SELECT '" + "y".repeat(100_000) + "'", 4);
        c.sendRaw(RawClient.frame(4, 0, 11, Opcode.QUERY, body));
        RawClient.Frame f = c.read();
        assertThat(f.stream()).isEqualTo(11);
        // Cassandra 5.0.4 answers Invalid (0x2200) with this text, and the connection lives.
        assertThat(f.errorCode()).isEqualTo(0x2200);
        assertThat(f.errorMessage()).isEqualTo("Request is too big: length " + (body.length + 9)
            + " exceeds maximum allowed length 65536.");
        c.send(4, 12, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
        RawClient.Frame after = c.read();
        assertThat(after.stream()).isEqualTo(12);
        assertThat(after.opcode()).isEqualTo(Opcode.RESULT);
      }
    }
  }

  @Test
  void unknownOpcodeAndResponseOpcodesAreRefusedAndTheConnectionSurvives() throws Exception {
    try (RawClient c = connect(4)) {
      c.send(4, 5, 0x42, new byte[] {1, 2, 3});
      RawClient.Frame f = c.read();
      assertThat(f.stream()).isEqualTo(5);
      assertThat(f.errorCode()).isEqualTo(PROTOCOL_ERROR);
      assertThat(f.errorMessage()).isEqualTo("Unknown opcode 66");
      c.send(4, 6, Opcode.READY, new byte[0]);
      assertThat(c.read().errorMessage()).contains("Wrong protocol direction");
      c.send(4, 7, Opcode.OPTIONS, new byte[0]);
      assertThat(c.read().opcode()).isEqualTo(Opcode.SUPPORTED);
    }
  }

  @Test
  void malformedBodiesGetProtocolErrors() throws Exception {
    try (RawClient c = connect(4)) {
      c.send(4, 1, Opcode.QUERY, new byte[] {0, 0, 0, 50, 'a'});
      RawClient.Frame f = c.read();
      assertThat(f.errorCode()).isEqualTo(PROTOCOL_ERROR);
      assertThat(f.errorMessage())
          .isEqualTo("Not enough bytes to read an UTF8 serialized string preceded by its 4 bytes length");
      c.send(4, 2, Opcode.QUERY, new byte[] {0, 0, 0, 1, 'a', 0, 0x33, 0}); // consistency 0x33
      assertThat(c.read().errorMessage()).isEqualTo("Unknown code 51 for a consistency level");
      c.send(4, 3, Opcode.EXECUTE, new byte[] {0, 1});
      assertThat(c.read().errorCode()).isEqualTo(PROTOCOL_ERROR);
      c.send(4, 4, Opcode.BATCH, new byte[] {0, 0, 1, 7});
      assertThat(c.read().errorMessage()).contains("Invalid query kind in BATCH messages. Must be 0 or 1 but got 7");
      c.send(4, 5, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
      assertThat(c.read().opcode()).isEqualTo(Opcode.RESULT);
    }
  }

  @Test
  void negativeLengthIsFatal() throws Exception {
    try (RawClient c = connect(4)) {
      c.sendRaw(new byte[] {4, 0, 0, 1, Opcode.OPTIONS, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xf0});
      RawClient.Frame f = c.read();
      assertThat(f.errorMessage()).contains("Invalid frame body length: -16");
      assertThat(c.isClosedByServer()).isTrue();
    }
  }

  @Test
  void requestsBeforeStartupAndMissingCqlVersionAreRefused() throws Exception {
    try (RawClient c = new RawClient(address)) {
      c.send(4, 1, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
      assertThat(c.read().errorMessage()).isEqualTo("Unexpected message QUERY, expecting STARTUP or OPTIONS");
      c.send(4, 2, Opcode.STARTUP, RawClient.stringMap(Map.of("DRIVER_NAME", "raw")));
      assertThat(c.read().errorMessage()).isEqualTo("Missing value CQL_VERSION in STARTUP message");
      c.send(4, 3, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0", "COMPRESSION", "zip")));
      assertThat(c.read().errorMessage()).isEqualTo("Unknown compression algorithm: zip");
      c.send(4, 4, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
      assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
      c.send(4, 5, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
      assertThat(c.read().errorMessage()).contains("already initialized");
      c.send(5, 6, Opcode.OPTIONS, new byte[0]);
      assertThat(c.read().errorMessage()).isEqualTo("Invalid message version. Got 5/v5 but previous messages on this "
          + "connection had version 4/v4");
      c.send(4, 7, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
      c.read();
    }
  }

  @Test
  void errorsCarryTheirExtraFields() throws Exception {
    try (RawClient c = connect(4)) {
      c.send(4, 1, Opcode.QUERY, RawClient.query("FAIL UNAVAILABLE", 4));
      ByteBuffer b = c.read().buffer();
      assertThat(b.getInt()).isEqualTo(0x1000);
      RawClient.readString(b);
      assertThat(b.getShort()).isEqualTo((short) 4); // QUORUM
      assertThat(b.getInt()).isEqualTo(2);
      assertThat(b.getInt()).isEqualTo(1);
      c.send(4, 2, Opcode.QUERY, RawClient.query("FAIL EXISTS", 4));
      b = c.read().buffer();
      assertThat(b.getInt()).isEqualTo(0x2400);
      RawClient.readString(b);
      assertThat(RawClient.readString(b)).isEqualTo("ks");
      assertThat(RawClient.readString(b)).isEqualTo("kv");
      c.send(4, 3, Opcode.QUERY, RawClient.query("FAIL SYNTAX", 4));
      RawClient.Frame f = c.read();
      assertThat(f.errorCode()).isEqualTo(0x2000);
      assertThat(f.errorMessage()).isEqualTo("line 1:0 no viable alternative at input 'FAIL'");
      c.send(4, 4, Opcode.QUERY, RawClient.query("FAIL CRASH", 4));
      f = c.read();
      assertThat(f.errorCode()).isEqualTo(0x0000);
      // The exception (class, message) goes to the node's log, never to the client.
      assertThat(f.errorMessage()).doesNotContain("boom").doesNotContain("Exception")
          .isEqualTo("Unexpected error while executing the request; the node's log has the details");
      byte[] unknownId = {0, 4, 1, 2, 3, 4, 0, 1, 0};
      c.send(4, 5, Opcode.EXECUTE, unknownId);
      b = c.read().buffer();
      assertThat(b.getInt()).isEqualTo(0x2500);
      RawClient.readString(b);
      assertThat(b.getShort()).isEqualTo((short) 4);
    }
  }

  @Test
  void warningsAreSentWithTheWarningFlag() throws Exception {
    try (RawClient c = connect(4)) {
      c.send(4, 1, Opcode.QUERY, RawClient.query("WARN", 4));
      RawClient.Frame f = c.read();
      assertThat(f.flags() & 0x08).isEqualTo(0x08);
      ByteBuffer b = f.buffer();
      assertThat(b.getShort()).isEqualTo((short) 1);
      assertThat(RawClient.readString(b)).isEqualTo("careful");
      assertThat(b.getInt()).isEqualTo(1); // Void
    }
  }

  @Test
  void schemaChangesArePushedToRegisteredConnections() throws Exception {
    try (RawClient listener = connect(4); RawClient other = connect(5)) {
      byte[] register = new byte[2 + 2 + 13];
      ByteBuffer.wrap(register).putShort((short) 1).put(RawClient.string("SCHEMA_CHANGE"));
      listener.send(4, 1, Opcode.REGISTER, register);
      assertThat(listener.read().opcode()).isEqualTo(Opcode.READY);
      other.send(5, 1, Opcode.QUERY, RawClient.query("CREATE TABLE ks.t (k int PRIMARY KEY)", 5));
      RawClient.Frame result = other.read();
      assertThat(result.buffer().getInt(0)).isEqualTo(5); // Schema_change
      RawClient.Frame event = listener.read();
      assertThat(event.opcode()).isEqualTo(Opcode.EVENT);
      assertThat(event.stream()).isEqualTo(-1);
      ByteBuffer b = event.buffer();
      assertThat(RawClient.readString(b)).isEqualTo("SCHEMA_CHANGE");
      assertThat(RawClient.readString(b)).isEqualTo("CREATED");
      assertThat(RawClient.readString(b)).isEqualTo("TABLE");
      assertThat(RawClient.readString(b)).isEqualTo("ks");
    }
  }

  @Test
  void inFlightLimitStopsReadingInsteadOfRunningMore() throws Exception {
    StubQueryHandler h = new StubQueryHandler();
    CqlServerOptions o = new CqlServerOptions("127.0.0.1", 0, CqlServerOptions.DEFAULT_MAX_FRAME_BYTES, 2, 1, 6,
        AllowAllAuthenticator.INSTANCE, 0);
    try (CqlServer s = new CqlServer(o, h)) {
      InetSocketAddress a = s.start();
      try (RawClient c = new RawClient(a)) {
        c.send(4, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
        assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
        for (int i = 1; i <= 8; i++) {
          c.send(4, i, Opcode.QUERY, RawClient.query("SLEEP 100", 4));
        }
        java.util.Set<Integer> streams = new java.util.HashSet<>();
        for (int i = 1; i <= 8; i++) {
          streams.add(c.read().stream());
        }
        assertThat(streams).hasSize(8);
      }
      // the limit counts requests executing or being answered; reading stops at 2
      assertThat(h.maxActive.get()).isLessThanOrEqualTo(2);
    }
  }

  /**
   * A connection's requests are served by runners that take them in turn: one stuck in a slow
   * request (a disk read on a slow card) must not hold up the next while a worker is idle.
   */
  @Test
  void aRequestBehindASlowOneOnTheSameConnectionIsAnsweredFirst() throws Exception {
    try (RawClient c = connect(4)) {
      c.send(4, 1, Opcode.QUERY, RawClient.query("SLEEP 3000", 4));
      Thread.sleep(300); // the slow one is executing on a worker by now
      long sent = System.nanoTime();
      c.send(4, 2, Opcode.QUERY, RawClient.query("SLEEP 1", 4));
      RawClient.Frame first = c.read();
      long waitedMillis = (System.nanoTime() - sent) / 1_000_000;
      assertThat(first.stream()).as("first answer's stream (after %d ms)", waitedMillis).isEqualTo(2);
      assertThat(c.read().stream()).isEqualTo(1);
    }
  }

  @Test
  void idleConnectionsAreClosed() throws Exception {
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0).withIdleTimeoutSeconds(1);
    try (CqlServer s = new CqlServer(o, handler)) {
      InetSocketAddress a = s.start();
      try (RawClient c = new RawClient(a)) {
        long t0 = System.nanoTime();
        assertThat(c.isClosedByServer()).isTrue();
        assertThat((System.nanoTime() - t0) / 1_000_000).isBetween(500L, 4000L);
      }
    }
  }

  @Test
  void v5RefusesSnappyAndResponseFramesFromClientsAreFatal() throws Exception {
    try (RawClient c = new RawClient(address)) {
      c.send(5, 1, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0", "COMPRESSION", "snappy")));
      RawClient.Frame f = c.read();
      assertThat(f.version()).isEqualTo(0x85);
      assertThat(f.errorMessage()).isEqualTo("Snappy compression is not supported in protocol V5");
    }
    try (RawClient c = new RawClient(address)) {
      c.sendRaw(RawClient.frame(0x84, 0, 1, Opcode.OPTIONS, new byte[0]));
      assertThat(c.read().errorMessage())
          .isEqualTo("Wrong protocol direction (expected REQUEST, got RESPONSE) for opcode 5 (OPTIONS)");
      assertThat(c.isClosedByServer()).isTrue();
    }
  }

  @Test
  void v5OversizedMultiSegmentEnvelopeIsSkippedAndTheConnectionSurvives() throws Exception {
    CqlServerOptions o = CqlServerOptions.defaults("127.0.0.1", 0);
    try (CqlServer small = new CqlServer(o.withLimits(o.limits().withSizes(64 * 1024, 64 * 1024)), handler)) {
      InetSocketAddress a = small.start();
      try (RawClient c = new RawClient(a)) {
        c.send(5, 1, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
        assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
        c.segments = true;
        byte[] envelope = RawClient.frame(5, 0, 21, Opcode.QUERY, RawClient.query("ECHO " + "w".repeat(300_000), 5));
        int max = (1 << 17) - 1;
        for (int off = 0; off < envelope.length; off += max) {
          c.sendRaw(RawClient.segment(java.util.Arrays.copyOfRange(envelope, off, Math.min(envelope.length, off + max)),
              false));
        }
        RawClient.Frame f = c.read();
        assertThat(f.stream()).isEqualTo(21);
        // Cassandra 5.0.4's answer for v5 (native_transport_max_message_size counts the body): Invalid.
        assertThat(f.errorCode()).isEqualTo(0x2200);
        assertThat(f.errorMessage()).isEqualTo("CQL Message of size " + (envelope.length - 9)
            + " bytes exceeds allowed maximum of 65536 bytes");
        c.send(5, 22, Opcode.QUERY, RawClient.query("ECHO small", 5));
        RawClient.Frame after = c.read();
        assertThat(after.stream()).isEqualTo(22);
        assertThat(after.opcode()).isEqualTo(Opcode.RESULT);
      }
    }
  }

  @Test
  void requestsAreCountedInTheNodeMetrics() throws Exception {
    io.cassette.metrics.RequestMetrics m = io.cassette.metrics.NodeMetrics.global().requests("cql");
    long queriesBefore = m.latencyByType().containsKey("QUERY") ? m.latencyByType().get("QUERY").count() : 0;
    long errorsBefore = m.errors();
    try (RawClient c = connect(4)) {
      assertThat(m.openConnections()).isGreaterThanOrEqualTo(1);
      c.send(4, 1, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
      c.read();
      c.send(4, 2, Opcode.QUERY, RawClient.query("FAIL SYNTAX", 4));
      c.read();
    }
    assertThat(m.latencyByType().get("QUERY").count()).isGreaterThanOrEqualTo(queriesBefore + 2);
    assertThat(m.errors()).isGreaterThanOrEqualTo(errorsBefore + 1);
  }

  @Test
  void topologyAndStatusEventsCarryTheNodeAddress() throws Exception {
    try (RawClient c = connect(5)) {
      java.io.ByteArrayOutputStream register = new java.io.ByteArrayOutputStream();
      register.write(0);
      register.write(2);
      register.writeBytes(RawClient.string("TOPOLOGY_CHANGE"));
      register.writeBytes(RawClient.string("STATUS_CHANGE"));
      c.send(5, 1, Opcode.REGISTER, register.toByteArray());
      assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
      server.statusChanged("DOWN", new InetSocketAddress("127.0.0.2", 9042));
      RawClient.Frame f = c.read();
      assertThat(f.opcode()).isEqualTo(Opcode.EVENT);
      ByteBuffer b = f.buffer();
      assertThat(RawClient.readString(b)).isEqualTo("STATUS_CHANGE");
      assertThat(RawClient.readString(b)).isEqualTo("DOWN");
      assertThat(b.get()).isEqualTo((byte) 4);
      byte[] ip = new byte[4];
      b.get(ip);
      assertThat(ip).containsExactly(127, 0, 0, 2);
      assertThat(b.getInt()).isEqualTo(9042);
      server.topologyChanged("NEW_NODE", new InetSocketAddress("127.0.0.3", 9042));
      ByteBuffer t = c.read().buffer();
      assertThat(RawClient.readString(t)).isEqualTo("TOPOLOGY_CHANGE");
      assertThat(RawClient.readString(t)).isEqualTo("NEW_NODE");
    }
  }

  @Test
  void nodeWideRequestBytesBudgetBoundsWhatExecutesAtOnce() throws Exception {
    StubQueryHandler h = new StubQueryHandler();
    CqlServerOptions o = new CqlServerOptions("127.0.0.1", 0, CqlServerOptions.DEFAULT_MAX_FRAME_BYTES, 2048, 1, 8,
        AllowAllAuthenticator.INSTANCE, 0);
    int valueBytes = 20_000;
    try (CqlServer s = new CqlServer(o, h, 64 * 1024)) {
      InetSocketAddress a = s.start();
      try (RawClient c1 = new RawClient(a); RawClient c2 = new RawClient(a)) {
        for (RawClient c : List.of(c1, c2)) {
          c.send(4, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0")));
          assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
        }
        byte[] text = "SLEEP 30".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        ByteBuffer body = ByteBuffer.allocate(4 + text.length + 2 + 1 + 2 + 4 + valueBytes);
        body.putInt(text.length).put(text).putShort((short) 1).put((byte) 0x01).putShort((short) 1)
            .putInt(valueBytes).put(new byte[valueBytes]);
        for (int i = 1; i <= 10; i++) {
          c1.send(4, i, Opcode.QUERY, body.array());
          c2.send(4, i, Opcode.QUERY, body.array());
        }
        for (int i = 1; i <= 10; i++) {
          assertThat(c1.read().opcode()).isEqualTo(Opcode.RESULT);
          assertThat(c2.read().opcode()).isEqualTo(Opcode.RESULT);
        }
      }
      // 64 KiB admits three 20 KB requests at once across both connections, not the 8 workers' worth.
      assertThat(h.maxActive.get()).isBetween(1, 3);
    }
  }
}
