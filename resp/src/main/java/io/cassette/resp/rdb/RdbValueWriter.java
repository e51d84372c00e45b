package io.cassette.resp.rdb;

import static io.cassette.resp.rdb.RdbFormat.*;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Encodes one value as its RDB type byte and body, choosing the encodings Redis 7.0 chooses
 * with its default thresholds: integers in strings and listpacks as integers; lists as
 * quicklists of listpacks of at most 8 KB; sets of at most 512 integers as intsets, other sets
 * plain; hashes and sorted sets of at most 128 entries of at most 64 bytes as listpacks, else
 * plain (sorted sets with binary scores). Strings are not LZF-compressed (Redis loads both).
 */
public final class RdbValueWriter {
  private RdbValueWriter() {}

  public static void write(RedisValue value, RdbOutput out) throws IOException {
    if (value instanceof RedisValue.Str s) {
        out.writeByte(TYPE_STRING);
        out.writeString(s.value());
    } else if (value instanceof RedisValue.ListValue l) {
      writeList(l.elements(), out);
    } else if (value instanceof RedisValue.SetValue s) {
        byte[] intset = Intset.write(s.members());
        if (intset != null) {
          out.writeByte(TYPE_SET_INTSET);
          out.writeString(intset);
        } else {
          out.writeByte(TYPE_SET);
          out.writeLength(s.members().size());
          for (byte[] m : s.members()) {
            out.writeString(m);
          }
        }
    } else if (value instanceof RedisValue.HashValue h) {
        if (small(h.fields(), h.values(), HASH_MAX_LISTPACK_ENTRIES, HASH_MAX_LISTPACK_VALUE)) {
          Listpack.Writer lp = new Listpack.Writer();
          for (int i = 0; i < h.fields().size(); i++) {
            lp.add(h.fields().get(i)).add(h.values().get(i));
          }
          out.writeByte(TYPE_HASH_LISTPACK);
          out.writeString(lp.bytes());
        } else {
          out.writeByte(TYPE_HASH);
          out.writeLength(h.fields().size());
          for (int i = 0; i < h.fields().size(); i++) {
            out.writeString(h.fields().get(i));
            out.writeString(h.values().get(i));
          }
        }
    } else if (value instanceof RedisValue.StreamValue st) {
      RdbStream.write(st, out);
    } else if (value instanceof RedisValue.ZSetValue z) {
        if (small(z.members(), List.of(), ZSET_MAX_LISTPACK_ENTRIES, ZSET_MAX_LISTPACK_VALUE)) {
          Listpack.Writer lp = new Listpack.Writer();
          for (int i = 0; i < z.members().size(); i++) {
            lp.add(z.members().get(i)).add(scoreText(z.scores()[i]));
          }
          out.writeByte(TYPE_ZSET_LISTPACK);
          out.writeString(lp.bytes());
        } else {
          out.writeByte(TYPE_ZSET_2);
          out.writeLength(z.members().size());
          for (int i = z.members().size() - 1; i >= 0; i--) { // Redis writes from the highest score down
            out.writeString(z.members().get(i));
            out.writeLe(Double.doubleToLongBits(z.scores()[i]), 8);
          }
        }
    }
  }

  private static void writeList(List<byte[]> elements, RdbOutput out) throws IOException {
    List<byte[]> nodes = new ArrayList<>();
    Listpack.Writer lp = new Listpack.Writer();
    for (byte[] e : elements) {
      if (lp.count() > 0 && lp.size() + e.length + 11 > LIST_NODE_BYTES) {
        nodes.add(lp.bytes());
        lp = new Listpack.Writer();
      }
      lp.add(e);
    }
    if (lp.count() > 0) {
      nodes.add(lp.bytes());
    }
    out.writeByte(TYPE_LIST_QUICKLIST_2);
    out.writeLength(nodes.size());
    for (byte[] node : nodes) {
      out.writeLength(QUICKLIST_NODE_PACKED);
      out.writeString(node);
    }
  }

  private static boolean small(List<byte[]> a, List<byte[]> b, int maxEntries, int maxValue) {
    if (a.size() > maxEntries) {
      return false;
    }
    for (byte[] x : a) {
      if (x.length > maxValue) {
        return false;
      }
    }
    for (byte[] x : b) {
      if (x.length > maxValue) {
        return false;
      }
    }
    return true;
  }

  /** A score as Redis's d2string writes it into a listpack: integral values as integers. */
  static byte[] scoreText(double d) {
    String s;
    if (Double.isNaN(d)) {
      s = "nan";
    } else if (Double.isInfinite(d)) {
      s = d > 0 ? "inf" : "-inf";
    } else if (d == 0) {
      s = (Double.doubleToRawLongBits(d) < 0) ? "-0" : "0";
    } else if (d > -4503599627370495.0 && d < 4503599627370496.0 && d == (double) (long) d) {
      s = Long.toString((long) d);
    } else {
      s = Double.toString(d);
    }
    return s.getBytes(StandardCharsets.US_ASCII);
  }
}
