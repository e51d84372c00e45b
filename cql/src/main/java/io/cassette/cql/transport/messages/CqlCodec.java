package io.cassette.cql.transport.messages;

import io.cassette.cql.CqlException;
import io.cassette.cql.ErrorCode;
import io.cassette.cql.QueryOptions;
import io.netty.buffer.ByteBuf;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads and writes the notations of the spec (section 3): [string], [long string], [bytes],
 * [value], [short bytes], [string list], [string map], [string multimap], [inet]... Every
 * read checks the remaining bytes and throws a PROTOCOL_ERROR {@link CqlException} that names
 * what was being read, so a malformed body never escapes as an IndexOutOfBoundsException.
 */
public final class CqlCodec {
  private CqlCodec() {}

  private static void need(ByteBuf in, int byteCount, String what) {
    if (byteCount < 0 || in.readableBytes() < byteCount) {
      throw malformed("Not enough bytes to read " + what + ": need " + byteCount + ", have "
          + in.readableBytes());
    }
  }

  public static CqlException malformed(String message) {
    return new CqlException(ErrorCode.PROTOCOL_ERROR, message);
  }

  public static int readByte(ByteBuf in, String what) {
    need(in, 1, what);
    return in.readUnsignedByte();
  }

  public static int readShort(ByteBuf in, String what) {
    need(in, 2, what);
    return in.readUnsignedShort();
  }

  /**
   * The [short] length of {@code what}: its label ("... length") is only built for the error,
   * not on every call (a String per prepared id and bound value showed in the allocation profile).
   */
  private static int readShortLength(ByteBuf in, String what) {
    if (in.readableBytes() < 2) {
      need(in, 2, what + " length");
    }
    return in.readUnsignedShort();
  }

  /** The [int] length of {@code what}, its label built only for the error. */
  private static int readIntLength(ByteBuf in, String what) {
    if (in.readableBytes() < 4) {
      need(in, 4, what + " length");
    }
    return in.readInt();
  }

  public static int readInt(ByteBuf in, String what) {
    need(in, 4, what);
    return in.readInt();
  }

  public static long readLong(ByteBuf in, String what) {
    need(in, 8, what);
    return in.readLong();
  }

  public static String readString(ByteBuf in, String what) {
    int length = readShortLength(in, what);
    if (in.readableBytes() < length) {
      throw malformed("Not enough bytes to read an UTF8 serialized string of size " + length);
    }
    String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
    in.skipBytes(length);
    return s;
  }

  public static String readLongString(ByteBuf in, String what) {
    int length = readIntLength(in, what);
    if (length < 0 || in.readableBytes() < length) {
      // Cassandra's wording, for the same situation
      throw malformed("Not enough bytes to read an UTF8 serialized string preceded by its 4 bytes length");
    }
    String s = in.toString(in.readerIndex(), length, StandardCharsets.UTF_8);
    in.skipBytes(length);
    return s;
  }

  /** [short bytes] as a new array. */
  public static byte[] readShortBytes(ByteBuf in, String what) {
    int length = readShortLength(in, what);
    need(in, length, what);
    byte[] b = new byte[length];
    in.readBytes(b);
    return b;
  }

  /**
   * Prepared ids of recent EXECUTEs: a client repeats a few statements, so an id read from a
   * frame is compared in place with the one last seen in its slot and that array shared, not a
   * new one copied per request (~240 B per stress read in JFR's allocation profile). Slots are
   * published with release/acquire, so a shared array is always seen filled; nobody writes an
   * id array after reading it (they are lookup keys, hex-dumped, echoed in UNPREPARED).
   */
  private static final java.util.concurrent.atomic.AtomicReferenceArray<byte[]> RECENT_IDS =
      new java.util.concurrent.atomic.AtomicReferenceArray<>(64);

  /** [short bytes] of a prepared id: the array of a recent equal id, or a new one. */
  public static byte[] readPreparedId(ByteBuf in, String what) {
    int length = readShortLength(in, what);
    need(in, length, what);
    int at = in.readerIndex();
    int slot = (length >= 4 ? in.getInt(at + length - 4) : length) & (RECENT_IDS.length() - 1);
    byte[] recent = RECENT_IDS.getAcquire(slot);
    if (recent != null && recent.length == length && sameBytes(in, at, recent)) {
      in.skipBytes(length);
      return recent;
    }
    byte[] b = new byte[length];
    in.readBytes(b);
    RECENT_IDS.setRelease(slot, b);
    return b;
  }

  private static boolean sameBytes(ByteBuf in, int at, byte[] b) {
    int i = 0;
    for (; i + 8 <= b.length; i += 8) {
      if (in.getLong(at + i) != (long) LONG.get(b, i)) {
        return false;
      }
    }
    for (; i < b.length; i++) {
      if (in.getByte(at + i) != b[i]) {
        return false;
      }
    }
    return true;
  }

  private static final java.lang.invoke.VarHandle LONG =
      java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);

  /** [bytes]: null when the length is negative. */
  public static byte[] readBytes(ByteBuf in, String what) {
    int length = readIntLength(in, what);
    if (length < 0) {
      return null;
    }
    need(in, length, what);
    byte[] b = new byte[length];
    in.readBytes(b);
    return b;
  }

  /** [value]: null for -1, {@link QueryOptions#UNSET} for -2 (v4+), else a copy of the bytes. */
  public static ByteBuffer readValue(ByteBuf in, int version, String what) {
    int length = readIntLength(in, what);
    if (length == -1) {
      return null;
    }
    if (length == -2 && version >= 4) {
      return QueryOptions.UNSET;
    }
    if (length < 0) {
      throw malformed("Invalid length " + length + " for " + what + " (expected: >= -" + (version >= 4 ? 2 : 1) + ")");
    }
    need(in, length, what);
    byte[] b = new byte[length];
    in.readBytes(b);
    return ByteBuffer.wrap(b);
  }

  public static Map<String, String> readStringMap(ByteBuf in, String what) {
    int n = readShort(in, what + " size");
    Map<String, String> map = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String key = readString(in, what + " key");
      map.put(key, readString(in, what + " value"));
    }
    return map;
  }

  public static List<String> readStringList(ByteBuf in, String what) {
    int n = readShort(in, what + " size");
    List<String> list = new ArrayList<>(Math.min(n, 64));
    for (int i = 0; i < n; i++) {
      list.add(readString(in, what));
    }
    return list;
  }

  /** Skips a [bytes map] (a custom payload; we accept and ignore it, as Cassandra does without a handler). */
  public static void skipBytesMap(ByteBuf in) {
    int n = readShort(in, "custom payload size");
    for (int i = 0; i < n; i++) {
      readString(in, "custom payload key");
      int length = readInt(in, "custom payload value length");
      if (length > 0) {
        need(in, length, "custom payload value");
        in.skipBytes(length);
      }
    }
  }

  /** Longest [string] in bytes: its length is an unsigned short. */
  public static final int MAX_STRING_BYTES = 0xFFFF;

  /**
   * [string].
   *
   * @throws IllegalArgumentException when longer than {@link #MAX_STRING_BYTES} in UTF-8
   */
  public static void writeString(ByteBuf out, String s) {
    int lengthAt = out.writerIndex();
    out.writeShort(0);
    int n = out.writeCharSequence(s, StandardCharsets.UTF_8);
    if (n > MAX_STRING_BYTES) {
      out.writerIndex(lengthAt);
      throw new IllegalArgumentException("[string] of " + n + " bytes (expected: <= " + MAX_STRING_BYTES + ")");
    }
    out.setShort(lengthAt, n);
  }

  /** A [string] cut to at most {@link #MAX_STRING_BYTES} bytes (for messages that may quote user input). */
  public static void writeTruncatedString(ByteBuf out, String s) {
    if (s.length() * 3 <= MAX_STRING_BYTES) {
      writeString(out, s);
      return;
    }
    byte[] b = s.getBytes(StandardCharsets.UTF_8);
    int n = Math.min(b.length, MAX_STRING_BYTES);
    // Do not cut a UTF-8 sequence in half: back up to a lead byte.
    while (n < b.length && n > 0 && (b[n] & 0xC0) == 0x80) {
      n--;
    }
    out.writeShort(n);
    out.writeBytes(b, 0, n);
  }

  public static void writeLongString(ByteBuf out, String s) {
    int lengthAt = out.writerIndex();
    out.writeInt(0);
    int n = out.writeCharSequence(s, StandardCharsets.UTF_8);
    out.setInt(lengthAt, n);
  }

  public static void writeShortBytes(ByteBuf out, byte[] b) {
    out.writeShort(b.length);
    out.writeBytes(b);
  }

  /** [bytes]; null is written as length -1. */
  public static void writeBytes(ByteBuf out, byte[] b) {
    if (b == null) {
      out.writeInt(-1);
    } else {
      out.writeInt(b.length);
      out.writeBytes(b);
    }
  }

  /** [bytes] from the remaining bytes of a buffer (position untouched); null as -1. */
  public static void writeBytes(ByteBuf out, ByteBuffer b) {
    if (b == null) {
      out.writeInt(-1);
    } else {
      out.writeInt(b.remaining());
      if (b.hasArray()) {
        out.writeBytes(b.array(), b.arrayOffset() + b.position(), b.remaining()); // no duplicate per value
      } else {
        out.writeBytes(b.duplicate());
      }
    }
  }

  public static void writeStringList(ByteBuf out, List<String> list) {
    out.writeShort(list.size());
    for (String s : list) {
      writeString(out, s);
    }
  }

  public static void writeStringMultimap(ByteBuf out, Map<String, List<String>> map) {
    out.writeShort(map.size());
    for (Map.Entry<String, List<String>> e : map.entrySet()) {
      writeString(out, e.getKey());
      writeStringList(out, e.getValue());
    }
  }

  /** [inetaddr]: one byte of address length, then the address. */
  public static void writeInetAddr(ByteBuf out, java.net.InetAddress address) {
    byte[] b = address.getAddress();
    out.writeByte(b.length);
    out.writeBytes(b);
  }

  /** [inet]: [inetaddr] then an [int] port. */
  public static void writeInet(ByteBuf out, java.net.InetSocketAddress address) {
    writeInetAddr(out, address.getAddress());
    out.writeInt(address.getPort());
  }
}
