package io.cassette.resp.rdb;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The payload of Redis's DUMP and RESTORE: {@code type | value | version(2, LE) | crc64(8, LE)},
 * the CRC over everything before it. Byte-compatible with Redis 7.0 both ways: a payload
 * DUMPed by Redis RESTOREs here and one DUMPed here RESTOREs into Redis.
 */
public final class DumpPayload {
  private DumpPayload() {}

  public static byte[] encode(RedisValue value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    RdbOutput out = new RdbOutput(bytes);
    try {
      RdbValueWriter.write(value, out);
      out.writeLe(RdbFormat.VERSION, 2);
      long crc = out.crc();
      out.writeLe(crc, 8);
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a byte array does not fail
    }
    return bytes.toByteArray();
  }

  /** True when the footer's version is one we read and its CRC matches (Redis's verifyDumpPayload). */
  public static boolean verify(byte[] payload) {
    if (payload.length < 10) {
      return false;
    }
    int footer = payload.length - 10;
    int version = (payload[footer] & 0xff) | ((payload[footer + 1] & 0xff) << 8);
    if (version > RdbFormat.VERSION) {
      return false;
    }
    long crc = Listpack.le(payload, footer + 2, 8);
    return crc == Crc64.of(payload, 0, footer + 2);
  }

  /**
   * Decodes a payload that {@link #verify} accepted.
   *
   * @throws RdbFormatException when the value is malformed or of a type we do not hold
   */
  public static RedisValue decode(byte[] payload) throws RdbFormatException {
    RdbInput in = new RdbInput(new ByteArrayInputStream(payload, 0, payload.length - 10));
    try {
      RedisValue v = RdbValueReader.read(in.readByte(), in);
      if (in.offset() != payload.length - 10) {
        throw new RdbFormatException("payload has " + (payload.length - 10 - in.offset()) + " bytes after its value");
      }
      return v;
    } catch (RdbFormatException e) {
      throw e;
    } catch (IOException e) {
      throw new RdbFormatException(e.getMessage());
    }
  }
}
