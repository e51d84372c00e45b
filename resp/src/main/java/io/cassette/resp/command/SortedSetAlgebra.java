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
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * ZUNION, ZINTER, ZDIFF, their STORE forms, ZUNIONSTORE/ZINTERSTORE (WEIGHTS, AGGREGATE) and
 * ZINTERCARD, as Redis 7.0's zunionInterDiffGenericCommand: inputs may be sets (score 1) or
 * sorted sets, a weighted NaN counts as 0, a SUM of +inf and -inf is 0, an empty result
 * deletes the destination. Inputs over {@link CollectionInTurns#ROWS_PER_STEP} elements in all
 * are read in turns of the command thread (issue 13), the result computed in the last turn.
 */
final class SortedSetAlgebra {
  private static final byte[] EMPTY = new byte[0];

  private SortedSetAlgebra() {}

  enum Op { UNION, INTER, DIFF }

  private enum Aggregate { SUM, MIN, MAX }

  static void register(CommandTable t) {
    t.add("zunionstore", -4, WRITE | DENY_OOM, 1, 1, 1, c -> run(c, Op.UNION, true, false));
    t.add("zinterstore", -4, WRITE | DENY_OOM, 1, 1, 1, c -> run(c, Op.INTER, true, false));
    t.add("zdiffstore", -4, WRITE | DENY_OOM, 1, 1, 1, c -> run(c, Op.DIFF, true, false));
    t.add("zunion", -3, READONLY, runKeyless(Op.UNION));
    t.add("zinter", -3, READONLY, runKeyless(Op.INTER));
    t.add("zdiff", -3, READONLY, runKeyless(Op.DIFF));
    t.add("zintercard", -3, READONLY, c -> run(c, Op.INTER, false, true));
  }

  private static CommandHandler runKeyless(Op op) {
    return c -> run(c, op, false, false);
  }

  /** The input keys of a numkeys command ({@code numkeysIndex} names the count), or empty. */
  static List<byte[]> keyArguments(byte[][] args, int numkeysIndex) {
    List<byte[]> keys = new ArrayList<>();
    if (numkeysIndex >= args.length) {
      return keys;
    }
    Long n = Args.parseLongOrNull(args[numkeysIndex]);
    for (int i = numkeysIndex + 1; n != null && i < args.length && i <= numkeysIndex + n; i++) {
      keys.add(args[i]);
    }
    return keys;
  }

  private static void run(CommandContext c, Op op, boolean store, boolean cardOnly) {
    int numkeysIndex = store ? 2 : 1;
    long setnum = Args.parseLong(c.arg(numkeysIndex));
    if (setnum < 1) {
      throw new RedisException("ERR at least 1 input key is needed for '" + c.spec.name()
          + "' command");
    }
    if (setnum > c.argc() - (numkeysIndex + 1)) {
      throw new RedisException(Errors.SYNTAX);
    }
    int n = (int) setnum;
    Database db = c.db();
    KeyMeta[] metas = new KeyMeta[n];
    long total = 0;
    for (int i = 0; i < n; i++) {
      KeyMeta m = db.meta(c.arg(numkeysIndex + 1 + i));
      if (m != null && m.type != KeyType.ZSET && m.type != KeyType.SET) {
        throw new RedisException(Errors.WRONGTYPE);
      }
      metas[i] = m;
      total += m == null ? 0 : m.size;
    }
    double[] weights = new double[n];
    Arrays.fill(weights, 1.0);
    Aggregate aggregate = Aggregate.SUM;
    boolean withScores = false;
    long limit = 0;
    int j = numkeysIndex + 1 + n;
    while (j < c.argc()) {
      int remaining = c.argc() - j;
      byte[] a = c.arg(j);
      if (op != Op.DIFF && !cardOnly && remaining >= n + 1 && Args.is(a, "weights")) {
        for (int i = 0; i < n; i++) {
          Double w = Args.parseDoubleOrNull(c.arg(j + 1 + i));
          if (w == null) {
            throw new RedisException("ERR weight value is not a float");
          }
          weights[i] = w;
        }
        j += n + 1;
      } else if (op != Op.DIFF && !cardOnly && remaining >= 2 && Args.is(a, "aggregate")) {
        byte[] v = c.arg(j + 1);
        if (Args.is(v, "sum")) {
          aggregate = Aggregate.SUM;
        } else if (Args.is(v, "min")) {
          aggregate = Aggregate.MIN;
        } else if (Args.is(v, "max")) {
          aggregate = Aggregate.MAX;
        } else {
          throw new RedisException(Errors.SYNTAX);
        }
        j += 2;
      } else if (!store && !cardOnly && Args.is(a, "withscores")) {
        withScores = true;
        j++;
      } else if (cardOnly && remaining >= 2 && Args.is(a, "limit")) {
        Long l = Args.parseLongOrNull(c.arg(j + 1));
        if (l == null || l < 0) {
          throw new RedisException("ERR LIMIT can't be negative");
        }
        limit = l;
        j += 2;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    Inputs in = new Inputs(db, metas);
    Aggregate agg = aggregate;
    boolean ws = withScores;
    long lim = limit;
    java.util.function.Consumer<Reply> finish = r -> {
      if (cardOnly) {
        r.integer(intercard(in.read, lim));
        return;
      }
      List<SortedSetCommands.Entry> result = combine(op, in.read, weights, agg);
      if (store) {
        r.integer(storeResult(c, db, c.arg(1), result));
      } else {
        SortedSetCommands.replyEntries(r, result, ws);
      }
    };
    if (!CollectionInTurns.inTurns(c, total)) {
      while (!in.getAsBoolean()) {
        // read everything now: a small input or inside EXEC
      }
      finish.accept(c.reply());
      return;
    }
    KeysInTurns.steps(c, () -> {
      boolean done = in.getAsBoolean();
      CollectionInTurns.check(c, in.held);
      return done;
    }, finish, () -> { });
  }

  /** The inputs' members and scores, read one chunk a step ({@link CollectionInTurns}). */
  private static final class Inputs implements java.util.function.BooleanSupplier {
    final Database db;
    final KeyMeta[] metas;
    final List<Map<ByteBuffer, Double>> read = new ArrayList<>();
    long held;
    private int index;
    private java.util.function.BooleanSupplier reader;

    Inputs(Database db, KeyMeta[] metas) {
      this.db = db;
      this.metas = metas;
    }

    @Override
    public boolean getAsBoolean() {
      if (index >= metas.length) {
        return true;
      }
      KeyMeta m = metas[index];
      if (reader == null) {
        Map<ByteBuffer, Double> cur = new java.util.LinkedHashMap<>();
        read.add(cur);
        if (m == null) {
          index++;
          return index >= metas.length;
        }
        boolean zset = m.type == KeyType.ZSET;
        reader = CollectionInTurns.subRows(db, m, zset ? RedisLayout.ZSET_MEMBER
            : RedisLayout.SET_MEMBER, (Row r) -> {
              byte[] member = RedisLayout.untag(r.clustering());
              cur.put(ByteBuffer.wrap(member),
                  zset ? RedisLayout.decodeScore(Database.valueOf(r)) : 1.0);
              held += CollectionInTurns.held(member) + 16;
            });
      }
      if (reader.getAsBoolean()) {
        reader = null;
        index++;
      }
      return index >= metas.length;
    }
  }

  private static double aggregate(double target, double val, Aggregate a) {
    switch (a) {
      case SUM -> {
        double s = target + val;
        return Double.isNaN(s) ? 0.0 : s;
      }
      case MIN -> {
        return val < target ? val : target;
      }
      default -> {
        return val > target ? val : target;
      }
    }
  }

  private static double weighted(double score, double weight) {
    double s = score * weight;
    return Double.isNaN(s) ? 0.0 : s;
  }

  static List<SortedSetCommands.Entry> combine(Op op, List<Map<ByteBuffer, Double>> inputs,
                                               double[] weights, Aggregate agg) {
    Map<ByteBuffer, Double> acc = new HashMap<>();
    switch (op) {
      case UNION -> {
        for (int i = 0; i < inputs.size(); i++) {
          for (Map.Entry<ByteBuffer, Double> e : inputs.get(i).entrySet()) {
            double s = weighted(e.getValue(), weights[i]);
            Double cur = acc.get(e.getKey());
            acc.put(e.getKey(), cur == null ? s : aggregate(cur, s, agg));
          }
        }
      }
      case INTER -> {
        Integer[] order = bySize(inputs);
        Map<ByteBuffer, Double> first = inputs.get(order[0]);
        outer:
        for (Map.Entry<ByteBuffer, Double> e : first.entrySet()) {
          double s = weighted(e.getValue(), weights[order[0]]);
          for (int k = 1; k < order.length; k++) {
            Double v = inputs.get(order[k]).get(e.getKey());
            if (v == null) {
              continue outer;
            }
            s = aggregate(s, v * weights[order[k]], agg);
          }
          acc.put(e.getKey(), s);
        }
      }
      default -> {
        outer:
        for (Map.Entry<ByteBuffer, Double> e : inputs.get(0).entrySet()) {
          for (int k = 1; k < inputs.size(); k++) {
            if (inputs.get(k).containsKey(e.getKey())) {
              continue outer;
            }
          }
          acc.put(e.getKey(), e.getValue());
        }
      }
    }
    List<SortedSetCommands.Entry> out = new ArrayList<>(acc.size());
    for (Map.Entry<ByteBuffer, Double> e : acc.entrySet()) {
      out.add(new SortedSetCommands.Entry(e.getKey().array(), e.getValue()));
    }
    out.sort(ORDER);
    return out;
  }

  /** Redis's sorted-set order: by score, then by member bytes. */
  static final Comparator<SortedSetCommands.Entry> ORDER = (a, b) -> {
    int s = Double.compare(a.score(), b.score());
    if (a.score() == b.score()) {
      s = 0; // -0.0 and 0.0 are one score
    }
    return s != 0 ? s : Arrays.compareUnsigned(a.member(), b.member());
  };

  private static Integer[] bySize(List<Map<ByteBuffer, Double>> inputs) {
    Integer[] order = new Integer[inputs.size()];
    for (int i = 0; i < order.length; i++) {
      order[i] = i;
    }
    Arrays.sort(order, Comparator.comparingInt(i -> inputs.get(i).size()));
    return order;
  }

  private static long intercard(List<Map<ByteBuffer, Double>> inputs, long limit) {
    Integer[] order = bySize(inputs);
    long n = 0;
    outer:
    for (ByteBuffer member : inputs.get(order[0]).keySet()) {
      for (int k = 1; k < order.length; k++) {
        if (!inputs.get(order[k]).containsKey(member)) {
          continue outer;
        }
      }
      n++;
      if (limit > 0 && n >= limit) {
        break;
      }
    }
    return n;
  }

  /**
   * Replaces {@code dst} (of any type) with a sorted set of {@code result}, or deletes it when
   * the result is empty; answers the result's size.
   */
  static long storeResult(CommandContext c, Database db, byte[] dst,
                          List<SortedSetCommands.Entry> result) {
    KeyMeta old = db.meta(dst);
    if (result.isEmpty()) {
      if (old != null) {
        Batch b = db.batch();
        db.remove(b, dst, old);
        b.commit();
        c.touched(dst);
      }
      return 0;
    }
    KeyMeta fresh = db.newCollection(KeyType.ZSET);
    Batch b = db.batch();
    int inBatch = 0;
    for (SortedSetCommands.Entry e : result) {
      b.putSub(fresh, SortedSetCommands.memberKey(e.member()), RedisLayout.encodeScore(e.score()));
      b.putSub(fresh, RedisLayout.scoreClustering(e.score(), e.member()), EMPTY);
      if (++inBatch >= StoredValues.ROWS_PER_BATCH) { // a large result in several records
        b.commit();
        b = db.batch();
        inBatch = 0;
      }
    }
    fresh.size = result.size();
    db.store(b, dst, old, fresh);
    b.commit();
    c.touched(dst);
    c.signalReady(dst);
    return result.size();
  }
}
