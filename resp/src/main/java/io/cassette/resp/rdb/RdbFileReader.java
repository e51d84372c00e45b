package io.cassette.resp.rdb;

import static io.cassette.resp.rdb.RdbFormat.*;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/**
 * Reads a whole RDB file (versions 1 to 11) as a stream, handing each key to a
 * {@link Visitor} as it is decoded, so a file larger than the heap can be imported; checks
 * the CRC-64 footer at the end (a footer of 0 means the writer did not compute one, as with
 * Redis's {@code rdbchecksum no}).
 */
public final class RdbFileReader {
  /** What the reader found, in file order. */
  public interface Visitor {
    /**
     * One key of database {@code db}; {@code expireAtMs} is 0 without expiry (an expiry in
     * the past is reported as it is: the visitor decides).
     */
    void entry(int db, byte[] key, RedisValue value, long expireAtMs) throws IOException;

    /** An AUX field (redis-ver, ctime...). */
    default void aux(String key, String value) {}

    /** A Redis function library (FUNCTION2): its code. */
    default void function(byte[] code) {}
  }

  private RdbFileReader() {}

  /** Reads {@code in} to the end; returns the file's RDB version. */
  public static int read(InputStream in, Visitor visitor) throws IOException {
    RdbInput r = new RdbInput(in);
    byte[] magic = r.readBytes(9);
    String head = new String(magic, StandardCharsets.US_ASCII);
    if (!head.startsWith("REDIS") || !head.substring(5).chars().allMatch(Character::isDigit)) {
      throw new RdbFormatException("not an RDB file: it starts with '" + head.replaceAll("[^ -~]", "?") + "'");
    }
    int version = Integer.parseInt(head.substring(5));
    if (version < 1 || version > 11) {
      throw new RdbFormatException("RDB version " + version + " is not supported (1 to 11 are)");
    }
    int db = 0;
    long expireAt = 0;
    while (true) {
      int op = r.readByte();
      switch (op) {
        case OP_EOF -> {
          if (version >= 5) {
            long computed = r.crc();
            long stored = r.readLe(8);
            if (stored != 0 && stored != computed) {
              throw new RdbFormatException(String.format(
                  "checksum failed: the file says %016x, its contents give %016x (damaged file?)", stored, computed));
            }
          }
          return version;
        }
        case OP_SELECTDB -> db = (int) r.readLength();
        case OP_RESIZEDB -> {
          r.readLength();
          r.readLength();
        }
        case OP_AUX -> visitor.aux(new String(r.readString(), StandardCharsets.UTF_8),
            new String(r.readString(), StandardCharsets.UTF_8));
        case OP_EXPIRETIME_MS -> expireAt = r.readLe(8);
        case OP_EXPIRETIME -> expireAt = r.readLe(4) * 1000;
        case OP_IDLE -> r.readLength();
        case OP_FREQ -> r.readByte();
        case OP_FUNCTION2 -> visitor.function(r.readString());
        case OP_FUNCTION, OP_MODULE_AUX -> throw new RdbFormatException(
            (op == OP_FUNCTION ? "pre-release function" : "module auxiliary") + " data at offset "
                + (r.offset() - 1) + " is not supported");
        default -> {
          long at = r.offset() - 1;
          byte[] key = r.readString();
          RedisValue value;
          try {
            value = RdbValueReader.read(op, r);
          } catch (RdbFormatException e) {
            throw new RdbFormatException("key '" + printable(key) + "' (db " + db + ", offset " + at + "): "
                + e.getMessage());
          }
          visitor.entry(db, key, value, expireAt);
          expireAt = 0;
        }
      }
    }
  }

  static String printable(byte[] key) {
    String s = new String(key, 0, Math.min(key.length, 64), StandardCharsets.UTF_8);
    return s.replaceAll("\\p{Cntrl}", "?") + (key.length > 64 ? "..." : "");
  }
}
