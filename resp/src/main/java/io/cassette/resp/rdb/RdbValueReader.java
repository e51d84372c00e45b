package io.cassette.resp.rdb;

import static io.cassette.resp.rdb.RdbFormat.*;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Decodes one value of a given RDB type:
 *
 * <pre>
 *  STRING            string
 *  LIST, SET         count:length string*
 *  ZSET              count:length (member:string score:text-double)*
 *  ZSET_2            count:length (member:string score:8 bytes LE IEEE 754)*
 *  HASH              count:length (field:string value:string)*
 *  SET_INTSET        string (an {@link Intset})
 *  LIST/ZSET/HASH_ZIPLIST   string (a {@link Ziplist}; zset and hash: pairs)
 *  HASH/ZSET_LISTPACK, SET_LISTPACK   string (a {@link Listpack}; zset and hash: pairs)
 *  LIST_QUICKLIST    nodes:length ziplist-string*
 *  LIST_QUICKLIST_2  nodes:length (container:length (1 plain element | 2 listpack):string)*
 * </pre>
 *
 * Streams, modules and zipmaps are refused with their name.
 */
public final class RdbValueReader {
  private RdbValueReader() {}

  public static RedisValue read(int type, RdbInput in) throws IOException {
    switch (type) {
      case TYPE_STRING:
        return new RedisValue.Str(in.readString());
      case TYPE_LIST:
        return new RedisValue.ListValue(strings(in, in.readLength()));
      case TYPE_SET:
        return new RedisValue.SetValue(strings(in, in.readLength()));
      case TYPE_ZSET:
      case TYPE_ZSET_2: {
        int n = count(in.readLength());
        List<byte[]> members = new ArrayList<>(n);
        double[] scores = new double[n];
        for (int i = 0; i < n; i++) {
          members.add(in.readString());
          scores[i] = type == TYPE_ZSET ? in.readDoubleText() : in.readBinaryDouble();
        }
        return new RedisValue.ZSetValue(members, scores);
      }
      case TYPE_HASH: {
        int n = count(in.readLength());
        List<byte[]> fields = new ArrayList<>(n);
        List<byte[]> values = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          fields.add(in.readString());
          values.add(in.readString());
        }
        return new RedisValue.HashValue(fields, values);
      }
      case TYPE_SET_INTSET:
        return new RedisValue.SetValue(Intset.read(in.readString()));
      case TYPE_SET_LISTPACK:
        return new RedisValue.SetValue(Listpack.read(in.readString()));
      case TYPE_LIST_ZIPLIST:
        return new RedisValue.ListValue(Ziplist.read(in.readString()));
      case TYPE_HASH_ZIPLIST:
        return hash(Ziplist.read(in.readString()));
      case TYPE_HASH_LISTPACK:
        return hash(Listpack.read(in.readString()));
      case TYPE_ZSET_ZIPLIST:
        return zset(Ziplist.read(in.readString()));
      case TYPE_ZSET_LISTPACK:
        return zset(Listpack.read(in.readString()));
      case TYPE_LIST_QUICKLIST: {
        long nodes = in.readLength();
        List<byte[]> all = new ArrayList<>();
        for (long i = 0; i < nodes; i++) {
          all.addAll(Ziplist.read(in.readString()));
        }
        return new RedisValue.ListValue(all);
      }
      case TYPE_LIST_QUICKLIST_2: {
        long nodes = in.readLength();
        List<byte[]> all = new ArrayList<>();
        for (long i = 0; i < nodes; i++) {
          long container = in.readLength();
          byte[] blob = in.readString();
          if (container == QUICKLIST_NODE_PLAIN) {
            all.add(blob);
          } else if (container == QUICKLIST_NODE_PACKED) {
            all.addAll(Listpack.read(blob));
          } else {
            throw new RdbFormatException("quicklist node container " + container + " is unknown");
          }
        }
        return new RedisValue.ListValue(all);
      }
      case TYPE_STREAM_LISTPACKS:
      case TYPE_STREAM_LISTPACKS_2:
      case RdbStream.TYPE_STREAM_LISTPACKS_3:
        return RdbStream.read(type, in);
      default:
        throw new RdbFormatException(typeName(type) + " values are not supported (offset " + (in.offset() - 1) + ")");
    }
  }

  private static List<byte[]> strings(RdbInput in, long n) throws IOException {
    List<byte[]> out = new ArrayList<>(count(n));
    for (long i = 0; i < n; i++) {
      out.add(in.readString());
    }
    return out;
  }

  private static RedisValue hash(List<byte[]> pairs) throws RdbFormatException {
    if (pairs.size() % 2 != 0) {
      throw new RdbFormatException("hash blob holds an odd number of entries (" + pairs.size() + ")");
    }
    List<byte[]> f = new ArrayList<>(pairs.size() / 2);
    List<byte[]> v = new ArrayList<>(pairs.size() / 2);
    for (int i = 0; i < pairs.size(); i += 2) {
      f.add(pairs.get(i));
      v.add(pairs.get(i + 1));
    }
    return new RedisValue.HashValue(f, v);
  }

  private static RedisValue zset(List<byte[]> pairs) throws RdbFormatException {
    if (pairs.size() % 2 != 0) {
      throw new RdbFormatException("sorted set blob holds an odd number of entries (" + pairs.size() + ")");
    }
    List<byte[]> m = new ArrayList<>(pairs.size() / 2);
    double[] s = new double[pairs.size() / 2];
    for (int i = 0; i < pairs.size(); i += 2) {
      m.add(pairs.get(i));
      s[i / 2] = RdbInput.parseDouble(pairs.get(i + 1));
    }
    return new RedisValue.ZSetValue(m, s);
  }

  private static int count(long n) throws RdbFormatException {
    if (n > Integer.MAX_VALUE - 16) {
      throw new RdbFormatException("a collection of " + n + " elements is larger than we hold in one value");
    }
    return (int) n;
  }
}
