package io.cassette.resp.rdb;

import static io.cassette.resp.rdb.RdbFormat.TYPE_STREAM_LISTPACKS;
import static io.cassette.resp.rdb.RdbFormat.TYPE_STREAM_LISTPACKS_2;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Streams in RDB (rdb.c, t_stream.c), types 15 (Redis 5-6.2), 19 (7.0, written here) and 21
 * (7.2, read):
 *
 * <pre>
 *  nodes:len ( masterId:string(16 bytes BE ms|seq) listpack:string )*
 *  length:len lastMs:len lastSeq:len
 *  [19+] firstMs:len firstSeq:len maxDeletedMs:len maxDeletedSeq:len entriesAdded:len
 *  groups:len ( name:string lastMs:len lastSeq:len [19+] entriesRead:len
 *               pel:len ( id:16 raw bytes deliveryTime:8 LE deliveryCount:len )*
 *               consumers:len ( name:string seenTime:8 LE [21] activeTime:8 LE
 *                               pel:len id:16 raw bytes* )* )*
 *
 *  node listpack: count deleted masterFields:n field*n 0
 *                 ( flags msDelta seqDelta [fields:n (field value)*n | value*masterFields] lpCount )*
 *  flags: 1 deleted, 2 same fields as the master entry
 * </pre>
 */
final class RdbStream {
  static final int TYPE_STREAM_LISTPACKS_3 = 21;
  private static final int FLAG_DELETED = 1;
  private static final int FLAG_SAMEFIELDS = 2;
  /** Entries per node written (Redis's stream-node-max-entries default). */
  private static final int NODE_ENTRIES = 100;

  private RdbStream() {}

  static RedisValue.StreamValue read(int type, RdbInput in) throws IOException {
    long nodes = u64(in);
    List<RedisValue.StreamEntry> entries = new ArrayList<>();
    for (long n = 0; n < nodes; n++) {
      byte[] key = in.readString();
      if (key.length != 16) {
        throw new RdbFormatException("stream node key of " + key.length + " bytes (expected: 16)");
      }
      long masterMs = be(key, 0);
      long masterSeq = be(key, 8);
      List<byte[]> lp = Listpack.read(in.readString());
      if (lp.isEmpty()) {
        throw new RdbFormatException("empty listpack inside a stream");
      }
      int p = 0;
      long count = num(lp.get(p++));
      long deleted = num(lp.get(p++));
      int masterFields = (int) num(lp.get(p++));
      List<byte[]> master = lp.subList(p, p + masterFields);
      p += masterFields;
      p++; // master terminator
      for (long i = 0; i < count + deleted; i++) {
        long flags = num(lp.get(p++));
        long ms = masterMs + num(lp.get(p++));
        long seq = masterSeq + num(lp.get(p++));
        List<byte[]> fields = new ArrayList<>();
        if ((flags & FLAG_SAMEFIELDS) != 0) {
          for (int f = 0; f < masterFields; f++) {
            fields.add(master.get(f));
            fields.add(lp.get(p++));
          }
        } else {
          int nf = (int) num(lp.get(p++));
          for (int f = 0; f < nf * 2; f++) {
            fields.add(lp.get(p++));
          }
        }
        p++; // lp-count
        if ((flags & FLAG_DELETED) == 0) {
          entries.add(new RedisValue.StreamEntry(ms, seq, fields));
        }
      }
    }
    long length = u64(in);
    if (length != entries.size()) {
      throw new RdbFormatException("stream says " + length + " entries, its nodes hold " + entries.size());
    }
    long lastMs = u64(in);
    long lastSeq = u64(in);
    long firstMs = 0;
    long firstSeq = 0;
    long maxDelMs = 0;
    long maxDelSeq = 0;
    long added = length;
    boolean v2 = type != TYPE_STREAM_LISTPACKS;
    if (v2) {
      firstMs = u64(in);
      firstSeq = u64(in);
      maxDelMs = u64(in);
      maxDelSeq = u64(in);
      added = u64(in);
    } else if (!entries.isEmpty()) {
      firstMs = entries.get(0).ms();
      firstSeq = entries.get(0).seq();
    }
    long groupCount = u64(in);
    List<RedisValue.StreamGroup> groups = new ArrayList<>();
    for (long g = 0; g < groupCount; g++) {
      byte[] name = in.readString();
      long gMs = u64(in);
      long gSeq = u64(in);
      long entriesRead = v2 ? u64(in) : Long.MIN_VALUE; // MIN: estimate when stored
      long pelSize = u64(in);
      List<RedisValue.StreamNack> pel = new ArrayList<>();
      for (long i = 0; i < pelSize; i++) {
        byte[] id = in.readBytes(16);
        pel.add(new RedisValue.StreamNack(be(id, 0), be(id, 8), in.readLe(8), u64(in)));
      }
      long consumerCount = u64(in);
      List<RedisValue.StreamConsumer> consumers = new ArrayList<>();
      for (long i = 0; i < consumerCount; i++) {
        byte[] cname = in.readString();
        long seen = in.readLe(8);
        if (type == TYPE_STREAM_LISTPACKS_3) {
          in.readLe(8); // active-time (7.2)
        }
        long owned = u64(in);
        List<long[]> ids = new ArrayList<>();
        for (long k = 0; k < owned; k++) {
          byte[] id = in.readBytes(16);
          ids.add(new long[] {be(id, 0), be(id, 8)});
        }
        consumers.add(new RedisValue.StreamConsumer(cname, seen, ids));
      }
      groups.add(new RedisValue.StreamGroup(name, gMs, gSeq, entriesRead, pel, consumers));
    }
    return new RedisValue.StreamValue(entries, lastMs, lastSeq, firstMs, firstSeq, maxDelMs,
        maxDelSeq, added, groups);
  }

  static void write(RedisValue.StreamValue s, RdbOutput out) throws IOException {
    out.writeByte(TYPE_STREAM_LISTPACKS_2);
    List<RedisValue.StreamEntry> entries = s.entries();
    int nodes = (entries.size() + NODE_ENTRIES - 1) / NODE_ENTRIES;
    out.writeLength(nodes);
    for (int n = 0; n < nodes; n++) {
      List<RedisValue.StreamEntry> node = entries.subList(n * NODE_ENTRIES,
          Math.min(entries.size(), (n + 1) * NODE_ENTRIES));
      RedisValue.StreamEntry first = node.get(0);
      byte[] key = new byte[16];
      putBe(key, 0, first.ms());
      putBe(key, 8, first.seq());
      out.writeString(key);
      Listpack.Writer lp = new Listpack.Writer();
      lp.add(ascii(node.size())).add(ascii(0));
      int masterFields = first.fields().size() / 2;
      lp.add(ascii(masterFields));
      for (int f = 0; f < masterFields; f++) {
        lp.add(first.fields().get(2 * f));
      }
      lp.add(ascii(0));
      for (RedisValue.StreamEntry e : node) {
        boolean same = sameFields(first.fields(), e.fields());
        lp.add(ascii(same ? FLAG_SAMEFIELDS : 0));
        lp.add(ascii(e.ms() - first.ms())).add(ascii(e.seq() - first.seq()));
        int items;
        if (same) {
          for (int f = 0; f < masterFields; f++) {
            lp.add(e.fields().get(2 * f + 1));
          }
          items = masterFields;
        } else {
          lp.add(ascii(e.fields().size() / 2));
          for (byte[] f : e.fields()) {
            lp.add(f);
          }
          items = e.fields().size() + 1;
        }
        lp.add(ascii(items + 3)); // lp-count: the entry's elements after flags
      }
      out.writeString(lp.bytes());
    }
    out.writeLength(entries.size());
    u64(out, s.lastMs());
    u64(out, s.lastSeq());
    u64(out, s.firstMs());
    u64(out, s.firstSeq());
    u64(out, s.maxDeletedMs());
    u64(out, s.maxDeletedSeq());
    u64(out, s.entriesAdded());
    out.writeLength(s.groups().size());
    for (RedisValue.StreamGroup g : s.groups()) {
      out.writeString(g.name());
      u64(out, g.lastMs());
      u64(out, g.lastSeq());
      u64(out, g.entriesRead());
      out.writeLength(g.pending().size());
      for (RedisValue.StreamNack nack : g.pending()) {
        out.writeBytes(id(nack.ms(), nack.seq()));
        out.writeLe(nack.deliveryTime(), 8);
        u64(out, nack.deliveryCount());
      }
      out.writeLength(g.consumers().size());
      for (RedisValue.StreamConsumer c : g.consumers()) {
        out.writeString(c.name());
        out.writeLe(c.seenTime(), 8);
        out.writeLength(c.pending().size());
        for (long[] id : c.pending()) {
          out.writeBytes(id(id[0], id[1]));
        }
      }
    }
  }

  private static boolean sameFields(List<byte[]> master, List<byte[]> fields) {
    if (master.size() != fields.size()) {
      return false;
    }
    for (int i = 0; i < master.size(); i += 2) {
      if (!Arrays.equals(master.get(i), fields.get(i))) {
        return false;
      }
    }
    return true;
  }

  /** A length of all 64 bits (IDs and counters are unsigned; -1 is entries-read unknown). */
  private static long u64(RdbInput in) throws IOException {
    int b = in.readByte();
    switch (b >> 6) {
      case 0:
        return b & 0x3f;
      case 1:
        return ((b & 0x3f) << 8) | in.readByte();
      default:
        if (b == 0x80) {
          return be32(in.readBytes(4));
        }
        if (b == 0x81) {
          return be(in.readBytes(8), 0);
        }
        throw new RdbFormatException("bad length byte 0x" + Integer.toHexString(b) + " in a stream");
    }
  }

  private static void u64(RdbOutput out, long v) throws IOException {
    if (v >= 0) {
      out.writeLength(v);
      return;
    }
    byte[] b = new byte[9];
    b[0] = (byte) 0x81;
    putBe(b, 1, v);
    out.writeBytes(b);
  }

  private static long num(byte[] text) throws RdbFormatException {
    try {
      return Long.parseLong(new String(text, StandardCharsets.US_ASCII));
    } catch (NumberFormatException e) {
      throw new RdbFormatException("stream listpack: an integer was expected");
    }
  }

  private static byte[] ascii(long v) {
    return Long.toString(v).getBytes(StandardCharsets.US_ASCII);
  }

  private static byte[] id(long ms, long seq) {
    byte[] b = new byte[16];
    putBe(b, 0, ms);
    putBe(b, 8, seq);
    return b;
  }

  private static long be(byte[] b, int off) {
    long v = 0;
    for (int i = 0; i < 8; i++) {
      v = (v << 8) | (b[off + i] & 0xff);
    }
    return v;
  }

  private static long be32(byte[] b) {
    return ((b[0] & 0xffL) << 24) | ((b[1] & 0xff) << 16) | ((b[2] & 0xff) << 8) | (b[3] & 0xff);
  }

  private static void putBe(byte[] b, int off, long v) {
    for (int i = 7; i >= 0; i--) {
      b[off + i] = (byte) v;
      v >>>= 8;
    }
  }
}
