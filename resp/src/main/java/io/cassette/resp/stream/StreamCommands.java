package io.cassette.resp.stream;

import static io.cassette.resp.command.CommandSpec.BLOCKING;
import static io.cassette.resp.command.CommandSpec.DENY_OOM;
import static io.cassette.resp.command.CommandSpec.FAST;
import static io.cassette.resp.command.CommandSpec.READONLY;
import static io.cassette.resp.command.CommandSpec.WRITE;

import io.cassette.resp.command.Args;
import io.cassette.resp.command.CommandContext;
import io.cassette.resp.command.CommandTable;
import io.cassette.resp.command.Errors;
import io.cassette.resp.command.RedisException;
import io.cassette.resp.keyspace.Batch;
import io.cassette.resp.keyspace.Database;
import io.cassette.resp.protocol.Reply;
import io.cassette.resp.pubsub.KeyspaceEvents;
import io.cassette.resp.session.Session;
import java.util.ArrayList;
import java.util.List;

/**
 * Redis 7.0 streams (t_stream.c): XADD, XRANGE, XREVRANGE, XLEN, XDEL, XTRIM, XSETID, XREAD
 * and XREADGROUP; the consumer-group commands are in {@link StreamGroupCommands}, XINFO in
 * {@link StreamInfoCommand}. Entries live in the engine ({@link Stream}), so a stream may be
 * larger than the heap; a read without COUNT reads what it answers, as Redis does.
 */
public final class StreamCommands {
  private StreamCommands() {}

  public static void register(CommandTable t) {
    t.add("xadd", -5, WRITE | DENY_OOM | FAST, 1, 1, 1, StreamCommands::xadd);
    t.add("xrange", -4, READONLY, 1, 1, 1, c -> xrange(c, false));
    t.add("xrevrange", -4, READONLY, 1, 1, 1, c -> xrange(c, true));
    t.add("xlen", 2, READONLY | FAST, 1, 1, 1, StreamCommands::xlen);
    t.add("xdel", -3, WRITE | FAST, 1, 1, 1, StreamCommands::xdel);
    t.add("xtrim", -4, WRITE, 1, 1, 1, StreamCommands::xtrim);
    t.add("xsetid", -3, WRITE | DENY_OOM | FAST, 1, 1, 1, StreamCommands::xsetid);
    // keys follow STREAMS: COMMAND's movablekeys (see keysOf)
    t.add("xread", -4, READONLY | BLOCKING, 0, 0, 0, c -> StreamRead.execute(c, false));
    t.add("xreadgroup", -7, WRITE | BLOCKING, 0, 0, 0, c -> StreamRead.execute(c, true));
    StreamGroupCommands.register(t);
    StreamInfoCommand.register(t);
  }

  /** The key arguments of XREAD/XREADGROUP (after STREAMS, the first half), or null for other commands. */
  public static List<byte[]> keysOf(String name, byte[][] args) {
    if (!name.equals("xread") && !name.equals("xreadgroup")) {
      return null;
    }
    List<byte[]> keys = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      if (Args.is(args[i], "streams")) {
        int n = (args.length - i - 1) / 2;
        for (int k = 0; k < n; k++) {
          keys.add(args[i + 1 + k]);
        }
        return keys;
      }
    }
    return keys;
  }

  /**
   * XREAD/XREADGROUP's BLOCK milliseconds (for the ring's blocking rounds): -1 when the read
   * does not block, -2 for other commands or a BLOCK the command itself will refuse.
   */
  public static long blockMillis(String name, byte[][] args) {
    if (!name.equals("xread") && !name.equals("xreadgroup")) {
      return -2;
    }
    for (int i = 1; i + 1 < args.length; i++) {
      if (Args.is(args[i], "streams")) {
        return -1;
      }
      if (Args.is(args[i], "block")) {
        Long ms = Args.parseLongOrNull(args[i + 1]);
        return ms == null || ms < 0 ? -2 : ms;
      }
    }
    return -1;
  }

  /** The index of XREAD/XREADGROUP's BLOCK value (before STREAMS), or -1. */
  public static int blockArgument(byte[][] args) {
    String name = Args.str(args[0]).toLowerCase(java.util.Locale.ROOT);
    if (!name.equals("xread") && !name.equals("xreadgroup")) {
      return -1;
    }
    for (int i = 1; i + 1 < args.length; i++) {
      if (Args.is(args[i], "streams")) {
        return -1;
      }
      if (Args.is(args[i], "block")) {
        return i + 1;
      }
    }
    return -1;
  }

  // ---- shared helpers

  static long nowMs() {
    return System.currentTimeMillis();
  }

  static void event(CommandContext c, String name, byte[] key) {
    if (c.server.events.flags() != 0) {
      KeyspaceEvents.declareStream(c.args, name, key);
    }
  }

  static void entry(Reply r, Stream.Entry e) {
    r.array(2);
    r.bulk(e.id().bytes());
    r.array(e.fields().size());
    for (byte[] f : e.fields()) {
      r.bulk(f);
    }
  }

  static void entries(Reply r, List<Stream.Entry> list) {
    r.array(list.size());
    for (Stream.Entry e : list) {
      entry(r, e);
    }
  }

  /**
   * A container command's subcommand check, as Redis 7's command table makes it: unknown
   * names and wrong arities (per subcommand) answered before the subcommand runs.
   */
  static void checkSubcommand(CommandContext c, String container, java.util.Map<String, Integer> arities) {
    String sub = c.argString(1).toLowerCase(java.util.Locale.ROOT);
    Integer arity = arities.get(sub);
    if (arity == null) {
      throw new RedisException(Errors.unknownSubcommand(c.argString(1), container));
    }
    if (arity >= 0 ? c.argc() != arity : c.argc() < -arity) {
      throw new RedisException(Errors.wrongArity(container.toLowerCase(java.util.Locale.ROOT) + "|" + sub));
    }
  }

  static long parseLong(byte[] arg) {
    return Args.parseLong(arg);
  }

  private static long nodeMaxEntries(CommandContext c) {
    return c.server.config.number("stream-node-max-entries");
  }

  private static long nodeMaxBytes(CommandContext c) {
    return c.server.config.number("stream-node-max-bytes");
  }

  // ---- XADD / XTRIM arguments (streamParseAddOrTrimArgsOrReply)

  static final class AddTrimArgs {
    boolean byLength;
    boolean byId;
    long maxLen;
    StreamId minId;
    boolean approx;
    long limit;
    boolean noMkStream;
    StreamId id;
    boolean seqGiven = true;
    boolean idGiven;
    int idPos;

    boolean trims() {
      return byLength || byId;
    }

    Stream.Trim trim() {
      return new Stream.Trim(byLength, maxLen, minId, approx, limit);
    }
  }

  /**
   * After MAXLEN or MINID at {@code i}: refuses a second strategy, reads the optional {@code ~}
   * or {@code =} into {@code a.approx}, and returns the index of the threshold argument (the
   * caller has checked one argument follows the option).
   */
  private static int strategyThreshold(AddTrimArgs a, byte[][] argv, int i) {
    if (a.trims()) {
      throw new RedisException("ERR syntax error, MAXLEN and MINID options at the same time are not compatible");
    }
    byte[] next = argv[i + 1];
    boolean marker = argv.length - 1 - i >= 2 && next.length == 1 && (next[0] == '~' || next[0] == '=');
    a.approx = marker && next[0] == '~';
    return marker ? i + 2 : i + 1;
  }

  static AddTrimArgs parseAddOrTrim(CommandContext c, boolean xadd) {
    AddTrimArgs a = new AddTrimArgs();
    byte[][] argv = c.args;
    int i = 2;
    boolean limitGiven = false;
    for (; i < argv.length; i++) {
      int more = argv.length - 1 - i;
      byte[] opt = argv[i];
      if (xadd && opt.length == 1 && opt[0] == '*') {
        break;
      } else if (Args.is(opt, "maxlen") && more > 0) {
        i = strategyThreshold(a, argv, i);
        a.maxLen = parseLong(argv[i]);
        if (a.maxLen < 0) {
          throw new RedisException("ERR The MAXLEN argument must be >= 0.");
        }
        a.byLength = true;
      } else if (Args.is(opt, "minid") && more > 0) {
        i = strategyThreshold(a, argv, i);
        a.minId = StreamId.parseStrict(argv[i]);
        a.byId = true;
      } else if (Args.is(opt, "limit") && more > 0) {
        a.limit = parseLong(argv[i + 1]);
        if (a.limit < 0) {
          throw new RedisException("ERR The LIMIT argument must be >= 0.");
        }
        limitGiven = true;
        i++;
      } else if (xadd && Args.is(opt, "nomkstream")) {
        a.noMkStream = true;
      } else if (xadd) {
        StreamId.Parsed p = StreamId.parse(opt, 0, true, true);
        a.id = p.id();
        a.seqGiven = p.seqGiven();
        a.idGiven = true;
        break;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    a.idPos = i;
    if (a.limit != 0 && !a.trims()) {
      throw new RedisException("ERR syntax error, LIMIT cannot be used without specifying a trimming strategy");
    }
    if (!xadd && !a.trims()) {
      throw new RedisException("ERR syntax error, XTRIM must be called with a trimming strategy");
    }
    if (limitGiven) {
      if (!a.approx) {
        throw new RedisException("ERR syntax error, LIMIT cannot be used without the special ~ option");
      }
    } else if (a.approx) {
      long nodeMax = nodeMaxEntries(c);
      a.limit = 100 * nodeMax;
      if (a.limit <= 0 || nodeMax > 10_000) {
        a.limit = a.limit <= 0 ? 10_000 : Math.min(a.limit, 1_000_000);
      }
    } else {
      a.limit = 0;
    }
    return a;
  }

  // ---- commands

  private static void xadd(CommandContext c) {
    AddTrimArgs a = parseAddOrTrim(c, true);
    int fieldPos = a.idPos + 1;
    int n = c.argc() - fieldPos;
    if (n < 2 || n % 2 == 1) {
      throw new RedisException("ERR wrong number of arguments for 'xadd' command");
    }
    if (a.idGiven && a.seqGiven && a.id.isZero()) {
      throw new RedisException("ERR The ID specified in XADD must be greater than 0-0");
    }
    Database db = c.db();
    byte[] key = c.arg(1);
    Stream s = Stream.open(db, key);
    if (s == null) {
      if (a.noMkStream) {
        c.reply().nullBulk();
        return;
      }
      s = Stream.create(db, key);
    }
    if (s.state.last.equals(StreamId.MAX)) {
      throw new RedisException("ERR The stream has exhausted the last possible ID, unable to add more items");
    }
    Batch b = db.batch();
    StreamId id = s.append(b, a.idGiven ? a.id : null, a.seqGiven, c.args, fieldPos, nowMs(),
        nodeMaxEntries(c), nodeMaxBytes(c));
    if (id == null) {
      throw new RedisException("ERR The ID specified in XADD is equal or smaller than the target stream top item");
    }
    s.save(b);
    b.commit();
    c.reply().bulk(id.bytes());
    event(c, "xadd", key);
    if (a.trims()) {
      Batch t = db.batch();
      if (s.trim(t, a.trim()) > 0) {
        s.save(t);
        t.commit();
        event(c, "xtrim", key);
      }
    }
    c.touched(key);
    c.signalReady(key);
  }

  private static void xrange(CommandContext c, boolean rev) {
    byte[] startArg = rev ? c.arg(3) : c.arg(2);
    byte[] endArg = rev ? c.arg(2) : c.arg(3);
    StreamId start = StreamId.parseInterval(startArg, 0, true);
    StreamId end = StreamId.parseInterval(endArg, -1L, false);
    long count = -1;
    for (int j = 4; j < c.argc(); j++) {
      if (Args.is(c.arg(j), "count") && j + 1 < c.argc()) {
        count = parseLong(c.arg(j + 1));
        if (count < 0) {
          count = 0;
        }
        j++;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    Stream s = Stream.open(c.db(), c.arg(1));
    if (s == null) {
      c.reply().emptyArray();
      return;
    }
    if (count == 0) {
      c.reply().nullArray();
      return;
    }
    long limit = Math.max(count, 0);
    if (!io.cassette.resp.command.WorkInTurns.inTurns(c, limit == 0 ? s.length() : Math.min(limit, s.length()))) {
      entries(c.reply(), s.range(start, end, rev, limit));
      return;
    }
    // A long range: read a page per turn so other clients are served in between.
    List<Stream.Entry> out = new ArrayList<>();
    long[] held = {0};
    StreamId[] bounds = {start, end};
    io.cassette.resp.command.WorkInTurns.steps(c, () -> {
      long want = io.cassette.resp.command.WorkInTurns.ROWS_PER_STEP;
      if (limit != 0) {
        want = Math.min(want, limit - out.size());
      }
      List<Stream.Entry> page = s.range(bounds[0], bounds[1], rev, want);
      out.addAll(page);
      for (Stream.Entry e : page) {
        held[0] += 64;
        for (byte[] f : e.fields()) {
          held[0] += 48 + f.length;
        }
      }
      io.cassette.resp.command.WorkInTurns.check(c, held[0]);
      if (page.size() < want || (limit != 0 && out.size() >= limit)) {
        return true;
      }
      StreamId lastId = page.get(page.size() - 1).id();
      StreamId moved = rev ? lastId.previous() : lastId.next();
      if (moved == null) {
        return true;
      }
      bounds[rev ? 1 : 0] = moved;
      return false;
    }, r -> entries(r, out));
  }

  private static void xlen(CommandContext c) {
    Stream s = Stream.open(c.db(), c.arg(1));
    c.reply().integer(s == null ? 0 : s.length());
  }

  private static void xdel(CommandContext c) {
    List<StreamId> ids = new ArrayList<>();
    Stream s = Stream.open(c.db(), c.arg(1));
    if (s == null) {
      c.reply().integer(0);
      return;
    }
    for (int j = 2; j < c.argc(); j++) {
      ids.add(StreamId.parseStrict(c.arg(j)));
    }
    Batch b = c.db().batch();
    long deleted = 0;
    boolean first = false;
    for (StreamId id : ids) {
      if (s.delete(b, id)) {
        if (id.equals(s.state.first)) {
          first = true;
        }
        if (id.compareTo(s.state.maxDeleted) > 0) {
          s.state.maxDeleted = id;
        }
        deleted++;
      }
    }
    if (deleted > 0) {
      if (s.length() == 0) {
        s.state.first = StreamId.MIN;
      } else if (first) {
        b.commit(); // the deletions first: the new first entry is read from storage
        s.refreshFirst(null);
      }
      s.save(b);
      b.commit();
      event(c, "xdel", c.arg(1));
      c.touched(c.arg(1));
    }
    c.reply().integer(deleted);
  }

  private static void xtrim(CommandContext c) {
    AddTrimArgs a = parseAddOrTrim(c, false);
    Stream s = Stream.open(c.db(), c.arg(1));
    if (s == null) {
      c.reply().integer(0);
      return;
    }
    Batch b = c.db().batch();
    long deleted = s.trim(b, a.trim());
    if (deleted > 0) {
      s.save(b);
      b.commit();
      event(c, "xtrim", c.arg(1));
      c.touched(c.arg(1));
    }
    c.reply().integer(deleted);
  }

  private static void xsetid(CommandContext c) {
    StreamId id = StreamId.parseStrict(c.arg(2));
    StreamId maxDeleted = StreamId.MIN;
    long entriesAdded = -1;
    for (int i = 3; i < c.argc(); ) {
      int more = c.argc() - 1 - i;
      if (Args.is(c.arg(i), "entriesadded") && more > 0) {
        entriesAdded = parseLong(c.arg(i + 1));
        if (entriesAdded < 0) {
          throw new RedisException("ERR entries_added must be positive");
        }
        i += 2;
      } else if (Args.is(c.arg(i), "maxdeletedid") && more > 0) {
        maxDeleted = StreamId.parseStrict(c.arg(i + 1));
        if (id.compareTo(maxDeleted) < 0) {
          throw new RedisException("ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id");
        }
        i += 2;
      } else {
        throw new RedisException(Errors.SYNTAX);
      }
    }
    Stream s = Stream.open(c.db(), c.arg(1));
    if (s == null) {
      throw new RedisException(Errors.NO_SUCH_KEY);
    }
    if (s.length() > 0) {
      if (id.compareTo(s.lastValidId()) < 0) {
        throw new RedisException("ERR The ID specified in XSETID is smaller than the target stream top item");
      }
      if (entriesAdded != -1 && s.length() > entriesAdded) {
        throw new RedisException("ERR The entries_added specified in XSETID is smaller than the target stream length");
      }
    }
    s.state.last = id;
    if (entriesAdded != -1) {
      s.state.entriesAdded = entriesAdded;
    }
    if (!maxDeleted.isZero()) {
      s.state.maxDeleted = maxDeleted;
    }
    Batch b = c.db().batch();
    s.save(b);
    b.commit();
    event(c, "xsetid", c.arg(1));
    c.touched(c.arg(1));
    c.reply().ok();
  }

  /** Parses a BLOCK timeout in milliseconds into a deadline (0: forever). */
  static long blockDeadline(byte[] arg) {
    Long ms = Args.parseLongOrNull(arg);
    if (ms == null) {
      throw new RedisException("ERR timeout is not an integer or out of range");
    }
    if (ms < 0) {
      throw new RedisException(Errors.TIMEOUT_NEGATIVE);
    }
    return ms == 0 ? 0 : System.currentTimeMillis() + ms;
  }

  /** Blocks the client on {@code keys} with {@code args} as the retried command. */
  static void block(CommandContext c, byte[][] args, List<byte[]> keys, long deadline) {
    List<Session.KeyRef> refs = new ArrayList<>();
    for (byte[] k : keys) {
      refs.add(Session.KeyRef.of(c.session.db, k));
    }
    c.server.blocking.block(c.session, new Session.Blocked(args, refs, deadline));
  }
}
