package io.cassette.cql.transport;

import static org.assertj.core.api.Assertions.assertThat;

import io.cassette.cql.transport.messages.Opcode;
import io.netty.util.ResourceLeakDetector;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random and mutated frames: bad lengths, unknown opcodes, truncated bodies,
 * huge declared sizes, corrupt v5 segments. Each connection gets well-formed answers (ERROR
 * among them) or is closed; no buffer leaks (Netty's paranoid leak detector); and the server
 * keeps serving a well-behaved client throughout.
 */
class FrameFuzzTest {
  private static final int ITERATIONS = 3000;
  private static final long TIME_BUDGET_MILLIS = 20_000;
  private static final int MAX_FRAME_BYTES = 256 * 1024;

  @Test
  void randomAndMutatedFramesNeverHurtTheServer() throws Exception {
    ResourceLeakDetector.Level previous = ResourceLeakDetector.getLevel();
    ResourceLeakDetector.setLevel(ResourceLeakDetector.Level.PARANOID);
    List<String> leaks = new ArrayList<>();
    Logger leakLogger = Logger.getLogger(ResourceLeakDetector.class.getName());
    Handler capture = new Handler() {
      @Override
      public void publish(LogRecord record) {
        if (record.getMessage() != null && record.getMessage().contains("LEAK")) {
          synchronized (leaks) {
            leaks.add(record.getMessage());
          }
        }
      }

      @Override
      public void flush() {}

      @Override
      public void close() {}
    };
    leakLogger.addHandler(capture);
    StubQueryHandler handler = new StubQueryHandler();
    CqlServerOptions options = CqlServerOptions.defaults("127.0.0.1", 0).withMaxFrameBytes(MAX_FRAME_BYTES);
    try (CqlServer server = new CqlServer(options, handler)) {
      InetSocketAddress address = server.start();
      Random random = new Random(20261130);
      long deadline = System.currentTimeMillis() + TIME_BUDGET_MILLIS;
      int done = 0;
      int errorsSeen = 0;
      try (RawClient witness = new RawClient(address)) {
        witness.send(4, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.4.7")));
        assertThat(witness.read().opcode()).isEqualTo(Opcode.READY);
        for (; done < ITERATIONS && System.currentTimeMillis() < deadline; done++) {
          errorsSeen += fuzzOnce(address, random);
          if (done % 250 == 0) {
            witness.send(4, 1, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
            assertThat(witness.read().opcode()).as("witness after %d fuzz connections", done).isEqualTo(Opcode.RESULT);
          }
        }
      }
      assertThat(done).as("fuzz iterations within the time budget").isGreaterThanOrEqualTo(1000);
      assertThat(errorsSeen).isGreaterThan(done / 4);
      // Provoke leak reports: collect garbage, then allocate through the server again.
      for (int i = 0; i < 3; i++) {
        System.gc();
        Thread.sleep(100);
        try (RawClient c = new RawClient(address)) {
          c.send(4, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.4.7")));
          c.read();
          for (int q = 0; q < 20; q++) {
            c.send(4, q, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
            c.read();
          }
        }
      }
    } finally {
      leakLogger.removeHandler(capture);
      ResourceLeakDetector.setLevel(previous);
    }
    synchronized (leaks) {
      assertThat(leaks).as("Netty buffer leaks").isEmpty();
    }
  }

  /** One connection's worth of bad input; returns the number of ERROR frames received. */
  private static int fuzzOnce(InetSocketAddress address, Random random) throws IOException {
    try (Socket socket = new Socket()) {
      socket.connect(address, 2000);
      socket.setSoTimeout(3000);
      OutputStream out = socket.getOutputStream();
      int kind = random.nextInt(8);
      boolean segmented = false;
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      switch (kind) {
        case 0 -> bytes.writeBytes(randomBytes(random, 1 + random.nextInt(2000)));
        case 1 -> bytes.writeBytes(RawClient.frame(3 + random.nextInt(3), random.nextInt(256), random.nextInt(32768),
            random.nextInt(256), randomBytes(random, random.nextInt(300))));
        case 2 -> {
          bytes.writeBytes(startup(4));
          bytes.writeBytes(RawClient.frame(4, 0, 1, pick(random, Opcode.QUERY, Opcode.EXECUTE, Opcode.BATCH,
              Opcode.PREPARE, Opcode.REGISTER), randomBytes(random, random.nextInt(200))));
        }
        case 3 -> {
          ByteBuffer header = ByteBuffer.allocate(9).put((byte) 4).put((byte) 0).putShort((short) 3)
              .put((byte) Opcode.QUERY).putInt(random.nextBoolean() ? Integer.MAX_VALUE : MAX_FRAME_BYTES + random.nextInt(1 << 20));
          bytes.writeBytes(header.array());
          bytes.writeBytes(randomBytes(random, random.nextInt(5000)));
        }
        case 4 -> {
          byte[] full = RawClient.frame(4, 0, 2, Opcode.QUERY, RawClient.query("SELECT * FROM system.local", 4));
          bytes.writeBytes(startup(4));
          bytes.write(full, 0, random.nextInt(full.length));
        }
        case 5 -> {
          segmented = true;
          bytes.writeBytes(startup(5));
          byte[] segment = RawClient.segment(RawClient.frame(5, 0, 1, Opcode.QUERY,
              RawClient.query("SELECT * FROM system.local", 5)), random.nextBoolean());
          for (int i = random.nextInt(3); i >= 0; i--) {
            segment[random.nextInt(segment.length)] ^= (byte) (1 << random.nextInt(8));
          }
          bytes.writeBytes(segment);
        }
        case 6 -> {
          byte[] frame = RawClient.frame(4, 0, 5, Opcode.BATCH, new byte[] {0, 0, 1, 0, 0, 0, 0, 4, 'W', 'A', 'R', 'N',
              0, 0, 0, 1, 0});
          bytes.writeBytes(startup(4));
          for (int i = random.nextInt(4); i >= 0; i--) {
            int at = 9 + random.nextInt(frame.length - 9);
            frame[at] = (byte) random.nextInt();
          }
          bytes.writeBytes(frame);
        }
        default -> {
          // mutate a valid v4 frame header
          byte[] frame = RawClient.frame(4, 0, 6, Opcode.QUERY, RawClient.query("WARN", 4));
          bytes.writeBytes(startup(4));
          frame[random.nextInt(9)] = (byte) random.nextInt();
          bytes.writeBytes(frame);
        }
      }
      try {
        out.write(bytes.toByteArray());
        out.flush();
        socket.shutdownOutput();
      } catch (SocketException closedAlready) {
        return 0;
      }
      return drain(new DataInputStream(socket.getInputStream()), segmented);
    }
  }

  /** Reads answers until the server closes; checks frames are well formed. */
  private static int drain(DataInputStream in, boolean segmented) throws IOException {
    int errors = 0;
    try {
      if (segmented) {
        // After READY (a plain frame) answers come in segments: just read to the end.
        byte[] header = new byte[9];
        in.readFully(header);
        in.skipNBytes(ByteBuffer.wrap(header).getInt(5));
        while (in.read() >= 0) {
          // drain
        }
        return 0;
      }
      while (true) {
        byte[] header = new byte[9];
        int first = in.read();
        if (first < 0) {
          return errors;
        }
        header[0] = (byte) first;
        in.readFully(header, 1, 8);
        ByteBuffer h = ByteBuffer.wrap(header);
        int version = h.get() & 0xff;
        assertThat(version & 0x80).as("response bit").isEqualTo(0x80);
        h.get();
        h.getShort();
        int opcode = h.get() & 0xff;
        int length = h.getInt();
        assertThat(opcode).isIn(Opcode.ERROR, Opcode.READY, Opcode.RESULT, Opcode.SUPPORTED, Opcode.AUTHENTICATE);
        assertThat(length).isBetween(0, MAX_FRAME_BYTES);
        in.skipNBytes(length);
        if (opcode == Opcode.ERROR) {
          errors++;
        }
      }
    } catch (EOFException | SocketException e) {
      return errors;
    }
  }

  private static byte[] startup(int version) {
    return RawClient.frame(version, 0, 0, Opcode.STARTUP, RawClient.stringMap(Map.of("CQL_VERSION", "3.4.7")));
  }

  private static int pick(Random random, int... choices) {
    return choices[random.nextInt(choices.length)];
  }

  private static byte[] randomBytes(Random random, int n) {
    byte[] b = new byte[n];
    random.nextBytes(b);
    return b;
  }
}
