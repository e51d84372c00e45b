package io.cassette.resp.ring;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * Payloads of the REDIS_REQ / REDIS_RSP verbs. Do not reorder: they are on the wire.
 *
 * <pre>
 *  request  := version(1)=1 | kind(1) | db(4) | protocol(1) | token(8) | count(4) | command*count
 *  command  := argc(4) | (length(4) | bytes)*argc
 *  response := version(1)=1 | RESP bytes of the reply, as the client reads them
 * </pre>
 *
 * The token names one client's state at the executor (a blocked pop to cancel, WATCHed keys
 * for its EXEC); the client's node picks it, 0 = none. Kinds: {@link #COMMAND} one command
 * (which may block: BLPOP); {@link #EXEC} the commands of a MULTI, run as one EXEC (checking
 * the token's WATCHed keys); {@link #WATCH} {key...} for the token (answered +OK);
 * one-way: {@link #PUBLISH} {channel, message} to the node's subscribers; {@link #EXPIRE}
 * {key}: delete it if its TTL passed; {@link #UNWATCH} / {@link #CANCEL} forget the token's
 * watches / blocked pop; {@link #FLUSHED} database db (-1: all) was flushed: drop caches;
 * {@link #COUNT} the keys of database db in the node's own ranges (answered as a RESP integer);
 * {@link #LEASE} {lease id, end (8 bytes, wall ms)} with the epoch as token: grant or renew an
 * executor's lease ({@link ExecutorLeases}), answered with {@link LeasePromises.Answer}'s bytes.
 */
final class RedisMessages {
  static final byte VERSION = 1;
  static final byte COMMAND = 0;
  static final byte EXEC = 1;
  static final byte PUBLISH = 2;
  static final byte EXPIRE = 3;
  static final byte WATCH = 4;
  static final byte UNWATCH = 5;
  static final byte CANCEL = 6;
  static final byte FLUSHED = 7;
  static final byte COUNT = 8;
  static final byte LEASE = 9;

  /** A decoded request. */
  record Request(byte kind, int db, int protocol, long token, List<byte[][]> commands) {}

  private RedisMessages() {}

  static byte[] request(byte kind, int db, int protocol, long token, List<byte[][]> commands) {
    int size = 1 + 1 + 4 + 1 + 8 + 4;
    for (byte[][] c : commands) {
      size += 4;
      for (byte[] a : c) {
        size += 4 + a.length;
      }
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.put(VERSION).put(kind).putInt(db).put((byte) protocol).putLong(token).putInt(commands.size());
    for (byte[][] c : commands) {
      b.putInt(c.length);
      for (byte[] a : c) {
        b.putInt(a.length).put(a);
      }
    }
    return b.array();
  }

  static Request request(byte[] payload) {
    ByteBuffer b = ByteBuffer.wrap(payload);
    byte version = b.get();
    if (version != VERSION) {
      throw new IllegalArgumentException("REDIS_REQ version: " + version + " (expected: " + VERSION + ")");
    }
    byte kind = b.get();
    int db = b.getInt();
    int protocol = b.get();
    long token = b.getLong();
    int count = b.getInt();
    List<byte[][]> commands = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      byte[][] args = new byte[b.getInt()][];
      for (int j = 0; j < args.length; j++) {
        args[j] = new byte[b.getInt()];
        b.get(args[j]);
      }
      commands.add(args);
    }
    return new Request(kind, db, protocol, token, commands);
  }

  /** A LEASE request: grant {@code epoch} of lease {@code id} to the sender until {@code endMillis}. */
  static byte[] lease(String id, long epoch, long endMillis) {
    byte[] end = ByteBuffer.allocate(8).putLong(endMillis).array();
    return request(LEASE, 0, 2, epoch, List.<byte[][]>of(new byte[][] {
        id.getBytes(java.nio.charset.StandardCharsets.UTF_8), end}));
  }

  static byte[] response(byte[] resp) {
    byte[] out = new byte[resp.length + 1];
    out[0] = VERSION;
    System.arraycopy(resp, 0, out, 1, resp.length);
    return out;
  }

  /** The RESP bytes of a response payload. */
  static byte[] reply(byte[] payload) {
    if (payload.length == 0 || payload[0] != VERSION) {
      throw new IllegalArgumentException("REDIS_RSP version: " + (payload.length == 0 ? "none" : payload[0])
          + " (expected: " + VERSION + ")");
    }
    byte[] out = new byte[payload.length - 1];
    System.arraycopy(payload, 1, out, 0, out.length);
    return out;
  }
}
