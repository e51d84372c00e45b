package io.cassette.resp.command;

import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.keyspace.KeyType;
import io.cassette.resp.keyspace.RedisLayout;
import io.cassette.resp.protocol.Reply;
import io.cassette.storage.Row;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * SORT and SORT_RO (BY, LIMIT, GET, ASC|DESC, ALPHA, STORE) on lists, sets and sorted sets, as
 * Redis 7.0's sort.c: numeric by default (ties by the element's bytes), BY a pattern without
 * '*' does not sort, GET "#" is the element, "key*->field" reads a hash field. The whole
 * collection is read, as Redis does; the reply is bounded by the client's output limit.
 * A set's own order is its members' byte order here (Redis's is its hash table's), which only
 * shows with BY nosort.
 */
final class SortCommand {
  private SortCommand() {}

  static void register(CommandTable t) {
    t.add("sort", -2, WRITE | DENY_OOM, 1, 1, 1, c -> sort(c, false));
    t.add("sort_ro", -2, READONLY, 1, 1, 1, c -> sort(c, true));
  }

  private static final class Item {
    final byte[] obj;
    double score;
    byte[] cmp;

    Item(byte[] obj) {
      this.obj = obj;
    }
  }

  private static void sort(CommandContext c, boolean readonly) {
    boolean desc = false;
    boolean alpha = false;
    boolean dontsort = false;
    long limitStart = 0;
    long limitCount = -1;
    byte[] sortby = null;
    byte[] storekey = null;
    List<byte[]> gets = new ArrayList<>();
    for (int j = 2; j < c.argc(); j++) {
      int left = c.argc() - j - 1;
      byte[] a = c.arg(j);
      if (Args.is(a, "asc")) {
        desc = false;
      } else if (Args.is(a, "desc")) {
        desc = true;
      } else if (Args.is(a, "alpha")) {
        alpha = true;
      } else if (Args.is(a, "limit") && left >= 2) {
        limitStart = Args.parseLong(c.arg(j + 1));
        limitCount = Args.parseLong(c.arg(j + 2));
        j += 2;
      } else if (!readonly && Args.is(a, "store") && left >= 1) {
        storekey = c.arg(++j);
      } else if (Args.is(a, "by") && left >= 1) {
        sortby = c.arg(++j);
        if (indexOf(sortby, (byte) '*', 0) < 0) {
          dontsort = true;
        }
      } else if (Args.is(a, "get") && left >= 1) {
        gets.add(c.arg(++j));
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    Database db = c.db();
    KeyMeta m = db.meta(c.arg(1));
    if (m != null && m.type != KeyType.LIST && m.type != KeyType.SET
        && m.type != KeyType.ZSET) {
      throw new RedisException(Errors.WRONGTYPE);
    }
    KeyType type = m == null ? KeyType.LIST : m.type;
    if (dontsort && type == KeyType.SET && (storekey != null || c.session.id == -1 /* a script's client */)) {
      dontsort = false; // a set's order is not deterministic: sort it for replication safety
      alpha = true;
      sortby = null;
    }
    int vectorlen = m == null ? 0 : (int) Math.min(m.size, Integer.MAX_VALUE);
    long start = Math.min(Math.max(limitStart, 0), vectorlen);
    limitCount = Math.min(Math.max(limitCount, -1), vectorlen);
    long end = limitCount < 0 ? vectorlen - 1 : start + limitCount - 1;
    if (start >= vectorlen) {
      start = vectorlen - 1;
      end = vectorlen - 2;
    }
    if (end >= vectorlen) {
      end = vectorlen - 1;
    }
    List<Item> vector = new ArrayList<>();
    if (m != null) {
      boolean ranged = dontsort && (type == KeyType.LIST || type == KeyType.ZSET)
          && (start != 0 || end != vectorlen - 1);
      if (type == KeyType.LIST) {
        List<Row> rows;
        if (dontsort && ranged) {
          rows = end >= start ? (desc
              ? db.listRange(m, m.tail - 1 - end, m.tail - 1 - start, true, Integer.MAX_VALUE)
              : db.listRange(m, m.head + start, m.head + end, false, Integer.MAX_VALUE))
              : List.of();
        } else if (dontsort && desc) {
          rows = db.listRange(m, m.head, m.tail - 1, true, Integer.MAX_VALUE);
        } else {
          rows = db.listRange(m, m.head, m.tail - 1, false, Integer.MAX_VALUE);
        }
        for (Row r : rows) {
          vector.add(new Item(Database.valueOf(r)));
        }
      } else if (type == KeyType.SET) {
        for (Row r : db.subRowsTagged(m, RedisLayout.SET_MEMBER, false, Integer.MAX_VALUE)) {
          vector.add(new Item(RedisLayout.untag(r.clustering())));
        }
      } else {
        List<Row> rows = db.subRowsTagged(m, RedisLayout.ZSET_SCORE, dontsort && desc,
            Integer.MAX_VALUE);
        int from = ranged ? (int) Math.max(start, 0) : 0;
        int to = ranged ? (int) Math.max(end + 1, from) : rows.size();
        for (Row r : rows.subList(Math.min(from, rows.size()), Math.min(to, rows.size()))) {
          vector.add(new Item(RedisLayout.memberOfScoreClustering(r.clustering())));
        }
      }
      if (ranged) {
        end -= start;
        start = 0;
      }
    }
    boolean conversionError = false;
    if (!dontsort) {
      for (Item it : vector) {
        byte[] byval;
        if (sortby != null) {
          byval = lookupByPattern(db, sortby, it.obj);
          if (byval == null) {
            continue;
          }
        } else {
          byval = it.obj;
        }
        if (alpha) {
          if (sortby != null) {
            it.cmp = byval;
          }
        } else {
          Double d = strtod(byval);
          if (d == null) {
            conversionError = true;
          } else {
            it.score = d;
          }
        }
      }
      Comparator<Item> cmp = comparator(alpha, sortby != null);
      vector.sort(desc ? cmp.reversed() : cmp);
    }
    int outputlen = (int) (gets.isEmpty() ? end - start + 1 : gets.size() * (end - start + 1));
    if (conversionError) {
      throw new RedisException("ERR One or more scores can't be converted into double");
    }
    if (storekey == null) {
      Reply r = c.reply();
      r.array(Math.max(outputlen, 0));
      for (long j = start; j <= end; j++) {
        Item it = vector.get((int) j);
        if (gets.isEmpty()) {
          r.bulk(it.obj);
        }
        for (byte[] g : gets) {
          r.bulk(lookupByPattern(db, g, it.obj));
        }
      }
      return;
    }
    KeyMeta old = db.meta(storekey);
    Batch b = db.batch();
    if (outputlen > 0) {
      KeyMeta list = db.newCollection(KeyType.LIST);
      for (long j = start; j <= end; j++) {
        Item it = vector.get((int) j);
        if (gets.isEmpty()) {
          ListCommands.pushOne(b, list, it.obj, false);
        }
        for (byte[] g : gets) {
          byte[] v = lookupByPattern(db, g, it.obj);
          ListCommands.pushOne(b, list, v == null ? new byte[0] : v, false);
        }
      }
      db.store(b, storekey, old, list);
      b.commit();
      c.signalReady(storekey);
    } else if (old != null) {
      db.remove(b, storekey, old);
      b.commit();
    }
    c.reply().integer(Math.max(outputlen, 0));
  }

  private static Comparator<Item> comparator(boolean alpha, boolean byPattern) {
    if (!alpha) {
      return (a, b) -> {
        int cmp = Double.compare(a.score, b.score);
        if (a.score == b.score) { // -0.0 == 0.0, as C compares them
          cmp = 0;
        }
        return cmp != 0 ? cmp : Arrays.compareUnsigned(a.obj, b.obj);
      };
    }
    if (byPattern) {
      return (a, b) -> {
        if (a.cmp == null || b.cmp == null) {
          return a.cmp == b.cmp ? 0 : a.cmp == null ? -1 : 1;
        }
        return Arrays.compareUnsigned(a.cmp, b.cmp);
      };
    }
    return (a, b) -> Arrays.compareUnsigned(a.obj, b.obj);
  }

  /** Redis's strtod check: the whole text is a number, not NaN; null otherwise. */
  private static Double strtod(byte[] v) {
    String s = Args.str(v);
    int i = 0;
    while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
      i++;
    }
    String t = s.substring(i);
    String lower = t.toLowerCase(java.util.Locale.ROOT);
    String sign = lower.startsWith("-") || lower.startsWith("+") ? lower.substring(1) : lower;
    if (sign.equals("inf") || sign.equals("infinity")) {
      return lower.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
    }
    if (t.isEmpty() || sign.startsWith("nan") || !t.matches("[+-]?(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?")) {
      return t.isEmpty() ? 0.0 : null;
    }
    double d = Double.parseDouble(t);
    return Double.isInfinite(d) ? null : d; // ERANGE
  }

  /** Redis's lookupKeyByPattern: "#" is the element, "*" is replaced, "->field" reads a hash. */
  static byte[] lookupByPattern(Database db, byte[] pattern, byte[] subst) {
    if (pattern.length == 1 && pattern[0] == '#') {
      return subst;
    }
    int star = indexOf(pattern, (byte) '*', 0);
    if (star < 0) {
      return null;
    }
    int arrow = -1;
    for (int i = star + 1; i + 1 < pattern.length; i++) {
      if (pattern[i] == '-' && pattern[i + 1] == '>') {
        arrow = i;
        break;
      }
    }
    byte[] field = null;
    int keyEnd = pattern.length;
    if (arrow >= 0 && arrow + 2 < pattern.length) {
      field = Arrays.copyOfRange(pattern, arrow + 2, pattern.length);
      keyEnd = arrow;
    }
    byte[] key = new byte[star + subst.length + (keyEnd - star - 1)];
    System.arraycopy(pattern, 0, key, 0, star);
    System.arraycopy(subst, 0, key, star, subst.length);
    System.arraycopy(pattern, star + 1, key, star + subst.length, keyEnd - star - 1);
    KeyMeta m = db.meta(key);
    if (m == null) {
      return null;
    }
    if (field != null) {
      if (m.type != KeyType.HASH) {
        return null;
      }
      return db.subValue(m, RedisLayout.tagged(RedisLayout.HASH_FIELD, field));
    }
    return m.type == KeyType.STRING ? m.value : null;
  }

  private static int indexOf(byte[] a, byte b, int from) {
    for (int i = from; i < a.length; i++) {
      if (a[i] == b) {
        return i;
      }
    }
    return -1;
  }
}
