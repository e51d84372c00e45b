package io.cassette.cql.transport;

import io.cassette.cql.transport.frame.Crc;
import io.netty.buffer.Unpooled;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/**
 * A hand-rolled protocol client for tests: writes frames byte by byte as the spec draws them
 * and reads the server's answers, in frames or (v5, after STARTUP) uncompressed segments.
 */
final class RawClient implements AutoCloseable {
  record Frame(int version, int flags, int stream, int opcode, byte[] body) {
    ByteBuffer buffer() {
      return ByteBuffer.wrap(body);
    }

    int errorCode() {
      return buffer().getInt(0);
    }

    String errorMessage() {
      ByteBuffer b = buffer();
      b.getInt();
      return RawClient.readString(b);
    }
  }

  private final Socket socket;
  private final DataInputStream in;
  private final OutputStream out;
  boolean segments;

  RawClient(InetSocketAddress address) throws IOException {
    this(address, null);
  }

  /** From {@code localAddress} (e.g. 127.0.0.2: another client address on loopback), or any. */
  RawClient(InetSocketAddress address, java.net.InetAddress localAddress) throws IOException {
    socket = new Socket();
    if (localAddress != null) {
      socket.bind(new InetSocketAddress(localAddress, 0));
    }
    socket.connect(address, 5000);
    socket.setSoTimeout(5000);
    in = new DataInputStream(socket.getInputStream());
    out = socket.getOutputStream();
  }

  static byte[] frame(int version, int flags, int stream, int opcode, byte[] body) {
    ByteBuffer b = ByteBuffer.allocate(9 + body.length);
    b.put((byte) version).put((byte) flags).putShort((short) stream).put((byte) opcode).putInt(body.length).put(body);
    return b.array();
  }

  void sendRaw(byte[] bytes) throws IOException {
    out.write(bytes);
    out.flush();
  }

  void send(int version, int stream, int opcode, byte[] body) throws IOException {
    send(version, 0, stream, opcode, body);
  }

  void send(int version, int flags, int stream, int opcode, byte[] body) throws IOException {
    byte[] f = frame(version, flags, stream, opcode, body);
    sendRaw(segments ? segment(f, true) : f);
  }

  /** One uncompressed v5 segment around {@code payload}. */
  static byte[] segment(byte[] payload, boolean selfContained) {
    long header = payload.length | (selfContained ? 1L << 17 : 0);
    int crc24 = Crc.crc24(header, 3);
    int crc32 = Crc.crc32(Unpooled.wrappedBuffer(payload), 0, payload.length);
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    for (int i = 0; i < 3; i++) {
      b.write((int) (header >>> (8 * i)));
    }
    for (int i = 0; i < 3; i++) {
      b.write(crc24 >>> (8 * i));
    }
    b.writeBytes(payload);
    for (int i = 0; i < 4; i++) {
      b.write(crc32 >>> (8 * i));
    }
    return b.toByteArray();
  }

  private byte[] pendingSegmentPayload = new byte[0];
  private int pendingOffset;

  Frame read() throws IOException {
    if (!segments) {
      byte[] header = new byte[9];
      in.readFully(header);
      ByteBuffer h = ByteBuffer.wrap(header);
      int version = h.get() & 0xff;
      int flags = h.get() & 0xff;
      int stream = h.getShort();
      int opcode = h.get() & 0xff;
      byte[] body = new byte[h.getInt()];
      in.readFully(body);
      return new Frame(version, flags, stream, opcode, body);
    }
    if (pendingOffset >= pendingSegmentPayload.length) {
      pendingSegmentPayload = readSegmentPayload();
      pendingOffset = 0;
    }
    ByteBuffer p = ByteBuffer.wrap(pendingSegmentPayload, pendingOffset, pendingSegmentPayload.length - pendingOffset);
    int version = p.get() & 0xff;
    int flags = p.get() & 0xff;
    int stream = p.getShort();
    int opcode = p.get() & 0xff;
    int length = p.getInt();
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    int available = Math.min(length, p.remaining());
    body.write(pendingSegmentPayload, p.position(), available);
    pendingOffset = p.position() + available;
    while (body.size() < length) {
      byte[] more = readSegmentPayload();
      body.write(more, 0, more.length);
    }
    return new Frame(version, flags, stream, opcode, body.toByteArray());
  }

  /** Reads a v1/v2 frame: 8-byte header with a one-byte stream id. */
  Frame readV2() throws IOException {
    byte[] header = new byte[8];
    in.readFully(header);
    ByteBuffer h = ByteBuffer.wrap(header);
    int version = h.get() & 0xff;
    int flags = h.get() & 0xff;
    int stream = h.get();
    int opcode = h.get() & 0xff;
    byte[] body = new byte[h.getInt()];
    in.readFully(body);
    return new Frame(version, flags, stream, opcode, body);
  }

  private byte[] readSegmentPayload() throws IOException {
    byte[] header = new byte[6];
    in.readFully(header);
    long h = (header[0] & 0xff) | (header[1] & 0xff) << 8 | (long) (header[2] & 0xff) << 16;
    int crc = (header[3] & 0xff) | (header[4] & 0xff) << 8 | (header[5] & 0xff) << 16;
    if (Crc.crc24(h, 3) != crc) {
      throw new IOException("bad segment header CRC");
    }
    byte[] payload = new byte[(int) (h & 0x1FFFF)];
    in.readFully(payload);
    in.readFully(new byte[4]);
    return payload;
  }

  /** True when the server closed the connection (EOF) within the socket timeout. */
  boolean isClosedByServer() throws IOException {
    try {
      while (true) {
        if (in.read() < 0) {
          return true;
        }
      }
    } catch (EOFException e) {
      return true;
    } catch (SocketTimeoutException e) {
      return false;
    } catch (IOException e) {
      return true; // reset
    }
  }

  static byte[] stringMap(Map<String, String> map) {
    ByteArrayOutputStream b = new ByteArrayOutputStream();
    b.write(0);
    b.write(map.size());
    map.forEach((k, v) -> {
      b.writeBytes(string(k));
      b.writeBytes(string(v));
    });
    return b.toByteArray();
  }

  static byte[] string(String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(2 + bytes.length).putShort((short) bytes.length).put(bytes).array();
  }

  static String readString(ByteBuffer b) {
    int n = b.getShort() & 0xffff;
    byte[] bytes = new byte[n];
    b.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  /** A QUERY body: long string, consistency ONE, flags (byte before v5, int from v5). */
  static byte[] query(String q, int version) {
    byte[] text = q.getBytes(StandardCharsets.UTF_8);
    ByteBuffer b = ByteBuffer.allocate(4 + text.length + 2 + 4);
    b.putInt(text.length).put(text).putShort((short) 1);
    if (version >= 5) {
      b.putInt(0);
    } else {
      b.put((byte) 0);
    }
    byte[] out = new byte[b.position()];
    b.flip().get(out);
    return out;
  }

  @Override
  public void close() throws IOException {
    socket.close();
  }
}
