package io.cassette.resp.stream;

import io.cassette.resp.keyspace.RedisLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * How a stream lies in its collection's sub-row partition (see RedisLayout; the metadata
 * row's size is the stream's length). Do not change: it is on disk.
 *
 * <pre>
 *  clustering                       value
 *  'T'                              {@link StreamState}
 *  'E' | ms(8) | seq(8)             node(8) | fields(4) { len(4) bytes }*   one entry (field, value, ...)
 *  'G' | group name                 {@link ConsumerGroup}
 * </pre>
 *
 * Entries are ordered by ID (big-endian unsigned), so XRANGE is a slice and trimming is a
 * range tombstone; they are never put in the sub-row cache (one read per range instead).
 */
final class StreamLayout {
  static final byte[] STATE = {'T'};
  static final byte ENTRY = RedisLayout.STREAM_ENTRY;
  static final byte GROUP = 'G';

  private StreamLayout() {}

  static byte[] entry(StreamId id) {
    byte[] c = new byte[17];
    c[0] = ENTRY;
    id.encode(c, 1);
    return c;
  }

  static StreamId idOf(byte[] entryClustering) {
    return StreamId.decode(entryClustering, 1);
  }

  static byte[] group(byte[] name) {
    return RedisLayout.tagged(GROUP, name);
  }

  static byte[] encodeEntry(long node, byte[][] args, int from) {
    int size = 12;
    for (int i = from; i < args.length; i++) {
      size += 4 + args[i].length;
    }
    ByteBuffer b = ByteBuffer.allocate(size);
    b.putLong(node).putInt(args.length - from);
    for (int i = from; i < args.length; i++) {
      b.putInt(args[i].length).put(args[i]);
    }
    return b.array();
  }

  static long nodeOf(byte[] value) {
    return StreamId.getLong(value, 0);
  }

  /** field, value, field, value ... */
  static List<byte[]> fieldsOf(byte[] value) {
    ByteBuffer b = ByteBuffer.wrap(value);
    b.getLong();
    int n = b.getInt();
    List<byte[]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] f = new byte[b.getInt()];
      b.get(f);
      out.add(f);
    }
    return out;
  }

  /** Roughly the bytes an entry adds to Redis's listpack node (stream-node-max-bytes). */
  static long listpackBytes(byte[][] args, int from) {
    long n = 4;
    for (int i = from; i < args.length; i++) {
      n += args[i].length + 2;
    }
    return n;
  }
}
