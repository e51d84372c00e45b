package io.cassette.resp.command;

import io.cassette.resp.keyspace.Database;
import io.cassette.resp.keyspace.KeyMeta;
import io.cassette.resp.protocol.Reply;
import io.cassette.storage.Row;
import io.cassette.storage.Slice;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A huge collection read in chunks on turns of the command thread ({@link KeysInTurns#steps}):
 * SMEMBERS, SUNION/SINTER/SDIFF (+STORE), HGETALL/HKEYS/HVALS and LRANGE of more than
 * {@link #ROWS_PER_STEP} elements; and big variadic writes ({@link #arguments}). Before, one SMEMBERS of a million members held every other
 * client for as long as the whole read took. The elements wait in the heap until the reply is
 * written, bounded by the client's hard output limit ({@link #check}).
 *
 * <p>Outside MULTI such a read is therefore not a snapshot: another client's writes between two
 * chunks may show (an element present throughout is read exactly once, as with SSCAN); inside
 * EXEC it runs whole. Command thread only.
 */
final class CollectionInTurns {
  /** Elements one step reads; a collection this small is read at once, as before. */
  static final int ROWS_PER_STEP = 1000;

  private CollectionInTurns() {}

  /** Whether {@code size} elements are read in turns: only when the client may wait. */
  static boolean inTurns(CommandContext c, long size) {
    return c.mayBlock && size > ROWS_PER_STEP;
  }

  /**
   * Every sub-row of {@code meta} under {@code tag}, each decoded at once to what the answer
   * needs (a Row holds ~200 bytes of objects besides its data: four HGETALLs of 100,000 fields
   * kept as Rows killed a 64 MiB node), then {@code then} answers from them (none when
   * {@code meta} is null). A big collection is read in turns, counted against the node's budget
   * with {@code heldOf}; a small one, or one inside EXEC, at once. For the commands that need a
   * whole collection: HGETALL and its kin, SRANDMEMBER, HRANDFIELD, ZRANDMEMBER.
   */
  static <T> void allRows(CommandContext c, KeyMeta meta, byte tag, Function<Row, T> decode,
                          ToLongFunction<T> heldOf, BiConsumer<Reply, List<T>> then) {
    List<T> out = new ArrayList<>();
    if (meta == null || !inTurns(c, meta.size)) {
      if (meta != null) {
        for (Row r : c.db().subRowsTagged(meta, tag, false, Integer.MAX_VALUE)) {
          out.add(decode.apply(r));
        }
      }
      then.accept(c.reply(), out);
      return;
    }
    long[] bytes = {0};
    BooleanSupplier read = subRows(c.db(), meta, tag, r -> {
      T t = decode.apply(r);
      out.add(t);
      bytes[0] += heldOf.applyAsLong(t);
    });
    KeysInTurns.steps(c, () -> {
      boolean done = read.getAsBoolean();
      check(c, bytes[0]);
      return done;
    }, reply -> then.accept(reply, out), () -> { });
  }

  /**
   * Reads the sub-rows of {@code meta} under {@code tag}, in clustering order, {@link #ROWS_PER_STEP}
   * a step, each to {@code sink}; a step answers true when all are read.
   */
  static BooleanSupplier subRows(Database db, KeyMeta meta, byte tag, Consumer<Row> sink) {
    Slice all = Slice.prefix(new byte[] {tag});
    return new BooleanSupplier() {
      byte[] last;

      @Override
      public boolean getAsBoolean() {
        // after the last row read: last + 0x00 (an exclusive start would also skip every
        // clustering that has the last as prefix: member "ab" after "a")
        Slice s = last == null ? all
            : new Slice(java.util.Arrays.copyOf(last, last.length + 1), true, all.end(),
                all.endInclusive());
        List<Row> rows = db.subRows(meta, s, false, ROWS_PER_STEP);
        for (Row r : rows) {
          sink.accept(r);
        }
        if (rows.size() < ROWS_PER_STEP) {
          return true;
        }
        last = rows.get(rows.size() - 1).clustering();
        return false;
      }
    };
  }

  /**
   * The sub-rows of {@code meta} in {@code slice} (reversed when asked), {@link #ROWS_PER_STEP} a
   * step, each to {@code sink} until it answers false; a step answers true when done. The
   * sorted-set range reads (ZRANGE family, ZRANGESTORE) use it.
   */
  static BooleanSupplier sliceRows(Database db, KeyMeta meta, Slice slice, boolean reverse,
                                   java.util.function.Predicate<Row> sink) {
    return new BooleanSupplier() {
      byte[] last;
      boolean stopped;

      @Override
      public boolean getAsBoolean() {
        if (stopped) {
          return true;
        }
        Slice s = slice;
        if (last != null) {
          s = reverse ? new Slice(slice.start(), slice.startInclusive(), last, false)
              : new Slice(java.util.Arrays.copyOf(last, last.length + 1), true, slice.end(),
                  slice.endInclusive());
        }
        List<Row> rows = db.subRows(meta, s, reverse, ROWS_PER_STEP);
        for (Row r : rows) {
          if (!sink.test(r)) {
            stopped = true;
            return true;
          }
        }
        if (rows.size() < ROWS_PER_STEP) {
          return true;
        }
        last = rows.get(rows.size() - 1).clustering();
        return false;
      }
    };
  }

  /** List positions {@code from..to} (absolute, as {@link Database#listRange}), a chunk a step. */
  static BooleanSupplier listRange(Database db, KeyMeta meta, long from, long to, Consumer<Row> sink) {
    return new BooleanSupplier() {
      long next = from;

      @Override
      public boolean getAsBoolean() {
        long hi = Math.min(to, next + ROWS_PER_STEP - 1);
        List<Row> rows = db.listRange(meta, next, hi, false, ROWS_PER_STEP);
        for (Row r : rows) {
          sink.accept(r);
        }
        next = hi + 1;
        return next > to || rows.isEmpty();
      }
    };
  }

  /** One chunk of a variadic write: applies arguments {@code from} (inclusive) to {@code to} (exclusive). */
  interface ArgumentChunk {
    /** Applies the chunk as the whole command would, in its own commit; returns its count for the reply. */
    long apply(int from, int to);
  }

  /**
   * A variadic write of many elements (SADD, SREM, HSET, HMSET, HDEL) in chunks of
   * {@link #ROWS_PER_STEP} elements ({@code stride} arguments each, from argument {@code first}),
   * each chunk its own commit on a turn of the command thread; {@code finish} writes the reply
   * from the counts added up. Answers false, having done nothing, when the command is small or
   * may not wait (inside EXEC): then the caller runs it whole, as before.
   *
   * <p>Outside MULTI such a write is therefore not isolated: another client may see the first
   * chunks and not yet the last, as with a pipeline of smaller SADDs; each chunk reads the key
   * afresh, so a key removed or retyped meanwhile is handled as a new command would.
   */
  static boolean arguments(CommandContext c, int first, int stride, ArgumentChunk chunk,
                           java.util.function.ObjLongConsumer<io.cassette.resp.protocol.Reply> finish) {
    if (!inTurns(c, (c.argc() - first) / stride)) {
      return false;
    }
    long[] total = {0};
    int[] next = {first};
    KeysInTurns.steps(c, () -> {
      int to = (int) Math.min(c.argc(), next[0] + (long) ROWS_PER_STEP * stride);
      total[0] += chunk.apply(next[0], to);
      next[0] = to;
      return to >= c.argc();
    }, r -> finish.accept(r, total[0]), () -> { });
    return true;
  }

  /** Heap an element kept for the reply takes: its bytes and about 48 of object. */
  static long held(byte[] element) {
    return 48L + (element == null ? 0 : element.length);
  }

  /**
   * Counts {@code heldBytes}, what the command holds for its reply so far, and refuses a result
   * past the client's hard output limit (its reply would close the client anyway) or past what
   * is left of the node's budget for all such results ({@link ServerContext#heldInTurnsBudget}):
   * the command ends with an error and its elements are dropped, the node and its other
   * clients go on. The count is given back by {@link #release} when the command ends: call it
   * only from a step of {@link KeysInTurns#steps}, whose end (reply, error or a client gone)
   * releases it.
   */
  static void check(CommandContext c, long heldBytes) {
    String name = c.spec.name().toUpperCase(java.util.Locale.ROOT);
    long hard = c.server.outputs.normal().hard();
    if (hard > 0 && heldBytes > hard) {
      throw new RedisException("ERR " + name + " result exceeds the client output buffer limit");
    }
    c.server.heldInTurns += heldBytes - c.heldCounted;
    c.heldCounted = heldBytes;
    if (c.server.heldInTurns > c.server.heldInTurnsBudget && heldBytes > ROWS_PER_STEP * 64L) {
      throw new RedisException("OOM " + name + " result does not fit the node's memory for results in"
          + " progress (other clients' big results hold it); try again later");
    }
  }

  /** Gives back what {@link #check} counted for {@code c}; the command's end (KeysInTurns' cleanup). */
  static void release(CommandContext c) {
    c.server.heldInTurns -= c.heldCounted;
    c.heldCounted = 0;
  }
}
