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
    SortRun run = new SortRun(c, db, m, type, desc, alpha, dontsort, sortby, gets, storekey, start, end);
    KeysInTurns.steps(c, run, run::finish, () -> { });
  }

  /**
   * One SORT in stages, each a chunk of at most {@link CollectionInTurns#ROWS_PER_STEP} elements on
   * a turn of the command thread ({@link KeysInTurns#steps}): read the collection, look up the BY
   * weights, sort (one go, in memory), look up the GETs and, for STORE, write the new list's rows
   * (committed chunk by chunk under a version no key points to yet), then its metadata row, so
   * the destination changes at once. A big SORT held every other client for all of it before.
   * The elements held are bounded by the client's hard output limit ({@link CollectionInTurns#check}).
   * Outside MULTI the read is not a snapshot (as SMEMBERS in turns); inside EXEC it runs whole.
   */
  private static final class SortRun implements java.util.function.BooleanSupplier {
    private final CommandContext c;
    private final Database db;
    private final KeyMeta m;
    private final KeyType type;
    private final boolean desc;
    private final boolean alpha;
    private final boolean dontsort;
    private final byte[] sortby;
    private final List<byte[]> gets;
    private final byte[] storekey;
    private long start;
    private long end;
    private final List<Item> vector = new ArrayList<>();
    private long held;
    private java.util.function.BooleanSupplier reader;
    /** 0 read, 1 weights, 2 sort, 3 output, 4 done. */
    private int stage;
    private int next;
    private boolean conversionError;
    private List<byte[]> output;
    private KeyMeta list;
    private int outputlen;

    SortRun(CommandContext c, Database db, KeyMeta m, KeyType type, boolean desc, boolean alpha,
            boolean dontsort, byte[] sortby, List<byte[]> gets, byte[] storekey, long start, long end) {
      this.c = c;
      this.db = db;
      this.m = m;
      this.type = type;
      this.desc = desc;
      this.alpha = alpha;
      this.dontsort = dontsort;
      this.sortby = sortby;
      this.gets = gets;
      this.storekey = storekey;
      this.start = start;
      this.end = end;
      this.stage = m == null ? 2 : 0;
      if (m != null) {
        java.util.function.Consumer<Row> keep = r -> add(r);
        reader = type == KeyType.LIST
            ? CollectionInTurns.listRange(db, m, m.head, m.tail - 1, keep)
            : CollectionInTurns.subRows(db, m, type == KeyType.SET ? RedisLayout.SET_MEMBER : RedisLayout.ZSET_SCORE, keep);
      }
    }

    private void add(Row r) {
      byte[] obj = type == KeyType.LIST ? Database.valueOf(r)
          : type == KeyType.SET ? RedisLayout.untag(r.clustering())
          : RedisLayout.memberOfScoreClustering(r.clustering());
      vector.add(new Item(obj));
      held += CollectionInTurns.held(obj);
      CollectionInTurns.check(c, held);
    }

    @Override
    public boolean getAsBoolean() {
      switch (stage) {
        case 0 -> {
          if (reader.getAsBoolean()) {
            // read in ascending order; BY nosort DESC and LIMIT keep Redis's element order
            if (dontsort && desc && type != KeyType.SET) {
              java.util.Collections.reverse(vector);
            }
            boolean ranged = dontsort && (type == KeyType.LIST || type == KeyType.ZSET)
                && (start != 0 || end != vector.size() - 1);
            if (ranged) {
              List<Item> kept = end >= start
                  ? new ArrayList<>(vector.subList((int) Math.min(start, vector.size()),
                      (int) Math.min(end + 1, vector.size())))
                  : List.of();
              vector.clear();
              vector.addAll(kept);
              end -= start;
              start = 0;
            }
            stage = 1;
          }
        }
        case 1 -> {
          if (dontsort) {
            stage = 2;
            break;
          }
          int to = Math.min(vector.size(), next + CollectionInTurns.ROWS_PER_STEP);
          for (; next < to; next++) {
            Item it = vector.get(next);
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
          if (next >= vector.size()) {
            stage = 2;
          }
        }
        case 2 -> {
          if (!dontsort) {
            Comparator<Item> cmp = comparator(alpha, sortby != null);
            vector.sort(desc ? cmp.reversed() : cmp);
          }
          end = Math.min(end, vector.size() - 1); // the collection may have changed between turns
          outputlen = (int) (gets.isEmpty() ? end - start + 1 : gets.size() * (end - start + 1));
          if (conversionError) {
            throw new RedisException("ERR One or more scores can't be converted into double");
          }
          next = (int) start;
          stage = 3;
          if (storekey == null) {
            output = new ArrayList<>(Math.max(outputlen, 0));
          } else if (outputlen > 0) {
            list = db.newCollection(KeyType.LIST);
          }
        }
        case 3 -> {
          Batch b = list == null ? null : db.batch();
          long to = Math.min(end, next + (long) CollectionInTurns.ROWS_PER_STEP - 1);
          for (; next <= to; next++) {
            Item it = vector.get(next);
            if (gets.isEmpty()) {
              emit(b, it.obj);
            }
            for (byte[] g : gets) {
              emit(b, lookupByPattern(db, g, it.obj));
            }
          }
          if (b != null) {
            b.commit(); // rows of a version no key points to yet
          }
          if (next > end) {
            stage = 4;
          }
        }
        default -> {
          return true;
        }
      }
      return stage == 4;
    }

    private void emit(Batch b, byte[] v) {
      if (b == null) {
        output.add(v);
      } else {
        ListCommands.pushOne(b, list, v == null ? new byte[0] : v, false);
      }
    }

    /** Writes the reply, or for STORE points the destination at the new list (or removes it). */
    void finish(Reply r) {
      if (storekey == null) {
        r.array(Math.max(outputlen, 0));
        for (byte[] v : output) {
          r.bulk(v);
        }
        return;
      }
      KeyMeta old = db.meta(storekey);
      Batch b = db.batch();
      if (outputlen > 0) {
        db.store(b, storekey, old, list);
        b.commit();
        c.touched(storekey); // SORT's key spec names only the sorted key: WATCH of the target
        c.signalReady(storekey);
      } else if (old != null) {
        db.remove(b, storekey, old);
        b.commit();
        c.touched(storekey); // an empty result deletes the target: a change for WATCH
      }
      r.integer(Math.max(outputlen, 0));
    }
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
