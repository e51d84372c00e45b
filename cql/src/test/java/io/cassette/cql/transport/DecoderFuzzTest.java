package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.transport.compression.Lz4Block;
import io.cassette.cql.transport.frame.FrameDecoder;
import io.cassette.cql.transport.frame.FrameEncoder;
import io.cassette.cql.transport.messages.Opcode;
import io.cassette.metrics.NodeMetrics;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Mutation fuzzing of the whole inbound path in process (frame decoder, v5 segments with their
 * CRCs recomputed so mutations get past them, message decoder, connection state machine), seeded
 * with well-formed traffic of every request type in v4 and v5 as drivers send it. Each input runs
 * on a fresh channel, fed in random chunks. Oracle: no exception escapes the pipeline, no answer
 * is a SERVER_ERROR or names a Java class, every answer is a well-formed frame, and the run makes
 * progress. 10,000 inputs here; 1,000,000 with -Pslow.
 */
class DecoderFuzzTest {
  private static final int MAX_FRAME = 64 * 1024;

  @Test
  void tenThousandMutatedInputs() {
    fuzz(10_000, 20261201L);
  }

  @Tag("slow")
  @Test
  void aMillionMutatedInputs() {
    fuzz(1_000_000, System.nanoTime());
  }

  private static void fuzz(int inputs, long seed) {
    Random random = new Random(seed);
    List<byte[][]> seeds = seeds();
    List<String> failures = new ArrayList<>();
    int answered = 0;
    for (int i = 0; i < inputs && failures.size() < 10; i++) {
      byte[][] input = seeds.get(random.nextInt(seeds.size()));
      boolean v5 = input.length > 1;
      byte[] bytes = mutate(random, input, v5);
      try {
        answered += run(bytes, random, v5);
      } catch (Throwable t) {
        failures.add("seed " + seed + " input " + i + ": " + t);
      }
    }
    assertThat(failures).as("fuzz failures (seed %d)", seed).isEmpty();
    assertThat(answered).as("answers").isGreaterThan(inputs / 2);
  }

  /** Feeds one input; returns the number of answers; throws on an oracle violation. */
  private static int run(byte[] bytes, Random random, boolean v5) {
    StubQueryHandler handler = new StubQueryHandler();
    RequestBytesBudget budget = new RequestBytesBudget(1 << 20, 256 * 1024, random.nextInt(4) == 0);
    var admission = budget.forClient(null);
    FrameDecoder decoder = new FrameDecoder(MAX_FRAME, MAX_FRAME, admission);
    FrameEncoder encoder = new FrameEncoder();
    UnreadAnswers unread = new UnreadAnswers(1 << 20);
    EmbeddedChannel ch = new EmbeddedChannel(decoder, encoder, new CqlConnectionHandler(new TransportOnly(handler),
        Runnable::run, AllowAllAuthenticator.INSTANCE, new EventBroadcaster(), decoder, encoder, 64,
        NodeMetrics.global().requests("cql"), NodeMetrics.global().cqlSlowLog(), admission, 16 * 1024,
        1 << 20, unread));
    int at = 0;
    while (at < bytes.length && ch.isOpen()) {
      int n = Math.min(bytes.length - at, 1 + random.nextInt(random.nextBoolean() ? 16 : 4096));
      ch.writeInbound(Unpooled.wrappedBuffer(bytes, at, n));
      ch.runPendingTasks();
      at += n;
    }
    ch.runPendingTasks();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (Object o; (o = ch.readOutbound()) != null; ) {
      ByteBuf b = (ByteBuf) o;
      byte[] a = new byte[b.readableBytes()];
      b.readBytes(a);
      b.release();
      out.writeBytes(a);
    }
    ch.finishAndReleaseAll();
    ch.runPendingTasks();
    assertThat(budget.usedBytes()).as("reservations released").isZero();
    assertThat(unread.bytes()).as("answers counted as unread").isZero();
    return checkAnswers(out.toByteArray());
  }

  /** Parses what the server wrote: frames, then (after a v5 READY) segments. */
  private static int checkAnswers(byte[] out) {
    ByteBuffer b = ByteBuffer.wrap(out);
    int answers = 0;
    boolean segments = false;
    ByteArrayOutputStream envelopes = new ByteArrayOutputStream();
    while (b.remaining() >= (segments ? 6 : 9)) {
      if (!segments) {
        int start = b.position();
        int version = b.get(start) & 0x7f;
        int opcode = b.get(start + 4) & 0xff;
        int length = b.getInt(start + 5);
        if (version <= 2) {
          break; // the v1/v2 unsupported-version answer, 8-byte header: checked elsewhere
        }
        assertThat(length).isBetween(0, b.remaining() - 9);
        if ((b.get(start + 1) & 0x01) == 0) { // compressed bodies (after an LZ4 STARTUP) are not parsed
          checkAnswer(opcode, ByteBuffer.wrap(out, start + 9, length).slice());
        }
        answers++;
        b.position(start + 9 + length);
        if (version >= 5 && opcode == Opcode.READY) {
          segments = true;
        }
      } else {
        long h = 0;
        int compressedHeader = 0;
        for (int i = 0; i < 3; i++) {
          h |= (long) (b.get() & 0xff) << (8 * i);
        }
        b.position(b.position() + 3);
        int length = (int) (h & 0x1ffff);
        byte[] payload = new byte[length];
        b.get(payload);
        b.position(b.position() + 4 + compressedHeader);
        envelopes.writeBytes(payload);
      }
    }
    ByteBuffer e = ByteBuffer.wrap(envelopes.toByteArray());
    while (e.remaining() >= 9) {
      int start = e.position();
      int opcode = e.get(start + 4) & 0xff;
      int length = e.getInt(start + 5);
      assertThat(length).isBetween(0, e.remaining() - 9);
      checkAnswer(opcode, ByteBuffer.wrap(e.array(), start + 9, length).slice());
      answers++;
      e.position(start + 9 + length);
    }
    return answers;
  }

  private static void checkAnswer(int opcode, ByteBuffer body) {
    assertThat(opcode).isIn(Opcode.ERROR, Opcode.READY, Opcode.RESULT, Opcode.SUPPORTED, Opcode.AUTHENTICATE,
        Opcode.EVENT);
    if (opcode == Opcode.ERROR) {
      int code = body.getInt(0);
      String message = RawClient.readString(body.position(4));
      assertThat(code).as("error code of '%s'", message).isNotZero();
      assertThat(message).as("answer names no Java class").doesNotContainPattern("(java|io\\.netty|io\\.cassette)\\.")
          .doesNotContain("Exception");
    }
  }

  /**
   * The stub's own failures on mutated statement text (it is no CQL implementation) are not the
   * transport's: they become a client error here, so any SERVER_ERROR left comes from decoding.
   */
  private record TransportOnly(StubQueryHandler stub) implements io.cassette.cql.QueryHandler {
    private static <T> T guard(java.util.function.Supplier<T> call) {
      try {
        return call.get();
      } catch (io.cassette.cql.CqlException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new io.cassette.cql.CqlException(io.cassette.cql.ErrorCode.INVALID, "stub cannot run this");
      }
    }

    @Override
    public io.cassette.cql.Result query(String query, io.cassette.cql.QueryOptions options,
                                        io.cassette.cql.ClientState state) {
      return guard(() -> stub.query(query, options, state));
    }

    @Override
    public io.cassette.cql.Result.Prepared prepare(String query, String keyspace, io.cassette.cql.ClientState state) {
      return guard(() -> stub.prepare(query, keyspace, state));
    }

    @Override
    public io.cassette.cql.Result execute(byte[] id, byte[] resultMetadataId, io.cassette.cql.QueryOptions options,
                                          io.cassette.cql.ClientState state) {
      return guard(() -> stub.execute(id, resultMetadataId, options, state));
    }

    @Override
    public io.cassette.cql.Result batch(int type, List<io.cassette.cql.BatchStatement> statements,
                                        io.cassette.cql.QueryOptions options, io.cassette.cql.ClientState state) {
      return guard(() -> stub.batch(type, statements, options, state));
    }

    @Override
    public void onSchemaChange(java.util.function.Consumer<io.cassette.cql.Result.SchemaChange> listener) {
      stub.onSchemaChange(listener);
    }
  }

  private static byte[] mutate(Random random, byte[][] input, boolean v5) {
    // input[0]: plain bytes (frames); input[1..]: envelopes to put in segments after input[0].
    byte[] head = input[0].clone();
    List<byte[]> envelopes = new ArrayList<>();
    for (int i = 1; i < input.length; i++) {
      envelopes.add(input[i].clone());
    }
    int mutations = random.nextInt(4);
    for (int m = 0; m < mutations; m++) {
      byte[] target = v5 && !envelopes.isEmpty() && random.nextInt(4) != 0
          ? envelopes.get(random.nextInt(envelopes.size())) : head;
      if (target.length == 0) {
        continue;
      }
      int at = random.nextInt(target.length);
      switch (random.nextInt(5)) {
        case 0 -> target[at] ^= (byte) (1 << random.nextInt(8));
        case 1 -> target[at] = (byte) random.nextInt();
        case 2 -> target[at] = (byte) (random.nextBoolean() ? 0xff : 0x00);
        case 3 -> { // a length field: make it huge, negative or off by one
          if (target.length >= at + 4) {
            int v = ByteBuffer.wrap(target, at, 4).getInt();
            int[] choices = {-1, -2, Integer.MAX_VALUE, v + 1, v - 1, MAX_FRAME, 0};
            ByteBuffer.wrap(target, at, 4).putInt(choices[random.nextInt(choices.length)]);
          }
        }
        default -> target[at] = (byte) random.nextInt(8);
      }
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.writeBytes(head);
    if (v5) {
      ByteArrayOutputStream all = new ByteArrayOutputStream();
      for (byte[] env : envelopes) {
        all.writeBytes(env);
      }
      byte[] joined = all.toByteArray();
      if (random.nextBoolean() || joined.length > (1 << 17) - 1) {
        int max = random.nextBoolean() ? (1 << 17) - 1 : 1 + random.nextInt(64);
        for (int off = 0; off < joined.length; off += max) {
          out.writeBytes(RawClient.segment(java.util.Arrays.copyOfRange(joined, off, Math.min(joined.length, off + max)),
              false));
        }
      } else {
        out.writeBytes(RawClient.segment(joined, true));
      }
    }
    byte[] bytes = out.toByteArray();
    if (random.nextInt(10) == 0 && bytes.length > 0) {
      bytes = java.util.Arrays.copyOf(bytes, random.nextInt(bytes.length));
    }
    return bytes;
  }

  /** Well-formed traffic: what drivers send, per version and request type. */
  private static List<byte[][]> seeds() {
    List<byte[][]> s = new ArrayList<>();
    for (int v : new int[] {3, 4, 5}) {
      byte[] startup = RawClient.frame(v, 0, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0",
          "DRIVER_NAME", "fuzz")));
      byte[] options = RawClient.frame(v, 0, 1, Opcode.OPTIONS, new byte[0]);
      List<byte[]> requests = List.of(
          RawClient.frame(v, 0, 2, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", v)),
          RawClient.frame(v, 0, 3, Opcode.QUERY, queryWithEverything(v)),
          RawClient.frame(v, 0, 4, Opcode.PREPARE, prepare("INSERT INTO ks.kv (k, v) VALUES (?, ?)", v)),
          RawClient.frame(v, 0, 5, Opcode.EXECUTE, execute(v)),
          RawClient.frame(v, 0, 6, Opcode.BATCH, batch(v)),
          RawClient.frame(v, 0, 7, Opcode.REGISTER, registerBody()),
          RawClient.frame(v, 0x04, 8, Opcode.QUERY, withCustomPayload(RawClient.query("ECHO x", v))));
      for (byte[] r : requests) {
        if (v < 5) {
          s.add(new byte[][] {concat(options, startup, r)});
        } else {
          s.add(new byte[][] {concat(options, startup), r});
          s.add(new byte[][] {concat(startup), r, requests.get(0), r});
        }
      }
    }
    // v4 with LZ4 body compression.
    byte[] lz4Startup = RawClient.frame(4, 0, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.0.0",
        "COMPRESSION", "lz4")));
    byte[] plain = RawClient.query("SELECT * FROM system.local", 4);
    byte[] compressed = new byte[Lz4Block.maxCompressedLength(plain.length)];
    int n = Lz4Block.compress(plain, 0, plain.length, compressed, 0);
    ByteBuffer body = ByteBuffer.allocate(4 + n).putInt(plain.length).put(compressed, 0, n);
    s.add(new byte[][] {concat(lz4Startup, RawClient.frame(4, 0x01, 9, Opcode.QUERY, body.array()))});
    return s;
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  private static byte[] longString(String q) {
    byte[] t = q.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(4 + t.length).putInt(t.length).put(t).array();
  }

  /** [query_parameters] with values, names, page size, paging state, serial CL, timestamp (v5: keyspace, now). */
  private static byte[] parameters(int v, boolean named) {
    ByteBuffer b = ByteBuffer.allocate(512);
    b.putShort((short) 1);
    int flags = 0x01 | 0x04 | 0x08 | 0x10 | 0x20 | (named ? 0x40 : 0) | (v >= 5 ? 0x80 | 0x100 : 0);
    if (v >= 5) {
      b.putInt(flags);
    } else {
      b.put((byte) flags);
    }
    b.putShort((short) 2);
    if (named) {
      b.put(RawClient.string("k"));
    }
    b.putInt(4).putInt(7);
    if (named) {
      b.put(RawClient.string("v"));
    }
    b.putInt(v >= 4 ? -2 : -1);
    b.putInt(100).putInt(3).put(new byte[] {1, 2, 3}).putShort((short) 8).putLong(1_700_000_000_000_000L);
    if (v >= 5) {
      b.put(RawClient.string("ks")).putInt(1_700_000_000);
    }
    byte[] out = new byte[b.position()];
    b.flip().get(out);
    return out;
  }

  private static byte[] queryWithEverything(int v) {
    return concat(longString("SELECT v FROM ks.kv WHERE k = ?"), parameters(v, v >= 4));
  }

  private static byte[] prepare(String q, int v) {
    return v >= 5 ? concat(longString(q), ByteBuffer.allocate(4).putInt(1).array(), RawClient.string("ks"))
        : longString(q);
  }

  private static byte[] execute(int v) {
    byte[] id = {0, 16, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
    return v >= 5 ? concat(id, id, parameters(v, false)) : concat(id, parameters(v, false));
  }

  private static byte[] batch(int v) {
    ByteBuffer b = ByteBuffer.allocate(256);
    b.put((byte) 1).putShort((short) 2);
    b.put((byte) 0).put(longString("INSERT INTO ks.kv (k, v) VALUES (1, 'a')")).putShort((short) 0);
    b.put((byte) 1).putShort((short) 4).put(new byte[] {9, 9, 9, 9}).putShort((short) 1).putInt(4).putInt(5);
    b.putShort((short) 1);
    if (v >= 5) {
      b.putInt(0x20).putLong(1L);
    } else {
      b.put((byte) 0x20).putLong(1L);
    }
    byte[] out = new byte[b.position()];
    b.flip().get(out);
    return out;
  }

  private static byte[] registerBody() {
    return concat(ByteBuffer.allocate(2).putShort((short) 2).array(), RawClient.string("SCHEMA_CHANGE"),
        RawClient.string("STATUS_CHANGE"));
  }

  private static byte[] withCustomPayload(byte[] body) {
    return concat(ByteBuffer.allocate(2).putShort((short) 1).array(), RawClient.string("key"),
        ByteBuffer.allocate(4).putInt(2).array(), new byte[] {1, 2}, body);
  }
}
