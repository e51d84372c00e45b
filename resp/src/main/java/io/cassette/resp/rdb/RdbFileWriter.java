package io.cassette.resp.rdb;

import static io.cassette.resp.rdb.RdbFormat.*;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes an RDB file Redis 7.0 loads (version 10): header and AUX fields, then each database's
 * keys after SELECTDB and RESIZEDB, then EOF and the CRC-64. Use: {@link #startDb} (with the
 * key counts), {@link #entry} per key, {@link #finish}. Not thread-safe.
 */
public final class RdbFileWriter {
  private final RdbOutput out;
  private boolean finished;

  public RdbFileWriter(OutputStream stream) throws IOException {
    this.out = new RdbOutput(stream);
    out.writeBytes(String.format("REDIS%04d", VERSION).getBytes(StandardCharsets.US_ASCII));
    aux("redis-ver", "7.0.15");
    aux("redis-bits", "64");
    aux("ctime", Long.toString(System.currentTimeMillis() / 1000));
    aux("used-mem", "0");
    aux("aof-base", "0");
  }

  private void aux(String key, String value) throws IOException {
    out.writeByte(OP_AUX);
    out.writeString(key.getBytes(StandardCharsets.UTF_8));
    out.writeString(value.getBytes(StandardCharsets.UTF_8));
  }

  /** Starts database {@code db}; the counts are hints for Redis's hash table sizes. */
  public void startDb(int db, long keys, long expires) throws IOException {
    out.writeByte(OP_SELECTDB);
    out.writeLength(db);
    out.writeByte(OP_RESIZEDB);
    out.writeLength(keys);
    out.writeLength(expires);
  }

  /** One key; {@code expireAtMs} 0 for none. */
  public void entry(byte[] key, RedisValue value, long expireAtMs) throws IOException {
    if (expireAtMs > 0) {
      out.writeByte(OP_EXPIRETIME_MS);
      out.writeLe(expireAtMs, 8);
    }
    EncodedValue v = new EncodedValue(value);
    out.writeByte(v.type);
    out.writeString(key);
    out.writeBytes(v.body);
  }

  /**
   * One key from a DUMP payload (type, value, footer) as it came from a server: its value is
   * copied without decoding.
   */
  public void entryFromDump(byte[] key, byte[] payload, long expireAtMs) throws IOException {
    if (!DumpPayload.verify(payload)) {
      throw new RdbFormatException("DUMP payload of '" + RdbFileReader.printable(key) + "' fails its checksum");
    }
    if (expireAtMs > 0) {
      out.writeByte(OP_EXPIRETIME_MS);
      out.writeLe(expireAtMs, 8);
    }
    out.writeByte(payload[0] & 0xff);
    out.writeString(key);
    out.writeBytes(java.util.Arrays.copyOfRange(payload, 1, payload.length - 10));
  }

  /** Writes EOF and the checksum, and flushes. */
  public void finish() throws IOException {
    if (finished) {
      return;
    }
    finished = true;
    out.writeByte(OP_EOF);
    out.writeLe(out.crc(), 8);
    out.flush();
  }

  /** A value encoded apart, so its type byte can come before the key. */
  private static final class EncodedValue {
    final int type;
    final byte[] body;

    EncodedValue(RedisValue value) throws IOException {
      java.io.ByteArrayOutputStream b = new java.io.ByteArrayOutputStream();
      RdbValueWriter.write(value, new RdbOutput(b));
      byte[] all = b.toByteArray();
      type = all[0] & 0xff;
      body = java.util.Arrays.copyOfRange(all, 1, all.length);
    }
  }
}
