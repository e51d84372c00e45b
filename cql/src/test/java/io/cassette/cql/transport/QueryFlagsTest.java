package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.Consistency;
import io.cassette.cql.QueryOptions;
import io.cassette.cql.ResultMetadataId;
import io.cassette.cql.transport.messages.Opcode;
import java.io.ByteArrayOutputStream;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Every [query_parameters] flag decoded into QueryOptions, and v5 result metadata ids. */
class QueryFlagsTest {
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
    c.send(version, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.4.7")));
    assertThat(c.read().opcode()).isEqualTo(Opcode.READY);
    c.segments = version >= 5;
    return c;
  }

  /** Builds bodies in spec notation. */
  static final class Body {
    final ByteArrayOutputStream out = new ByteArrayOutputStream();

    Body shortInt(int v) {
      out.write(v >>> 8);
      out.write(v);
      return this;
    }

    Body integer(int v) {
      out.writeBytes(ByteBuffer.allocate(4).putInt(v).array());
      return this;
    }

    Body longInt(long v) {
      out.writeBytes(ByteBuffer.allocate(8).putLong(v).array());
      return this;
    }

    Body string(String s) {
      out.writeBytes(RawClient.string(s));
      return this;
    }

    Body longString(String s) {
      byte[] b = s.getBytes(StandardCharsets.UTF_8);
      integer(b.length);
      out.writeBytes(b);
      return this;
    }

    Body bytes(byte[] b) {
      integer(b.length);
      out.writeBytes(b);
      return this;
    }

    Body shortBytes(byte[] b) {
      shortInt(b.length);
      out.writeBytes(b);
      return this;
    }

    byte[] build() {
      return out.toByteArray();
    }
  }

  @Test
  void everyV5QueryFlagIsDecoded() throws Exception {
    try (RawClient c = connect(5)) {
      Body b = new Body().longString("WARN").shortInt(Consistency.LOCAL_QUORUM.code)
          .integer(0x01 | 0x02 | 0x04 | 0x08 | 0x10 | 0x20 | 0x40 | 0x80 | 0x100)
          .shortInt(3)
          .string("a").bytes(new byte[] {0, 0, 0, 7})
          .string("b").integer(-1)
          .string("c").integer(-2)
          .integer(250)
          .bytes(new byte[] {1, 2, 3})
          .shortInt(Consistency.LOCAL_SERIAL.code)
          .longInt(1_234_567L)
          .string("ks")
          .integer(1_700_000_000);
      c.send(5, 1, Opcode.QUERY, b.build());
      RawClient.Frame f = c.read();
      assertThat(f.opcode()).isEqualTo(Opcode.RESULT);
      QueryOptions o = handler.lastOptions;
      assertThat(o.consistency()).isEqualTo(Consistency.LOCAL_QUORUM);
      assertThat(o.names()).containsExactly("a", "b", "c");
      assertThat(o.values().get(0).getInt(0)).isEqualTo(7);
      assertThat(o.values().get(1)).isNull();
      assertThat(o.values().get(2)).isSameAs(QueryOptions.UNSET);
      assertThat(o.skipMetadata()).isTrue();
      assertThat(o.pageSize()).isEqualTo(250);
      assertThat(o.pagingState()).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
      assertThat(o.serialConsistency()).isEqualTo(Consistency.LOCAL_SERIAL);
      assertThat(o.defaultTimestamp()).isEqualTo(1_234_567L);
      assertThat(o.keyspace()).isEqualTo("ks");
      assertThat(o.nowInSeconds()).isEqualTo(1_700_000_000);
      assertThat(o.protocolVersion()).isEqualTo(5);
    }
  }

  @Test
  void v4QueryWithoutOptionalFieldsTakesDefaults() throws Exception {
    try (RawClient c = connect(4)) {
      c.send(4, 1, Opcode.QUERY, RawClient.query("WARN", 4));
      assertThat(c.read().opcode()).isEqualTo(Opcode.RESULT);
      QueryOptions o = handler.lastOptions;
      assertThat(o.consistency()).isEqualTo(Consistency.ONE);
      assertThat(o.values()).isEmpty();
      assertThat(o.names()).isNull();
      assertThat(o.pageSize()).isLessThanOrEqualTo(0);
      assertThat(o.pagingState()).isNull();
      assertThat(o.serialConsistency()).isEqualTo(Consistency.SERIAL);
      assertThat(o.defaultTimestamp()).isEqualTo(Long.MIN_VALUE);
      assertThat(o.keyspace()).isNull();
      assertThat(o.nowInSeconds()).isEqualTo(Integer.MIN_VALUE);
    }
  }

  @Test
  void v5ExecuteWithStaleResultMetadataIdGetsMetadataChanged() throws Exception {
    try (RawClient c = connect(5)) {
      c.send(5, 1, Opcode.PREPARE, new Body().longString("SELECT v FROM ks.kv WHERE k = ?").integer(0).build());
      ByteBuffer prepared = c.read().buffer();
      assertThat(prepared.getInt()).isEqualTo(4);
      byte[] id = new byte[prepared.getShort()];
      prepared.get(id);
      byte[] metadataId = new byte[prepared.getShort()];
      prepared.get(metadataId);
      assertThat(metadataId).isEqualTo(ResultMetadataId.compute(List.of(
          new io.cassette.cql.ColumnSpec("ks", "kv", "v", StubQueryHandler.TEXT))));
      // prepared metadata: flags (global), 1 variable, 1 pk index = 0
      assertThat(prepared.getInt()).isEqualTo(0x0001);
      assertThat(prepared.getInt()).isEqualTo(1);
      assertThat(prepared.getInt()).isEqualTo(1);
      assertThat(prepared.getShort()).isEqualTo((short) 0);

      byte[] stale = Arrays.copyOf(metadataId, metadataId.length);
      stale[0] ^= 1;
      c.send(5, 2, Opcode.EXECUTE, execute(id, stale));
      ByteBuffer rows = c.read().buffer();
      assertThat(rows.getInt()).isEqualTo(2);
      int flags = rows.getInt();
      assertThat(flags & 0x0008).as("METADATA_CHANGED").isEqualTo(0x0008);
      assertThat(flags & 0x0004).as("NO_METADATA despite skip").isZero();
      assertThat(rows.getInt()).isEqualTo(1);
      byte[] newId = new byte[rows.getShort()];
      rows.get(newId);
      assertThat(newId).isEqualTo(metadataId);

      c.send(5, 3, Opcode.EXECUTE, execute(id, metadataId));
      rows = c.read().buffer();
      assertThat(rows.getInt()).isEqualTo(2);
      assertThat(rows.getInt()).isEqualTo(0x0004); // NO_METADATA only
    }
  }

  private static byte[] execute(byte[] id, byte[] metadataId) {
    return new Body().shortBytes(id).shortBytes(metadataId).shortInt(1).integer(0x01 | 0x02)
        .shortInt(1).bytes(new byte[] {0, 0, 0, 1}).build();
  }
}
